import { api } from '../api'
import type { RunView as RunViewData } from '../apiTypes'
import { useNow } from '../hooks'
import { useChangeStamp } from '../query'
import { askedWords } from '../asked'
import { whenInWords } from '../format'
import { MoreFooter } from '../MoreFooter'
import { usePaged } from '../paging'
import { useWorkspace } from '../workspace'
import { ErrorNote, StatusBadge } from './common'

// Earlier runs of this workspace, newest first, a page at a time; picking one shows its
// handoff trail.
export function RunsList({ ws, onOpen }: { ws: string; onOpen: (run: RunViewData) => void }) {
  const changed = useChangeStamp(ws)
  const { asOf = null, names } = useWorkspace()
  const now = useNow()
  // A run is named by its task: the same question asked twice says which asking it was.
  const when = (r: (typeof runs.items)[number]) => {
    const asked = r.decision_ids.length ? names.askedOf(r.decision_ids[0]) : undefined
    return asked ? askedWords(asked, now) : whenInWords(r.created_at, now)
  }
  const runs = usePaged(ws, (cursor) => api.listRuns(ws, cursor), changed)
  // At a moment in the past, the runs made by then.
  const shown = asOf === null ? runs.items : runs.items.filter((r) => r.created_at <= asOf)
  async function open(id: string) {
    try {
      onOpen(await api.getRun(ws, id))
    } catch {
      runs.reload()
    }
  }
  if (runs.error && runs.items.length === 0) return <ErrorNote error={runs.error} />
  if (runs.items.length === 0) return runs.loading ? null : <p className="muted">No agent runs yet.</p>
  return (
    <>
      {shown.length === 0 && <p className="muted">No agent run had been made at this moment.</p>}
      <ul className="runs" data-testid="runs-list">
        {shown.map((r) => (
          <li key={r.id}>
            <button type="button" className="link" onClick={() => void open(r.id)}>
              {r.task}
            </button>{' '}
            <StatusBadge status={r.status} /> <span className="muted small">{when(r)}</span>
          </li>
        ))}
      </ul>
      {runs.error && <ErrorNote error={runs.error} />}
      <MoreFooter list={runs} testId="runs-more" noun="runs" />
    </>
  )
}
