// Pure: every reason the server gives, as a sentence a person reads. A sentence is a list of
// parts: plain text, or a reference drawn as a link behind its name (never a bare id).
import type { CorrectionPreview, FlagReason } from './apiTypes'
import type { Names } from './names'
import { ERASED_MARK } from './erasures/mark'
import type { LinkKind } from './types'

export interface Ref {
  id: string
  kind: LinkKind
  /** The name to show; null when the graph does not have it (the link looks it up). */
  text: string | null
}

export type Part = string | Ref
export type Phrase = Part[]

/** A phrase as plain text (tests, titles, aria labels). */
export function phraseText(phrase: Phrase): string {
  return phrase.map((p) => (typeof p === 'string' ? p : (p.text ?? '…'))).join('')
}

function ref(id: string, kind: LinkKind, names: Names): Ref {
  return { id, kind, text: names.get(id)?.label ?? null }
}

/** “statement” — or “title”, “description”: a node named in quotes. */
export function quoted(id: string, kind: LinkKind, names: Names): Phrase {
  return ['“', ref(id, kind, names), '”']
}

/** A claim by its statement and where it comes from: “…” from Launch plan. */
export function claimWithOrigin(id: string, names: Names): Phrase {
  const origin = names.originOf(id)
  const phrase = quoted(id, 'claim', names)
  if (!origin) return phrase
  if (origin.kind === 'correction') return [...phrase, ' from ', { id: origin.id, kind: 'correction', text: origin.title }]
  return [...phrase, ' from ', { id: origin.id, kind: 'source', text: origin.title }]
}

/** "A", "A and B", "A, B and C". */
export function joinAnd(phrases: Phrase[]): Phrase {
  const out: Phrase = []
  phrases.forEach((p, i) => {
    if (i > 0) out.push(i === phrases.length - 1 ? ' and ' : ', ')
    out.push(...p)
  })
  return out
}

/** A premise by its words; one whose words were erased, by what became of them. */
export function premiseName(premise: string | null): string {
  // A premise whose words were erased reads as the marker alone: it is named by what it was.
  if (premise && premise.trim() === ERASED_MARK) return 'A premise whose words were erased'
  return premise ? `Premise “${premise}”` : 'Its premise'
}

/** Preview speaks of what apply will do; the rest of the UI of what happened. */
export type Tense = 'preview' | 'past'

const STATUS_WORDS: Record<string, string> = {
  needs_review: 'needs review',
  rejected: 'was rejected',
  held: 'is held',
  superseded: 'was superseded',
  draft: 'is a draft',
  accepted: 'is accepted',
}

function statusWords(status: string | null | undefined): string {
  return (status && STATUS_WORDS[status]) || (status ? `is ${status.replaceAll('_', ' ')}` : 'fell')
}

interface FlagContext {
  names: Names
  tense: Tense
  /** The claim being (or that was) corrected: when a premise lists it, it was the last one. */
  corrected?: string | null
  /** Decisions the same preview flags (an upstream that "falls too"). */
  flagged?: ReadonlySet<string>
}

/** Why a decision is (or will be) flagged: a premise lost its last claim, or an upstream fell. */
export function flagReasonPhrase(reason: FlagReason, ctx: FlagContext): Phrase {
  const { names, tense } = ctx
  if (reason.type === 'premise_lost') {
    const ids = ctx.corrected && reason.claim_ids.includes(ctx.corrected) ? [ctx.corrected] : reason.claim_ids
    const verb = tense === 'preview' ? 'loses' : 'lost'
    const what = ids.length > 1 ? `${verb} all its claims: ` : `${verb} its last claim: `
    return [`${premiseName(reason.premise)} ${what}`, ...joinAnd(ids.map((id) => claimWithOrigin(id, names)))]
  }
  const upstream = quoted(reason.decision_id, 'decision', names)
  if (tense === 'preview') {
    const falls = ctx.flagged?.has(reason.decision_id)
      ? ', which falls too'
      : `, which ${statusWords(names.get(reason.decision_id)?.status)}`
    return ['It builds on ', ...upstream, falls]
  }
  const status = names.get(reason.decision_id)?.status
  const now = status && status !== 'draft' && status !== 'accepted' ? ` (it ${statusWords(status)})` : ''
  return ['It builds on ', ...upstream, `, which fell${now}`]
}

/** Why a decision stays: which claims (by statement, with their source) still hold its premise. */
export function stillSupportedPhrase(support: { premise: string | null; claim_ids: string[] }, names: Names): Phrase {
  return [
    `${premiseName(support.premise)} is still supported by `,
    ...joinAnd(support.claim_ids.map((id) => claimWithOrigin(id, names))),
  ]
}

/**
 * Why an action is (or will be) held: the decisions it requires that fell. `fallen` says
 * which; when none of them is known to, all are named.
 */
export function heldBecausePhrase(
  decisionIds: string[],
  names: Names,
  tense: Tense,
  fallen: (id: string) => boolean,
): Phrase {
  const named = decisionIds.filter(fallen)
  const ids = named.length > 0 ? named : decisionIds
  const head = tense === 'preview' ? 'Will be held because it requires ' : 'Held because it requires '
  if (ids.length === 0) return [tense === 'preview' ? 'Will be held.' : 'Held.']
  if (tense === 'preview') {
    return [head, ...joinAnd(ids.map((id) => quoted(id, 'decision', names))), ', which will be flagged for review']
  }
  if (ids.length === 1) return [head, ...quoted(ids[0], 'decision', names), `, which ${statusWords(names.get(ids[0])?.status)}`]
  return [
    head,
    ...joinAnd(ids.map((id) => [...quoted(id, 'decision', names), ` (${statusWords(names.get(id)?.status)})`])),
  ]
}

/**
 * What a correction (or a conflict's resolution) does: decisions flagged, actions held, what
 * stays. `claim` is the claim that goes, when there is one.
 */
export interface ImpactPreview {
  claim?: { id: string } | null
  flag: CorrectionPreview['flag']
  hold: CorrectionPreview['hold']
  stay: CorrectionPreview['stay']
}

/** A preview's reasons for one flagged decision: what apply will do, or (past) what it did. */
export function previewFlagPhrases(
  flag: CorrectionPreview['flag'][number],
  preview: ImpactPreview,
  names: Names,
  tense: Tense = 'preview',
): Phrase[] {
  const flagged = new Set(preview.flag.map((f) => f.decision_id))
  return flag.reasons.map((r) => flagReasonPhrase(r, { names, tense, corrected: preview.claim?.id ?? null, flagged }))
}

// ---- A correction's impact in one line ----

/** One line saying what the correction does, for the banner and the outcome. */
export function impactSummary(preview: ImpactPreview, tense: 'preview' | 'past'): string {
  const { flag, hold, stay } = preview
  if (flag.length + hold.length + stay.length === 0) return 'Nothing depended on this claim: no decision or action changes.'
  const parts: string[] = []
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`
  if (tense === 'preview') {
    if (flag.length) parts.push(`${n(flag.length, 'decision', 'decisions')} will be flagged for review`)
    if (hold.length) parts.push(`${n(hold.length, 'action', 'actions')} will be held`)
    if (stay.length) parts.push(`${n(stay.length, 'decision stays', 'decisions stay')} supported`)
  } else {
    if (flag.length) parts.push(`${n(flag.length, 'decision was', 'decisions were')} flagged for review`)
    if (hold.length) parts.push(`${n(hold.length, 'action was', 'actions were')} held`)
    if (stay.length) parts.push(`${n(stay.length, 'decision stays', 'decisions stay')} supported`)
  }
  return parts.join(', ') + '.'
}

// ---- A decision's review reason (stored as JSON on the decision) ----

export type ReviewReason =
  | { type: 'correction'; correction_id: string | null; claim_id: string | null; reasons: FlagReason[] }
  | { type: 'recheck'; claim_id: string | null; reasons: FlagReason[] }
  | { type: 'upstream_rejected'; decision_id: string | null; reasons: FlagReason[] }
  | { type: 'rejected'; note: string | null }
  | { type: 'no_evidence'; detail: string | null }
  | { type: 'sources_disagree'; conflict_ids: string[]; claim_ids: string[] }
  | {
      type: 'conflict_resolved'
      conflict_id: string | null
      correction_id: string | null
      kept_claim_id: string | null
      superseded: string[]
      reasons: FlagReason[]
    }
  | { type: 'source_revised'; source_id: string | null; version_id: string | null; retired: string[]; reasons: FlagReason[] }
  | { type: 'erasure'; erasure_id: string | null; claim_ids: string[]; reasons: FlagReason[] }
  | { type: 'other'; label: string }

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null)
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : [])

function flagReasons(v: unknown): FlagReason[] {
  if (!Array.isArray(v)) return []
  const out: FlagReason[] = []
  for (const r of v) {
    if (!r || typeof r !== 'object') continue
    const o = r as Record<string, unknown>
    if (o.type === 'premise_lost') {
      const ids = Array.isArray(o.claim_ids) ? o.claim_ids.filter((x): x is string => typeof x === 'string') : []
      out.push({ type: 'premise_lost', premise: str(o.premise) ?? '', claim_ids: ids })
    } else if (o.type === 'upstream_fell' && str(o.decision_id)) {
      out.push({ type: 'upstream_fell', decision_id: str(o.decision_id)! })
    }
  }
  return out
}

/** Reads the decision's `review_reason` without trusting its shape. */
export function parseReviewReason(raw: Record<string, unknown> | null | undefined): ReviewReason | null {
  if (!raw || typeof raw !== 'object') return null
  switch (raw.type) {
    case 'correction':
      return { type: 'correction', correction_id: str(raw.correction_id), claim_id: str(raw.claim_id), reasons: flagReasons(raw.reasons) }
    case 'recheck':
      return { type: 'recheck', claim_id: str(raw.claim_id), reasons: flagReasons(raw.reasons) }
    case 'upstream_rejected':
      return { type: 'upstream_rejected', decision_id: str(raw.decision_id), reasons: flagReasons(raw.reasons) }
    case 'rejected':
      return { type: 'rejected', note: str(raw.note) }
    case 'no_evidence':
      return { type: 'no_evidence', detail: str(raw.detail) }
    case 'sources_disagree':
      return { type: 'sources_disagree', conflict_ids: strs(raw.conflict_ids), claim_ids: strs(raw.claim_ids) }
    case 'conflict_resolved':
      return {
        type: 'conflict_resolved',
        conflict_id: str(raw.conflict_id),
        correction_id: str(raw.correction_id),
        kept_claim_id: str(raw.kept_claim_id),
        superseded: strs(raw.superseded),
        reasons: flagReasons(raw.reasons),
      }
    case 'source_revised':
      return {
        type: 'source_revised',
        source_id: str(raw.source_id),
        version_id: str(raw.version_id),
        retired: strs(raw.retired),
        reasons: flagReasons(raw.reasons),
      }
    case 'erasure':
      return { type: 'erasure', erasure_id: str(raw.erasure_id), claim_ids: strs(raw.claim_ids), reasons: flagReasons(raw.reasons) }
    default:
      return { type: 'other', label: typeof raw.type === 'string' ? raw.type.replaceAll('_', ' ') : 'a review' }
  }
}

export interface Explained {
  headline: Phrase
  details: Phrase[]
}

/** A decision's review reason as a headline and one sentence per reason. */
export function explainReviewReason(reason: ReviewReason, names: Names): Explained {
  switch (reason.type) {
    case 'correction': {
      const details = reason.reasons.map((r) => flagReasonPhrase(r, { names, tense: 'past', corrected: reason.claim_id }))
      if (!reason.claim_id) return { headline: ['Flagged for review after a correction.'], details }
      const old = quoted(reason.claim_id, 'claim', names)
      const correction = reason.correction_id ? names.get(reason.correction_id) : undefined
      const replacement = reason.correction_id ? names.replacementOf(reason.correction_id) : undefined
      if (correction?.status === 'retract') {
        return { headline: ['Flagged for review: a reviewer retracted ', ...old, '.'], details }
      }
      if (replacement) {
        return {
          headline: ['Flagged for review: a reviewer corrected ', ...old, ' to ', ...quoted(replacement, 'claim', names), '.'],
          details,
        }
      }
      return { headline: ['Flagged for review: a reviewer corrected ', ...old, '.'], details }
    }
    case 'recheck': {
      const details = reason.reasons.map((r) => flagReasonPhrase(r, { names, tense: 'past', corrected: reason.claim_id }))
      if (!reason.claim_id) return { headline: ['Flagged for review when a corrected claim was checked again.'], details }
      return {
        headline: ['Flagged for review when ', ...quoted(reason.claim_id, 'claim', names), ' was checked again after its correction.'],
        details,
      }
    }
    case 'upstream_rejected': {
      const details = reason.reasons.map((r) => flagReasonPhrase(r, { names, tense: 'past' }))
      if (!reason.decision_id) return { headline: ['Flagged for review: a decision it builds on was rejected.'], details }
      return {
        headline: ['Flagged for review: ', ...quoted(reason.decision_id, 'decision', names), ', which it builds on, was rejected.'],
        details,
      }
    }
    case 'rejected':
      return { headline: [reason.note ? `Rejected by a reviewer: “${reason.note}”.` : 'Rejected by a reviewer.'], details: [] }
    case 'no_evidence':
      return {
        headline: [reason.detail ? `No source-backed answer: ${reason.detail}` : 'No source-backed answer.'],
        details: [],
      }
    case 'sources_disagree':
      return explainSourcesDisagree(reason, names)
    case 'conflict_resolved': {
      const gone = reason.superseded.length === 1 ? reason.superseded[0] : null
      const details = reason.reasons.map((r) => flagReasonPhrase(r, { names, tense: 'past', corrected: gone }))
      if (!reason.kept_claim_id || reason.superseded.length === 0) {
        return { headline: ['Flagged for review: a reviewer settled a disagreement between its sources.'], details }
      }
      return {
        headline: [
          'Flagged for review: its sources disagreed, and a reviewer kept ',
          ...claimWithOrigin(reason.kept_claim_id, names),
          ' over ',
          ...joinAnd(reason.superseded.map((id) => claimWithOrigin(id, names))),
          '.',
        ],
        details,
      }
    }
    case 'source_revised': {
      const gone = reason.retired.length === 1 ? reason.retired[0] : null
      const details = reason.reasons.map((r) => flagReasonPhrase(r, { names, tense: 'past', corrected: gone }))
      const source: Phrase = reason.source_id ? quoted(reason.source_id, 'source', names) : ['its source']
      if (reason.retired.length === 0) {
        return { headline: ['Flagged for review: a new version of ', ...source, ' changed what it says.'], details }
      }
      return {
        headline: [
          'Flagged for review: a new version of ',
          ...source,
          ' no longer says ',
          ...joinAnd(reason.retired.map((id) => quoted(id, 'claim', names))),
          '.',
        ],
        details,
      }
    }
    case 'erasure': {
      // The erased claims are named by what stands where they stood ("Erased on …, by …").
      const gone = reason.claim_ids.length === 1 ? reason.claim_ids[0] : null
      const details = reason.reasons.map((r) => flagReasonPhrase(r, { names, tense: 'past', corrected: gone }))
      const n = reason.claim_ids.length
      if (n === 0) return { headline: ['Flagged for review: words it rested on were erased.'], details }
      return {
        headline: [
          n === 1 ? 'Flagged for review: the claim it rested on was erased: ' : `Flagged for review: ${n} claims it rested on were erased: `,
          ...joinAnd(reason.claim_ids.map((id) => claimWithOrigin(id, names))),
          '.',
        ],
        details,
      }
    }
    default:
      return { headline: [`Needs review (${reason.label}).`], details: [] }
  }
}

/**
 * A run that met both sides of an open conflict did not pick one: which claims disagree,
 * and what to do, or (once a side was superseded) that it has been settled since.
 */
function explainSourcesDisagree(reason: Extract<ReviewReason, { type: 'sources_disagree' }>, names: Names): Explained {
  const n = reason.conflict_ids.length
  const headline: Phrase = [
    n > 1
      ? `Needs review: its sources disagree on ${n} points, so the run did not pick a side and proposed no action.`
      : 'Needs review: its sources disagree, so the run did not pick a side and proposed no action.',
  ]
  if (reason.claim_ids.length === 0) return { headline, details: [] }
  const details: Phrase[] = [
    ['The sources say ', ...joinAnd(reason.claim_ids.map((id) => claimWithOrigin(id, names))), '.'],
  ]
  const superseded = reason.claim_ids.filter((id) => names.get(id)?.status === 'superseded')
  if (superseded.length > 0) {
    details.push([
      'Settled since: ',
      ...joinAnd(superseded.map((id) => quoted(id, 'claim', names))),
      superseded.length === 1 ? ' was superseded; a new run cites what was kept.' : ' were superseded; a new run cites what was kept.',
    ])
  } else {
    details.push([
      n > 1
        ? 'Settle the conflicts in the Conflicts panel (keep one side, or dismiss if both are true); a new run then cites what was kept.'
        : 'Settle the conflict in the Conflicts panel (keep one side, or dismiss if both are true); a new run then cites what was kept.',
    ])
  }
  return { headline, details }
}

// ---- The handoff trail ----

const DROP_WORDS: Record<string, string> = {
  not_searched: 'cited without a search that found it',
  not_retrieved: 'found by a search but never read',
  superseded_during_run: 'superseded while the run was working',
}

/** Why a cited claim was dropped from a proposal. */
export function droppedPhrase(d: { claim_id: string; reason: string }, names: Names): Phrase {
  // An id the model made up has no name to show: say so instead of printing it.
  if (d.reason === 'unknown') return ['A claim the model cited that does not exist in this workspace.']
  const words = DROP_WORDS[d.reason] ?? d.reason.replaceAll('_', ' ')
  return [...quoted(d.claim_id, 'claim', names), `: ${words}.`]
}

const asText = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null)

/** What one role handed to the next, in words (never its JSON). */
export function proposalPhrases(proposal: unknown, names: Names): Phrase[] {
  const text = asText(proposal)
  if (text) return [[text]]
  if (!proposal || typeof proposal !== 'object') return []
  const p = proposal as Record<string, unknown>
  const out: Phrase[] = []
  const title = asText(p.title)
  if (title) out.push([`Proposes the decision “${title}”.`])
  const answer = asText(p.answer) ?? asText(p.summary)
  if (answer && answer !== title) out.push([answer])
  if (Array.isArray(p.premises)) {
    for (const premise of p.premises) {
      if (!premise || typeof premise !== 'object') continue
      const pr = premise as Record<string, unknown>
      const ids = Array.isArray(pr.claim_ids) ? pr.claim_ids.filter((x): x is string => typeof x === 'string') : []
      if (ids.length === 0) continue
      out.push([
        `${premiseName(asText(pr.statement))} rests on `,
        ...joinAnd(ids.map((id) => quoted(id, 'claim', names))),
        '.',
      ])
    }
  }
  for (const key of ['actions', 'proposed_actions']) {
    const list = p[key]
    if (!Array.isArray(list)) continue
    for (const a of list) {
      const desc = asText(a) ?? (a && typeof a === 'object' ? asText((a as Record<string, unknown>).description) : null)
      if (desc) out.push([`Proposes the action “${desc}”.`])
    }
  }
  return out
}
