import { api } from '../api'
import type { RunView as RunViewData } from '../apiTypes'
import { useAsync } from '../hooks'
import { ErrorNote, StatusBadge } from './common'

// Earlier runs of this workspace; picking one shows its handoff trail.
export function RunsList({ ws, refreshKey, onOpen }: { ws: string; refreshKey: number; onOpen: (run: RunViewData) => void }) {
  const runs = useAsync(`${ws}:${refreshKey}`, () => api.listRuns(ws))
  async function open(id: string) {
    try {
      onOpen(await api.getRun(ws, id))
    } catch {
      runs.reload()
    }
  }
  if (runs.error) return <ErrorNote error={runs.error} />
  const items = runs.data?.items ?? []
  if (items.length === 0) return <p className="muted">No agent runs yet.</p>
  return (
    <ul className="runs" data-testid="runs-list">
      {items.map((r) => (
        <li key={r.id}>
          <button type="button" className="link" onClick={() => void open(r.id)}>
            {r.task}
          </button>{' '}
          <StatusBadge status={r.status} />
        </li>
      ))}
    </ul>
  )
}
