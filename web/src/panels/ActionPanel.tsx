import { api } from '../api'
import { useAsync } from '../hooks'
import { ActionControls } from './ActionControls'
import { ErrorNote, NodeLink, type SelectById } from './common'

interface Props {
  ws: string
  id: string
  refreshKey: number
  onChanged: () => void
  onSelect: SelectById
}

export function ActionPanel({ ws, id, refreshKey, onChanged, onSelect }: Props) {
  const action = useAsync(id, () => api.getAction(ws, id), refreshKey)
  if (action.error) return <ErrorNote error={action.error} />
  if (!action.data) return <p className="muted">Loading the action…</p>
  return (
    <div className="stack" data-testid="action-panel" data-status={action.data.status}>
      <h2>Action</h2>
      <ActionControls ws={ws} action={action.data} onChanged={onChanged} />
      <div>
        Requires:{' '}
        {action.data.decision_ids.map((d) => (
          <NodeLink key={d} id={d} kind="decision" onSelect={onSelect} />
        ))}
      </div>
    </div>
  )
}
