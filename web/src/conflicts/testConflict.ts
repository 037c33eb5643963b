// The two-memo story as the API sends it, shared by the conflict tests: March says June 12,
// April says June 19, a plan rests on June 12, and a question met both.
import type { ClaimStatus, ClaimView, GraphDTO } from '../apiTypes'
import type { Conflict, ConflictClaim, ConflictSide, ResolutionApplied, ResolutionPreview } from './types'

type Correction = NonNullable<ResolutionApplied['correction']>

export const MEMO = {
  march: 'src-march-0001',
  april: 'src-april-0002',
  june12: 'c2a2b3c4-0000-4000-8000-000000000001',
  june19: 'c2a2b3c4-0000-4000-8000-000000000002',
  june12twin: 'c2a2b3c4-0000-4000-8000-000000000003',
  plan: 'd2a2b3c4-0000-4000-8000-000000000004',
  question: 'd2a2b3c4-0000-4000-8000-000000000005',
  book: 'a2a2b3c4-0000-4000-8000-000000000006',
  conflict: 'f2a2b3c4-0000-4000-8000-000000000007',
} as const

export const JUNE_12 = 'The product launch is planned for June 12.'
export const JUNE_19 = 'The launch moves to June 19.'

const edge = (source: string, target: string, type: string) => ({ id: `${type}:${source}->${target}`, source, target, type })

export function twoMemos(june12Status = 'proposed'): GraphDTO {
  return {
    view: 'product',
    truncated: false,
    totals: [],
    nodes: [
      { id: MEMO.march, type: 'source', label: 'March memo', status: null, data: {} },
      { id: MEMO.april, type: 'source', label: 'April memo', status: null, data: {} },
      { id: MEMO.june12, type: 'claim', label: JUNE_12, status: june12Status, data: {} },
      { id: MEMO.june19, type: 'claim', label: JUNE_19, status: 'proposed', data: {} },
      { id: MEMO.plan, type: 'decision', label: 'Plan the launch event', status: 'draft', data: {} },
      { id: MEMO.question, type: 'decision', label: 'When is the launch', status: 'needs_review', data: {} },
      { id: MEMO.book, type: 'action', label: 'Book the launch venue', status: 'proposed', data: {} },
    ],
    edges: [
      edge(MEMO.march, MEMO.june12, 'SUPPORTS'),
      edge(MEMO.april, MEMO.june19, 'SUPPORTS'),
      edge(MEMO.june12, MEMO.plan, 'INFORMS'),
      edge(MEMO.june12, MEMO.question, 'INFORMS'),
      edge(MEMO.june19, MEMO.question, 'INFORMS'),
      edge(MEMO.plan, MEMO.book, 'ENABLES'),
      ...(june12Status === 'superseded'
        ? [edge(MEMO.june19, MEMO.june12, 'REPLACES')]
        : [{ id: `CONFLICTS:${MEMO.conflict}`, source: MEMO.june12, target: MEMO.june19, type: 'CONFLICTS' }]),
    ],
  }
}

// 2026-03-02 09:30 and 2026-04-14 16:05, UTC.
export const MARCH_ADDED = Date.UTC(2026, 2, 2, 9, 30)
export const APRIL_ADDED = Date.UTC(2026, 3, 14, 16, 5)

export const CONFLICT: Conflict = {
  id: MEMO.conflict,
  status: 'open',
  kind: 'date',
  reason: 'Same subject, different date: June 12 vs June 19.',
  key: 'launch-planned|launch-moves',
  detected_by: 'offline-rules-1',
  revision: 1,
  created_at: APRIL_ADDED,
  resolved_at: null,
  resolved_by: null,
  resolution: null,
  kept_claim_id: null,
  correction_id: null,
  newer_claim_id: null,
  same_speaker: null,
  settled_by: null,
  n_sides: 2,
  n_claims: 2,
  complete: true,
  sides: [],
}
CONFLICT.sides = sidesOf([
    {
      id: MEMO.june12,
      statement: JUNE_12,
      statement_key: 'launch-planned',
      status: 'proposed',
      revision: 1,
      evidence_quote: JUNE_12,
      source_id: MEMO.march,
      source_title: 'March memo',
      correction_id: null,
      version: 1,
      created_at: MARCH_ADDED,
      source_added_at: MARCH_ADDED,
      said_by: null,
      said_at: null,
      side: '',
      joined_at: APRIL_ADDED,
    },
    {
      id: MEMO.june19,
      statement: JUNE_19,
      statement_key: 'launch-moves',
      status: 'proposed',
      revision: 1,
      evidence_quote: 'Launch update: the launch moves to June 19.',
      source_id: MEMO.april,
      source_title: 'April memo',
      correction_id: null,
      version: 2,
      created_at: APRIL_ADDED,
      source_added_at: APRIL_ADDED,
      said_by: null,
      said_at: null,
      side: '',
      joined_at: APRIL_ADDED,
    },
  ])

/** A conflict's claims, each a side of its own (the two memos give two values). */
export function sidesOf(claims: ConflictClaim[]): ConflictSide[] {
  return claims.map((c) => ({
    side: c.id,
    value: c.statement,
    newest_at: c.said_at ?? c.source_added_at ?? c.created_at,
    claims: [{ ...c, side: c.id }],
  }))
}

/** The conflict with these claims instead, each its own side. */
export function withClaims(conflict: Conflict, claims: ConflictClaim[]): Conflict {
  return { ...conflict, sides: sidesOf(claims), n_sides: claims.length, n_claims: claims.length }
}

export const KEEP_JUNE_19: ResolutionPreview = {
  conflict: CONFLICT,
  resolution: 'keep',
  keep: MEMO.june19,
  supersede: [{ claim_id: MEMO.june12, revision: 1, statement: JUNE_12, source_id: MEMO.march, correction_id: null }],
  flag: [
    {
      decision_id: MEMO.plan,
      title: 'Plan the launch event',
      status: 'draft',
      reasons: [{ type: 'premise_lost', premise: JUNE_12, claim_ids: [MEMO.june12] }],
    },
  ],
  hold: [{ action_id: MEMO.book, description: 'Book the launch venue', status: 'proposed', decision_ids: [MEMO.plan] }],
  stay: [],
  revisions: { conflict_revision: 1, keep_revision: 1, impact_token: 'imp_k' },
}

export const DISMISS: ResolutionPreview = {
  ...KEEP_JUNE_19,
  resolution: 'dismiss',
  keep: null,
  supersede: [],
  flag: [],
  hold: [],
  revisions: { conflict_revision: 1, keep_revision: null, impact_token: 'imp_d' },
}

/** A claim as GET .../claims/{id} answers it, quoting its source once, used by nothing. */
export function claimView(id: string, statement: string, status: ClaimStatus, sourceId: string, title: string): ClaimView {
  return {
    id,
    statement,
    status,
    confidence: 1,
    confidence_kind: 'quote_match',
    source_id: sourceId,
    revision: 1,
    created_at: MARCH_ADDED,
    evidence_quote: statement,
    quote_start: 0,
    quote_end: statement.length,
    valid_from: null,
    valid_until: null,
    said_by: null,
    said_at: null,
    erasure: null,
    origin: { type: 'document', name: title, source_id: sourceId, source_title: title, version: 1 },
    evidence: [],
    corrections: [],
    supersedes: [],
    superseded_by: null,
    replacement_chain: [],
    used_by: [],
    conflicts: [],
  }
}

/** The correction a kept side's resolution writes: the other side superseded. */
export function supersedeCorrection(id: string, claimId: string, replacementId: string, statement: string): Correction {
  return {
    id,
    claim_id: claimId,
    kind: 'supersede',
    statement,
    reason: null,
    reviewer: 'local',
    created_at: APRIL_ADDED,
    replacement_id: replacementId,
    also_corrected: [],
    fragment: null,
  }
}
