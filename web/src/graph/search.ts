// Pure: find nodes by the words of their label.
import type { GraphDTO } from '../apiTypes'
import type { LinkKind } from '../types'
import { productKind } from './toFlow'

const MAX_HITS = 8

export interface SearchHit {
  id: string
  kind: LinkKind
  label: string
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
    hits.push({ hit: { id: n.id, kind, label: n.label }, at: text.indexOf(words[0]) })
  }
  hits.sort((a, b) => a.at - b.at || a.hit.label.length - b.hit.label.length)
  return hits.slice(0, limit).map((h) => h.hit)
}
