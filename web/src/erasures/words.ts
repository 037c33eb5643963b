// Pure: an erasure in words. What a target names, what a preview says goes and is repaired,
// who erased what and when, and where the files on disk stand. Never an id, and never the
// erased words: a record holds none, and a claim that was erased is named by what the API
// says stands in its place.
import type { Erasure, ErasureCounts, ErasurePreview, ErasureTarget, ErasureTargetRef } from '../apiTypes'
import { plural } from '../format'
import { ERASED_MARK } from './mark'

/** A source's title by its id, when the reader's graph has it. */
export type TitleOf = (sourceId: string) => string | undefined

const titled = (id: string | null | undefined, titleOf: TitleOf) => {
  const title = id ? titleOf(id) : undefined
  return title ? `“${title}”` : 'a source'
}

/** What a target names, as a reader says it: "message 2 of “Launch chat”". */
export function targetWords(target: ErasureTarget | ErasureTargetRef, titleOf: TitleOf): string {
  const kind = 'kind' in target ? target.kind : kindOf(target)
  switch (kind) {
    case 'source':
      return `the source ${titled(target.source_id, titleOf)}, every version`
    case 'version':
      return `a version of ${titled(target.source_id, titleOf)}`
    case 'message':
      return `message ${(target.message_index ?? 0) + 1} of ${titled(target.source_id, titleOf)}`
    case 'claim':
      return 'the words a claim quotes'
    case 'speaker':
      return 'everything one speaker said'
    case 'text':
      return 'a string, wherever it was written'
    case 'request':
      return 'what a speaker asked to forget'
  }
}

/** What a record erased (or would): a speaker's request is named by who asked. */
export function recordWords(e: Pick<Erasure, 'target' | 'requested_by'>, titleOf: TitleOf): string {
  if (e.target.kind === 'request' && e.requested_by) return `what ${who(e.requested_by)} asked to forget`
  return targetWords(e.target, titleOf)
}

/** The kind of a target as sent (the API names it on what it answers). */
export function kindOf(target: ErasureTarget): ErasureTargetRef['kind'] {
  if (target.request_id) return 'request'
  if (target.claim_id) return 'claim'
  if (target.speaker) return 'speaker'
  if (target.text) return 'text'
  if (target.version_id) return 'version'
  if (target.message_index != null) return 'message'
  return 'source'
}

/** "A", "A and B", "A, B and C". */
function and(parts: string[]): string {
  if (parts.length <= 1) return parts.join('')
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
}

/**
 * What goes, counted: the messages, the passages of other texts, the claims, the files, the
 * reviewers' texts that lose words. A message is one passage of its version, so passages are
 * counted beyond the messages only.
 */
export function goesWords(counts: ErasureCounts): string {
  const parts: string[] = []
  if (counts.messages) parts.push(plural(counts.messages, 'message'))
  const passages = counts.spans - counts.messages
  if (passages > 0) parts.push(plural(passages, counts.messages ? 'other passage' : 'passage'))
  if (counts.claims) parts.push(plural(counts.claims, 'claim'))
  if (counts.files) parts.push(plural(counts.files, 'original file'))
  return parts.length ? and(parts) : 'no words'
}

/** What is repaired, counted: decisions flagged, actions held, conflicts closed. */
export function repairedWords(counts: ErasureCounts, tense: 'preview' | 'past'): string | null {
  const will = tense === 'preview'
  const parts: string[] = []
  if (counts.flagged) parts.push(`${plural(counts.flagged, 'decision')} ${will ? 'will need' : counts.flagged === 1 ? 'needs' : 'need'} review`)
  if (counts.held) parts.push(`${plural(counts.held, 'action')} ${will ? 'will be' : counts.held === 1 ? 'is' : 'are'} held`)
  if (counts.conflicts) parts.push(`${plural(counts.conflicts, 'open conflict')} ${will ? 'will close' : 'closed'}`)
  return parts.length ? and(parts) : null
}

/** One line: what the erasure takes, and what it repairs. */
export function erasureSummary(counts: ErasureCounts, tense: 'preview' | 'past'): string {
  const goes = `${tense === 'preview' ? 'Erases' : 'Erased'} ${goesWords(counts)}`
  const repaired = repairedWords(counts, tense)
  if (repaired) return `${goes}; ${repaired}.`
  return `${goes}; nothing that was decided rested on ${counts.claims === 1 ? 'it' : 'them'}.`
}

/** The other records a preview found repeating the words (runs, decisions, audit), if any. */
export function recordsWords(preview: ErasurePreview): string | null {
  const n = preview.goes.records
  if (!n) return null
  return `The words also go from ${plural(n, 'other record')} that repeat${n === 1 ? 's' : ''} them (an agent's run, a decision's words, the audit).`
}

/** Who did it, as a reader says it: the keyless local user and the workspace's rule by name. */
export function who(by: string | null | undefined): string {
  if (!by) return 'someone'
  if (by === 'local') return 'the local user'
  if (by === 'policy') return 'the workspace’s rule (requests to forget are applied at once)'
  return by
}

/** A moment as a date and a time to the minute: "7 December 2026 at 23:33". */
export function dateWords(ms: number, timeZone?: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'long', year: 'numeric' }).format(ms)
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hour12: false }).format(ms)
  return `${day} at ${time}`
}

/** Where an erased claim stood: "Erased on 7 December 2026 at 23:33, by the local user." */
export function erasedOn(at: number | null, by: string | null, timeZone?: string): string {
  return at === null ? `Erased, by ${who(by)}.` : `Erased on ${dateWords(at, timeZone)}, by ${who(by)}.`
}

/** A record's state in a few words: asked and waiting, erased, or declined. */
export function stateWords(e: Erasure, timeZone?: string): string {
  switch (e.status) {
    case 'requested':
      return `${who(e.requested_by)} asked to forget this${e.requested_at === null ? '' : ` on ${dateWords(e.requested_at, timeZone)}`}; a reviewer decides.`
    case 'applied':
      return erasedOn(e.applied_at, e.applied_by, timeZone)
    case 'declined':
      return `Declined${e.declined_at === null ? '' : ` on ${dateWords(e.declined_at, timeZone)}`}, by ${who(e.declined_by)}: the claims are back.`
  }
}

/**
 * Where the files on disk stand once the graph holds no trace: the rewrite runs after the
 * apply answers, so a record says "pending" until every node's files are clean.
 */
export function diskWords(e: Pick<Erasure, 'disk' | 'disk_clean_at'>, timeZone?: string): string | null {
  if (e.disk === 'pending') return 'On disk: being rewritten. The data files still hold the words until this says clean.'
  if (e.disk === 'clean') {
    return e.disk_clean_at === null ? 'On disk: clean.' : `On disk: clean since ${dateWords(e.disk_clean_at, timeZone)}.`
  }
  return null
}

export { ERASED_MARK }

/** A text cut at its erased spans' markers, so each is drawn as one and read as one. */
export function splitErased(text: string): { text: string; erased: boolean }[] {
  const out: { text: string; erased: boolean }[] = []
  let at = 0
  for (;;) {
    const i = text.indexOf(ERASED_MARK, at)
    if (i < 0) break
    if (i > at) out.push({ text: text.slice(at, i), erased: false })
    out.push({ text: ERASED_MARK, erased: true })
    at = i + ERASED_MARK.length
  }
  if (at < text.length || out.length === 0) out.push({ text: text.slice(at), erased: false })
  return out
}

/** The applied erasure that took a whole message, if the records at hand hold it. */
export function messageErasure(records: readonly Erasure[], sourceId: string, index: number): Erasure | undefined {
  return records.find(
    (e) => e.status === 'applied' && e.target.kind === 'message' && e.target.source_id === sourceId && e.target.message_index === index,
  )
}
