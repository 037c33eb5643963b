// On a claim's panel: the erasure that took its words (when, by whom), or the request to
// forget that withholds it, with a way to that request.
import type { ClaimView } from '../apiTypes'
import { useOpenErasure } from './nav'
import { dateWords, who } from './words'

export function ClaimErasureNote({ claim }: { claim: ClaimView }) {
  const open = useOpenErasure()
  const e = claim.erasure
  if (!e) return null
  if (e.status === 'applied' || claim.status === 'erased') {
    return (
      <p className="erasure-note" data-testid="claim-erased" data-erasure-id={e.id}>
        Its words are gone from the memory (the statement above says when, and by whom); what rested on it was checked
        again.
      </p>
    )
  }
  if (e.status !== 'requested') return null
  return (
    <p className="warn" data-testid="claim-withheld" data-erasure-id={e.id}>
      Withheld: {who(e.by)} asked to forget this{e.at === null ? '' : ` on ${dateWords(e.at)}`}. No search or agent run finds it
      until a reviewer erases it or declines.{' '}
      {open && (
        <button type="button" className="link" data-testid="claim-withheld-open" onClick={() => open(e.id)}>
          Review the request
        </button>
      )}
    </p>
  )
}
