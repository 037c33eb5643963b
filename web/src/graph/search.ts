// Pure: find nodes by the words of their label, and say how each hit was found.
import type { ClaimListItem, GraphDTO } from '../apiTypes'
import type { LinkKind } from '../types'
import { productKind } from './toFlow'

const MAX_HITS = 8

/** How the server's search found a claim: by its words, its meaning, both, or next to a hit. */
export type FoundMatch = NonNullable<ClaimListItem['found_by']>['match']

export interface SearchHit {
  id: string
  kind: LinkKind
  label: string
  /** How it was found; a node found in the drawn graph by the words of its label is `words`. */
  how: FoundMatch
}

/** Each way a hit is found, in the words the search list shows. */
export const FOUND_WORDS: Record<FoundMatch, string> = {
  words: 'by its words',
  meaning: 'by meaning',
  both: 'by words and meaning',
  neighbour: 'next to a hit in its source',
}

/** Pure: the drawn graph's hits, each claim with how the server's search found it (when it
 * did), then the claims only the server found, in its order. */
export function withFound(drawn: SearchHit[], found: ClaimListItem[]): SearchHit[] {
  const how = new Map(found.map((c) => [c.id, c.found_by?.match ?? 'words']))
  const seen = new Set(drawn.map((h) => h.id))
  return [
    ...drawn.map((h) => (h.kind === 'claim' && how.has(h.id) ? { ...h, how: how.get(h.id)! } : h)),
    ...found.filter((c) => !seen.has(c.id)).map((c) => ({ id: c.id, kind: 'claim' as const, label: c.statement, how: how.get(c.id)! })),
  ]
}

/** Pure: the nodes whose label contains every word typed, best (earliest match) first. */
export function searchNodes(dto: GraphDTO | null, query: string, limit = MAX_HITS): SearchHit[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (!dto || words.length === 0) return []
  const hits: { hit: SearchHit; at: number }[] = []
  for (const n of dto.nodes) {
    const kind = productKind(n.type)
    if (!kind) continue
    const text = n.label.toLowerCase()
    if (!words.every((w) => text.includes(w))) continue
    hits.push({ hit: { id: n.id, kind, label: n.label, how: 'words' }, at: text.indexOf(words[0]) })
  }
  hits.sort((a, b) => a.at - b.at || a.hit.label.length - b.hit.label.length)
  return hits.slice(0, limit).map((h) => h.hit)
}
