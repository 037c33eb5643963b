// The other claims a correction reaches, in a preview: copies of the statement ("also states
// this") and claims that state the same fact in other words ("also says this, in other
// words"), each with its quote and source. A claim in other words is corrected with it unless
// the reviewer leaves it out; one left out then stands in an open conflict with the
// correction.
import type { AlsoStates } from '../apiTypes'
import { NodeLink, type SelectById } from './common'

interface Props {
  items: AlsoStates[]
  /** Leave a claim in other words out of the correction, or take it back in. */
  onLeave: (claimId: string, leave: boolean) => void
  busy: boolean
  onSelect: SelectById
}

function Quote({ item, onSelect }: { item: AlsoStates; onSelect: SelectById }) {
  return (
    <>
      <q className="also-quote">
        <NodeLink id={item.claim_id} kind="claim" onSelect={onSelect}>
          {item.evidence_quote ?? item.statement}
        </NodeLink>
      </q>{' '}
      <span className="muted">— {item.source_title ?? 'a source without a title'}</span>
    </>
  )
}

export function AlsoStatesList({ items, onLeave, busy, onSelect }: Props) {
  const copies = items.filter((a) => !a.in_other_words)
  const words = items.filter((a) => a.in_other_words)
  if (items.length === 0) return null
  return (
    <div className="also-states" data-testid="also-states">
      {copies.length > 0 && (
        <>
          <h4>Also states this, corrected with it</h4>
          <ul>
            {copies.map((a) => (
              <li key={a.claim_id} data-testid="also-copy" data-id={a.claim_id}>
                <Quote item={a} onSelect={onSelect} />
              </li>
            ))}
          </ul>
        </>
      )}
      {words.length > 0 && (
        <>
          <h4>Also says this, in other words</h4>
          <ul>
            {words.map((a) => (
              <li
                key={a.claim_id}
                data-testid="also-other-words"
                data-id={a.claim_id}
                data-left-out={a.left_out ? 'true' : 'false'}
                className={a.left_out ? 'left-out' : undefined}
              >
                <Quote item={a} onSelect={onSelect} />
                {a.value_read && (
                  <span className="muted small">
                    {' '}
                    (says {a.value_read.value}
                    {a.value_read.in_other !== a.value_read.value ? `: “${a.value_read.in_other}”` : ''})
                  </span>
                )}
                <div className="row also-choice">
                  <span className="small" data-testid="also-fate">
                    {a.left_out
                      ? 'Left out: it stays, in an open conflict with the correction.'
                      : 'Corrected with it.'}
                  </span>
                  <button
                    type="button"
                    className="link-button"
                    data-testid="also-leave"
                    disabled={busy}
                    onClick={() => onLeave(a.claim_id, !a.left_out)}
                  >
                    {a.left_out ? 'Correct it too' : 'Leave it out'}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
