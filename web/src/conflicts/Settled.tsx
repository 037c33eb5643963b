// Conflicts that a correction or a resolution closed with it (one of their sides is what it
// superseded), each named by its two sides and said as settled by what.
import { useAsync } from '../hooks'
import { ErrorNote } from '../panels/common'
import { conflictApi } from './api'
import { betweenInWords, settledInWords } from './words'

export function SettledList({ ws, ids }: { ws: string; ids: readonly string[] }) {
  const read = useAsync(ids.length ? `${ws}:settled:${ids.join(',')}` : null, () =>
    Promise.all(ids.map((id) => conflictApi.get(ws, id))),
  )
  if (!ids.length) return null
  return (
    <div className="settled" data-testid="settled">
      <h4>{ids.length === 1 ? 'Also closed: a conflict it settled' : `Also closed: ${ids.length} conflicts it settled`}</h4>
      <ErrorNote error={read.error} />
      <ul>
        {(read.data ?? []).map((k) => (
          <li key={k.id} data-testid="settled-conflict" data-id={k.id}>
            The conflict between {betweenInWords(k)}. <span className="muted">{settledInWords(k)}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** A conflict that is no longer open, in words: how it was settled, resolved or dismissed. */
export function ClosedNote({ ws, id }: { ws: string; id: string }) {
  const read = useAsync(`${ws}:closed:${id}`, () => conflictApi.get(ws, id))
  const k = read.data
  return (
    <p className="muted" data-testid="conflict-not-open">
      That conflict is no longer open
      {k ? `: the conflict between ${betweenInWords(k)}. ${settledInWords(k) ?? (k.status === 'dismissed' ? 'It was dismissed.' : 'A reviewer resolved it.')}` : '.'}
    </p>
  )
}
