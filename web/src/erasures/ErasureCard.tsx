// One erasure as the record keeps it: what it named, who erased it, when and why, how much
// went and what was repaired, and where the files on disk stand. No erased words: the record
// holds none.
import type { Erasure } from '../apiTypes'
import { NodeLink, type SelectById } from '../panels/common'
import { useWorkspace } from '../workspace'
import { useErasureRecord } from './record'
import { diskWords, goesWords, recordWords, repairedWords, stateWords } from './words'

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

export function ErasureCard({ record, onSelect }: { record: Erasure; onSelect: SelectById }) {
  const { ws, names } = useWorkspace()
  const e = useErasureRecord(ws, record)
  const titleOf = (id: string) => names.get(id)?.label
  const disk = diskWords(e)
  return (
    <article className={`erasure-card erasure-${e.status}`} data-testid="erasure-record" data-status={e.status} data-disk={e.disk ?? ''}>
      <p className="erasure-what">{capitalised(recordWords(e, titleOf))}</p>
      <p className="erasure-state">{stateWords(e)}</p>
      {e.reason && <p className="erasure-reason">Why: “{e.reason}”</p>}
      {e.counts && (
        <p className="erasure-counts" data-testid="erasure-counts">
          Went: {goesWords(e.counts)}.{' '}
          {capitalised(repairedWords(e.counts, 'past') ?? 'nothing that was decided rested on it')}.
        </p>
      )}
      {e.status === 'applied' && e.flagged.length > 0 && (
        <p className="erasure-links">
          Needs review:{' '}
          {e.flagged.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              <NodeLink id={id} kind="decision" onSelect={onSelect} />
            </span>
          ))}
        </p>
      )}
      {e.status === 'applied' && e.held.length > 0 && (
        <p className="erasure-links">
          Held:{' '}
          {e.held.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              <NodeLink id={id} kind="action" onSelect={onSelect} />
            </span>
          ))}
        </p>
      )}
      {disk && (
        <p className={`erasure-disk disk-${e.disk}`} data-testid="erasure-disk" data-disk={e.disk ?? ''}>
          {disk}
        </p>
      )}
    </article>
  )
}
