import { api } from '../api'
import type { Action } from '../apiTypes'
import { useAction } from '../hooks'
import { ErrorNote, StatusBadge } from './common'

type Op = 'approve' | 'release' | 'done' | 'cancel'

// Which review steps make sense from each status; the server still has the last word.
const OPS: Record<Action['status'], Op[]> = {
  proposed: ['approve', 'done', 'cancel'],
  approved: ['done', 'cancel'],
  held: ['release', 'cancel'],
  done: [],
  cancelled: [],
}

interface Props {
  ws: string
  action: Action
  onChanged: () => void
}

export function ActionControls({ ws, action, onChanged }: Props) {
  const { busy, error, run } = useAction()
  async function apply(op: Op) {
    // The revision the UI saw: if someone changed the action since, the server says so (409).
    const result = await run(() => api.updateAction(ws, action.id, op, action.revision), () => onChanged())
    if (result) onChanged()
  }
  return (
    <div className="action-controls" data-testid="action-controls" data-action-id={action.id}>
      <div>
        <span className="action-desc">{action.description}</span> <StatusBadge status={action.status} />
        {action.held_from && <span className="muted"> (was {action.held_from})</span>}
      </div>
      <div className="row">
        {(OPS[action.status] ?? []).map((op) => (
          <button key={op} type="button" data-testid={`action-${op}`} disabled={busy} onClick={() => void apply(op)}>
            {op}
          </button>
        ))}
      </div>
      <ErrorNote error={error} testId="action-error" />
    </div>
  )
}
