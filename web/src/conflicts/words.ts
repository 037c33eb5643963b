// Pure: a conflict in words (a dispute over one fact: each value a side with its claims,
// where each comes from and when), what a resolution does as a sentence, and what its preview
// marks on the graph.
import { whenInWords } from '../format'
import { REVIEWER, type Names } from '../names'
import { impactSummary, type ImpactPreview, type Phrase, type Tense } from '../reasons'
import type { PreviewMark } from '../types'
import type { Conflict, ConflictClaim, ConflictKind, ConflictSide, ResolutionPreview } from './types'

const KIND_WORDS: Record<ConflictKind, [string, string]> = {
  date: ['dates', 'for one thing'],
  time: ['times', 'for one thing'],
  number: ['numbers', 'for one thing'],
  amount: ['amounts', 'for one thing'],
  place: ['places', 'for one thing'],
  person: ['people', 'for one role'],
  other: ['values', 'for one thing'],
}
const COUNT_WORDS = ['', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine']

/** What a conflict is about, with how many values it holds: "Two dates for one thing". */
export function kindInWords(kind: string, values = 2): string {
  const [what, of] = KIND_WORDS[kind as ConflictKind] ?? KIND_WORDS.other
  const count = COUNT_WORDS[values] ?? values.toLocaleString('en')
  return `${count} ${what} ${of}`
}

/** Every claim a conflict lists, side after side (the newest value first). */
export function claimsOf(conflict: Conflict): ConflictClaim[] {
  return conflict.sides.flatMap((s) => s.claims)
}

/** The claim a reviewer keeps to keep a side's value: its first current claim. */
export function keeperOf(side: ConflictSide, isCurrent: (status: string) => boolean): ConflictClaim | null {
  return side.claims.find((c) => isCurrent(c.status)) ?? null
}

export { whenInWords }

/** When a claim's source (the version that says it) came in, or else when the claim was read. */
export function addedAt(side: ConflictClaim): number {
  return side.source_added_at ?? side.created_at
}

/** When a side came in: "added today at 14:20", with the version when it is past the first;
 *  for a message, who said it and when: "said by Ana today at 14:20". */
export function sideAdded(side: ConflictClaim, now: number, timeZone?: string): string {
  if (side.said_by != null && side.said_at != null) {
    return `said by ${side.said_by} ${whenInWords(side.said_at, now, timeZone)}`
  }
  const version = side.version && side.version > 1 ? `version ${side.version}, ` : ''
  return `${version}added ${whenInWords(addedAt(side), now, timeZone)}`
}

/** Where a side comes from and when: "March memo, added today at 14:20". */
export function sideOrigin(side: ConflictClaim, now: number, timeZone?: string): string {
  return `${side.source_title ?? 'A source no longer in the workspace'}, ${sideAdded(side, now, timeZone)}`
}

/** The newest word: the claim said (or added) last, as the server names it; a reviewer often
 * keeps the latest word. */
export function newerSide(conflict: Conflict): string | null {
  if (conflict.newer_claim_id) return conflict.newer_claim_id
  const [a, b] = claimsOf(conflict)
  if (!a || !b || addedAt(a) === addedAt(b)) return null
  return addedAt(a) > addedAt(b) ? a.id : b.id
}

/** Whether one speaker said every value, in words; null when they were not said. */
export function speakersInWords(conflict: Conflict): string | null {
  const every = conflict.n_sides > 2 ? 'every value' : 'both'
  if (conflict.same_speaker === true) return `One speaker said ${every}`
  if (conflict.same_speaker === false) return 'Said by more than one speaker'
  return null
}

/** Where a conflict's claim comes from, as the conflict itself says it: a source (its title
 * when known), or the reviewer's correction that wrote it, which is no source. */
interface SideOrigin {
  source_id: string | null
  source_title: string | null
  correction_id: string | null
}

/** A claim by its statement and where it comes from, from what the conflict itself says about it. */
function claimPhrase(id: string, statement: string, origin: SideOrigin, names: Names): Phrase {
  const phrase: Phrase = ['“', { id, kind: 'claim', text: statement }, '”']
  if (origin.correction_id) return [...phrase, ' from ', { id: origin.correction_id, kind: 'correction', text: REVIEWER }]
  if (!origin.source_id) return phrase
  return [...phrase, ' from ', { id: origin.source_id, kind: 'source', text: origin.source_title ?? names.get(origin.source_id)?.label ?? null }]
}

/** Where one side comes from in words: its source's title, or a reviewer's correction. */
export function originWords(side: SideOrigin, names: Names): string | null {
  if (side.correction_id) return REVIEWER
  if (!side.source_id) return null
  return side.source_title ?? names.get(side.source_id)?.label ?? null
}

export function keptSide(preview: ResolutionPreview): ConflictClaim | null {
  return claimsOf(preview.conflict).find((c) => c.id === preview.keep) ?? null
}

/** What the resolution does to the claims, as one sentence. */
export function resolutionPhrase(preview: ResolutionPreview, names: Names, tense: Tense): Phrase {
  if (preview.resolution === 'dismiss') {
    return [
      tense === 'preview'
        ? 'Every value stays current, and these claims will not be raised against each other again.'
        : 'Dismissed: every value stays current, and these claims will not be raised against each other again.',
    ]
  }
  const kept = keptSide(preview)
  const titles = new Map(claimsOf(preview.conflict).map((c) => [c.source_id, c.source_title]))
  const gone: Phrase = []
  preview.supersede.forEach((s, i) => {
    if (i > 0) gone.push(i === preview.supersede.length - 1 ? ' and ' : ', ')
    const title = s.source_id === null ? null : (titles.get(s.source_id) ?? null)
    gone.push(...claimPhrase(s.claim_id, s.statement, { ...s, source_title: title }, names))
  })
  const plural = preview.supersede.length > 1
  const verb = tense === 'preview' ? ' will be superseded by ' : plural ? ' were superseded by ' : ' was superseded by '
  if (!kept || gone.length === 0) return ['The other values will be superseded by the claim kept.']
  return [...gone, verb, ...claimPhrase(kept.id, kept.statement, kept, names), '.']
}

/** The impact part of a resolution, for the lists a correction preview uses. */
export function resolutionImpact(preview: ResolutionPreview): ImpactPreview {
  const only = preview.supersede.length === 1 ? { id: preview.supersede[0].claim_id } : null
  return { claim: only, flag: preview.flag, hold: preview.hold, stay: preview.stay }
}

/** What rests on the claims, in one line: flagged, held, stays; or that nothing does. */
export function impactLine(preview: ResolutionPreview, tense: Tense): string {
  const { flag, hold, stay } = preview
  if (flag.length + hold.length + stay.length > 0) return impactSummary(preview, tense)
  if (preview.resolution === 'dismiss') return 'No claim changes, so no decision or action does.'
  return tense === 'preview'
    ? 'No decision or action rested on it alone: nothing else changes.'
    : 'No decision or action rested on it alone.'
}

/** The strip over the graph while previewing, short like a correction's: the graph marks the rest. */
export function stripText(preview: ResolutionPreview, names: Names): string {
  const kept = keptSide(preview)
  if (preview.resolution === 'dismiss' || !kept) {
    return 'Previewing a dismissal: every value stays current, and these claims will not be raised against each other again.'
  }
  const from = originWords(kept, names)
  return `Previewing keeping “${kept.statement}”${from ? ` from ${from}` : ''}: ${impactLine(preview, 'preview')}`
}

/** What the preview marks on the graph: the claim kept, the claims superseded, and the rest as a correction. */
export function marksFromResolution(preview: ResolutionPreview | null): Map<string, PreviewMark> {
  const marks = new Map<string, PreviewMark>()
  if (!preview) return marks
  if (preview.resolution === 'dismiss') for (const c of claimsOf(preview.conflict)) marks.set(c.id, 'kept')
  else if (preview.keep) marks.set(preview.keep, 'kept')
  for (const s of preview.supersede) marks.set(s.claim_id, 'supersede')
  for (const s of preview.stay) marks.set(s.decision_id, 'stays')
  for (const f of preview.flag) marks.set(f.decision_id, 'flagged')
  for (const h of preview.hold) marks.set(h.action_id, 'held')
  return marks
}

/** The nodes a resolution touches, to bring into view. */
export function touchedByResolution(preview: ResolutionPreview): string[] {
  return [...marksFromResolution(preview).keys()]
}

/** The open conflict a graph edge draws (`CONFLICTS:{id}`, or `CONFLICTS:{id}:{claim}` for
 * one of the edges between the sides of a conflict of more values), or null for any other
 * edge. */
export function conflictOfEdge(edgeId: string, apiType: string | undefined): string | null {
  if (apiType !== 'CONFLICTS' || !edgeId.startsWith('CONFLICTS:')) return null
  return edgeId.slice('CONFLICTS:'.length).split(':')[0]
}

/** How far into the gap between columns (layout's RANK_SEP) the bracket reaches. */
export const BRACKET_REACH = 30
/** How much further each lane's bracket reaches, so overlapping brackets stay apart. */
export const LANE_STEP = 12
/** Where along its bracket a mark may go (a fraction of the way from one claim to the
 *  other), in the order they are tried: the middle first. */
const MARK_AT = [0.5, 0.32, 0.68, 0.2, 0.8, 0.41, 0.59, 0.12, 0.88]
/** How far apart two marks' centres must be, in graph units (a mark is about 22 across). */
export const MARK_GAP = 28

/**
 * A bracket from one claim's left side to the other's: out into the gap to the left, along it,
 * and back in, so it never runs through the claims between them. Returns the SVG path and
 * where its mark goes (the "≠"), `at` of the way along it.
 */
export function bracketPath(
  sx: number,
  sy: number,
  tx: number,
  ty: number,
  lane = 0,
  at = 0.5,
): { path: string; apexX: number; apexY: number } {
  // A cubic with both control points `pull` to the left peaks at 3/4 of it, halfway down.
  const reach = BRACKET_REACH + (lane % 2) * LANE_STEP
  const pull = (reach * 4) / 3
  const left = Math.min(sx, tx) - pull
  const t = at
  const u = 1 - t
  // The point of the cubic at t: (sx,sy) (left,sy) (left,ty) (tx,ty).
  const x = u * u * u * sx + 3 * u * u * t * left + 3 * u * t * t * left + t * t * t * tx
  const y = u * u * u * sy + 3 * u * u * t * sy + 3 * u * t * t * ty + t * t * t * ty
  return { path: `M ${sx},${sy} C ${left},${sy} ${left},${ty} ${tx},${ty}`, apexX: x, apexY: y }
}

export interface ConflictSpan {
  id: string
  /** Where the bracket starts and ends: each claim's left side. */
  sx: number
  sy: number
  tx: number
  ty: number
}

/**
 * The brackets of the open conflicts drawn, placed apart: each gets the lowest lane no
 * overlapping bracket holds (shortest first), so two brackets never lie on one another, and
 * its mark the first place along it at least MARK_GAP from every mark placed before, so two
 * conflicts are always two marks, each its own button.
 */
export function placeConflicts(spans: ConflictSpan[]): Map<string, { lane: number; at: number }> {
  const out = new Map<string, { lane: number; at: number }>()
  const placed: { lo: number; hi: number; lane: number }[] = []
  const marks: { x: number; y: number }[] = []
  const sorted = [...spans].sort((a, b) => Math.abs(a.ty - a.sy) - Math.abs(b.ty - b.sy) || (a.id < b.id ? -1 : 1))
  for (const s of sorted) {
    const lo = Math.min(s.sy, s.ty)
    const hi = Math.max(s.sy, s.ty)
    const taken = new Set(placed.filter((p) => p.lo <= hi && lo <= p.hi).map((p) => p.lane))
    let lane = 0
    while (taken.has(lane)) lane += 1
    placed.push({ lo, hi, lane })
    let best = { at: MARK_AT[0], room: -1, x: 0, y: 0 }
    for (const at of MARK_AT) {
      const { apexX: x, apexY: y } = bracketPath(s.sx, s.sy, s.tx, s.ty, lane, at)
      const room = Math.min(Infinity, ...marks.map((m) => Math.hypot(m.x - x, m.y - y)))
      if (room > best.room) best = { at, room, x, y }
      if (room >= MARK_GAP) break
    }
    marks.push({ x: best.x, y: best.y })
    out.set(s.id, { lane, at: best.at })
  }
  return out
}

const SETTLED_BY: Record<string, string> = {
  correction: 'a correction',
  resolution: 'the resolution of another conflict',
  version: 'a new version of a source',
  erasure: 'an erasure',
  merged: 'joining the conflict over the same fact',
}

/** How a conflict closed by something that retired one of its sides was settled, in words
 * (null for one a reviewer resolved or dismissed, or one still open). */
export function settledInWords(conflict: Conflict): string | null {
  const by = conflict.settled_by
  if (!by) return null
  return `Settled by ${SETTLED_BY[by.kind] ?? 'a change elsewhere'}: ${by.note}.`
}

/** A conflict named by what its values' first claims say. */
export function betweenInWords(conflict: Conflict): string {
  const said = conflict.sides.map((s) => `“${s.claims[0]?.statement ?? s.value}”`)
  return said.length <= 2 ? said.join(' and ') : `${said.slice(0, -1).join(', ')} and ${said[said.length - 1]}`
}
