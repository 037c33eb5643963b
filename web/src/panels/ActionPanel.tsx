import { api } from '../api'
import { useRead, wsKey } from '../query'
import { heldBecausePhrase, quoted } from '../reasons'
import { useWorkspace } from '../workspace'
import { ActionControls } from './ActionControls'
import { ErrorNote, PhraseView, StatusBadge, type SelectById } from './common'

interface Props {
  ws: string
  id: string
  onChanged: () => void
  onSelect: SelectById
}

const GOOD = new Set(['draft', 'accepted'])

export function ActionPanel({ ws, id, onChanged, onSelect }: Props) {
  const { names, asOf = null } = useWorkspace()
  const action = useRead(wsKey(ws, 'action', id, asOf), () => api.getAction(ws, id, asOf))
  if (action.error) return <ErrorNote error={action.error} />
  const a = action.data
  if (!a) return <p className="muted">Loading the action…</p>
  const fell = (d: string) => {
    const status = names.get(d)?.status
    return status != null && !GOOD.has(status)
  }
  return (
    <div className="stack" data-testid="action-panel" data-status={a.status}>
      <h2>Action</h2>
      {asOf === null && <ActionControls ws={ws} action={a} onChanged={onChanged} />}
      {a.status === 'held' && (
        <p className="review-reason status-held" data-testid="action-held-reason">
          <PhraseView phrase={heldBecausePhrase(a.decision_ids, names, 'past', fell)} onSelect={onSelect} />
        </p>
      )}
      <div>
        <h3>Requires</h3>
        <ul>
          {a.decision_ids.map((d) => (
            <li key={d}>
              <PhraseView phrase={quoted(d, 'decision', names)} onSelect={onSelect} />{' '}
              <StatusBadge status={names.get(d)?.status} />
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
