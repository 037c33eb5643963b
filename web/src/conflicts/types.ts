// Wire shapes of the conflicts API (docs/api.md, "Conflicts"), UI-side: only the fields the
// conflicts panel reads. Kept apart from the generated apiTypes.ts.
import type { ClaimStatus, CorrectionPreview } from '../apiTypes'

export type ConflictStatus = 'open' | 'resolved' | 'dismissed'
export type ConflictKind = 'date' | 'time' | 'number' | 'amount' | 'place' | 'person' | 'other'
export type Resolution = 'keep' | 'dismiss'

/** One side of a conflict: the claim, the words it was read from, its source and when. */
export interface ConflictSide {
  id: string
  statement: string
  status: ClaimStatus
  revision: number
  evidence_quote: string | null
  source_id: string | null
  source_title: string | null
  version: number | null
  /** When the claim was stored (ms). */
  created_at: number
  /** When the source version that says it was added (ms). */
  source_added_at: number | null
}

export interface Conflict {
  id: string
  status: ConflictStatus
  kind: ConflictKind
  /** The detector's or the judge's reason, a sentence. */
  reason: string
  detected_by: string
  revision: number
  created_at: number
  resolved_at: number | null
  resolution: Resolution | null
  kept_claim_id: string | null
  claims: ConflictSide[]
}

/** What keeping one side (or dismissing) would do; shaped like a correction preview. */
export interface ResolutionPreview {
  conflict: Conflict
  resolution: Resolution
  keep: string | null
  supersede: { claim_id: string; revision: number; statement: string; source_id: string | null }[]
  flag: CorrectionPreview['flag']
  hold: CorrectionPreview['hold']
  stay: CorrectionPreview['stay']
  revisions: { conflict_revision: number; keep_revision: number | null; impact_token: string }
}

export interface ResolutionApplied {
  status: 'applied' | 'already_applied'
  conflict: Conflict
  correction: { id: string } | null
  kept: { id: string; statement: string } | null
  superseded: string[]
  flagged: string[]
  held: string[]
}

/** Keep one side, or dismiss the conflict (both can be true). */
export type Choice = { keep: string } | { dismiss: true }
