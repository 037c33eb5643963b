// Pure helpers about claims that several panels share.
import type { ClaimView } from './apiTypes'

export const REVIEWER_ORIGIN = 'Workspace reviewer correction'

/** Where a claim comes from, in the words a reviewer reads: a document's title, or the reviewer. */
export function originLabel(origin: ClaimView['origin']): string {
  // Every claim has evidence, so an origin; the API still says when it has none.
  if (origin === null) return 'unknown origin'
  if (origin.type === 'human_correction') return origin.name || REVIEWER_ORIGIN
  return origin.source_title || origin.name || origin.type
}

/** Current claims are the only ones a correction can start from. */
export function isCurrentClaim(status: string): boolean {
  return status === 'proposed' || status === 'accepted'
}
