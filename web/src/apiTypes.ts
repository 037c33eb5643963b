// Wire shapes from docs/api.md. Only fields the contract names are declared; the UI
// reads nothing else.

export interface Workspace {
  id: string
  name: string
  revision: number
  created_at: number
}

export interface Segment {
  text: string
  highlight: boolean
}

export interface ExtractedClaim {
  id: string
  statement: string
  evidence_quote: string
  quote_start: number
  quote_end: number
  fragment_id: string
  status: string
}

export interface SourceResult {
  status: 'created' | 'versioned' | 'unchanged'
  source: { id: string; title?: string }
  claims: ExtractedClaim[]
  dropped: Record<string, number>
  failed_fragments: { fragment_id: string; seq: number; error: string }[]
}

export interface SourceView {
  id: string
  title: string
  origin_type: string
  origin_name: string | null
  revision: number
  latest_version: number
  versions: {
    id: string
    version: number
    length: number
    text: string
    fragments: { id: string; seq: number; text: string; start: number; end: number }[]
  }[]
}

export type ClaimStatus = 'proposed' | 'accepted' | 'rejected' | 'superseded'

export interface ClaimRef {
  id: string
  statement: string
  status: string
}

export interface Evidence {
  fragment_id: string
  text: string
  start: number
  end: number
  origin_type: string
  origin_name: string | null
  quote_start: number
  quote_end: number
  segments: Segment[]
}

export interface ClaimView {
  id: string
  statement: string
  evidence_quote: string
  quote_start: number
  quote_end: number
  status: ClaimStatus
  confidence: number
  confidence_kind: 'quote_match' | 'human_correction' | string
  revision: number
  created_at: number
  source_id: string | null
  origin: {
    type: string
    name: string | null
    source_id: string | null
    source_title: string | null
    version: number | null
  }
  evidence: Evidence[]
  corrections: {
    id: string
    kind: string
    statement: string
    reason: string | null
    reviewer: string | null
    created_at: number
    replacement_id: string | null
  }[]
  superseded_by: ClaimRef | null
  supersedes: ClaimRef[]
  replacement_chain: ClaimRef[]
  used_by: { decision_id: string; title: string; status: string; premise: string | null }[]
}

export interface ClaimListItem {
  id: string
  statement: string
  status: string
  confidence_kind: string
  source_id: string | null
  revision: number
}

export interface Action {
  id: string
  description: string
  status: 'proposed' | 'approved' | 'held' | 'done' | 'cancelled'
  revision: number
  created_at: number
  decision_ids: string[]
  held_from: string | null
}

export interface Decision {
  id: string
  title: string
  summary: string
  status: 'draft' | 'accepted' | 'needs_review' | 'rejected'
  revision: number
  created_at: number
  run_id: string | null
  premises: {
    premise: string | null
    claims: { id: string; statement: string; status: string; source_id: string | null }[]
  }[]
  depends_on: { id: string; title: string; status: string }[]
  dependents: { id: string; title: string; status: string }[]
  actions: Action[]
  review_reason: Record<string, unknown> | null
}

export interface Handoff {
  id: string
  seq: number
  from_role: string
  to_role: string
  proposal: unknown
  searched_claim_ids: string[]
  retrieved_claim_ids: string[]
  dropped_claim_ids: string[]
  dropped: { claim_id: string; reason: string }[]
  tool_calls: { name: string; arguments: unknown; claim_ids: string[] }[]
}

export interface Run {
  id: string
  task: string
  status: 'completed' | 'failed'
  model: string
  created_at: number
  error?: string | null
}

export interface RunView {
  run: Run
  handoffs: Handoff[]
  decision: Decision | null
  actions: Action[]
}

export type FlagReason =
  | { type: 'premise_lost'; premise: string | null; claim_ids: string[] }
  | { type: 'upstream_fell'; decision_id: string }

export interface CorrectionPreview {
  claim: { id: string; statement: string; status: string; revision: number }
  kind: 'replace' | 'retract'
  statement: string
  flag: { decision_id: string; title: string; status: string; reasons: FlagReason[] }[]
  hold: { action_id: string; description: string; status: string; decision_ids: string[] }[]
  stay: {
    decision_id: string
    title: string
    supported_by: { premise: string | null; claim_ids: string[] }[]
  }[]
  revisions: { claim_revision: number; impact_token: string }
}

export interface CorrectionApplied {
  status: 'applied' | 'already_applied'
  correction: { id: string }
  old_claim: { id: string }
  replacement: { id: string } | null
}

export interface GraphNodeDTO {
  id: string
  type: string
  label: string
  status: string | null
  data?: Record<string, unknown>
}

export interface GraphEdgeDTO {
  id: string
  source: string
  target: string
  type: string
}

export interface GraphDTO {
  nodes: GraphNodeDTO[]
  edges: GraphEdgeDTO[]
}

export type GraphView = 'product' | 'internal'
