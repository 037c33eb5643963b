// Ways into the conflicts panel from elsewhere: a decision whose sources disagree, a claim
// that is one side of an open conflict.
import type { ClaimView } from '../apiTypes'
import { PhraseView, type SelectById } from '../panels/common'
import { claimWithOrigin } from '../reasons'
import { useWorkspace } from '../workspace'
import { useOpenConflict } from './nav'

/** Buttons that open the conflicts panel on each of these conflicts. */
export function ReviewConflictButtons({ ids }: { ids: string[] }) {
  const open = useOpenConflict()
  if (!open || ids.length === 0) return null
  return (
    <div className="row">
      {ids.map((id, i) => (
        <button key={id} type="button" className="secondary small" data-testid="review-conflict" data-id={id} onClick={() => open(id)}>
          {ids.length > 1 ? `Review conflict ${i + 1}` : 'Review the conflict'}
        </button>
      ))}
    </div>
  )
}

type ClaimConflict = ClaimView['conflicts'][number]

/** The open conflicts a claim read lists (docs/api.md: `conflicts` on GET /claims/{id}). */
function conflictsOf(claim: ClaimView): ClaimConflict[] {
  return (claim.conflicts ?? []).filter((c) => c.status === 'open')
}

/** Under a claim's evidence: which other source says otherwise, and a way to settle it. */
export function ClaimConflicts({ claim, onSelect }: { claim: ClaimView; onSelect: SelectById }) {
  const { names } = useWorkspace()
  const open = useOpenConflict()
  const conflicts = conflictsOf(claim)
  if (conflicts.length === 0) return null
  return (
    <div className="claim-conflicts warn" data-testid="claim-conflicts">
      {conflicts.map((c) => (
        <div key={c.id} className="stack">
          <p>
            <b>Sources disagree.</b> {c.reason}{' '}
            {c.other.map((o, i) => (
              <span key={o.id}>
                {i > 0 ? ' and ' : 'Against it: '}
                <PhraseView phrase={claimWithOrigin(o.id, withName(names, o))} onSelect={onSelect} />
              </span>
            ))}
            .
          </p>
          {open && (
            <div className="row">
              <button type="button" className="secondary small" data-testid="review-conflict" data-id={c.id} onClick={() => open(c.id)}>
                Review the conflict
              </button>
            </div>
          )}
        </div>
      ))}
    </div>
  )
}

function withName(names: ReturnType<typeof useWorkspace>['names'], o: ClaimConflict['other'][number]) {
  if (names.get(o.id)) return names
  return { ...names, get: (id: string) => (id === o.id ? { id, kind: 'claim' as const, label: o.statement, status: o.status } : names.get(id)) }
}
