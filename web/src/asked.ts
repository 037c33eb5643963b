// Pure: when each decision was made, and which of several from the same question it is, so
// two runs of one question read as two wherever a decision is named (its card on the graph,
// the search box, the runs list, its panel, the phone's list).
import type { GraphDTO } from './apiTypes'
import { ordinal, whenInWords } from './format'

export interface Asked {
  /** When it was made (epoch ms). */
  at: number
  /** Its place among the decisions with the same title, oldest first (1-based). */
  nth: number
  /** How many decisions have that title. */
  of: number
}

/** Every decision of the product graph that says when it was made, by id. */
export function askedTimes(dto: GraphDTO | null): Map<string, Asked> {
  const out = new Map<string, Asked>()
  if (!dto) return out
  const byTitle = new Map<string, { id: string; at: number }[]>()
  for (const n of dto.nodes) {
    const at = n.data?.created_at
    if (n.type !== 'decision' || typeof at !== 'number') continue
    const same = byTitle.get(n.label) ?? []
    same.push({ id: n.id, at })
    byTitle.set(n.label, same)
  }
  for (const same of byTitle.values()) {
    same.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
    same.forEach((d, i) => out.set(d.id, { at: d.at, nth: i + 1, of: same.length }))
  }
  return out
}

export { ordinal }

/**
 * "decided today at 14:20", and "· 2nd of 2" when the same question was asked more than
 * once; `short` leaves out "decided" (a decision's card says what it is already).
 */
export function askedWords(a: Asked, now: number, { short = false, timeZone }: { short?: boolean; timeZone?: string } = {}): string {
  const when = whenInWords(a.at, now, timeZone)
  const words = short ? when : `decided ${when}`
  return a.of > 1 ? `${words} · ${ordinal(a.nth)} of ${a.of}` : words
}
