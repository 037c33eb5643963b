// What the API answers about time (SPEC rule 10): the workspace's timeline, and a decision
// read with what it rested on when it was made and what holds it up at the moment shown.
import type { Decision } from './apiTypes'

export type TimelineKind =
  | 'source_added'
  | 'source_versioned'
  | 'run'
  | 'correction'
  | 'conflict_raised'
  | 'conflict_resolved'
  | 'conflict_dismissed'

export interface TimelineEvent {
  at: number
  kind: TimelineKind
  subject_id: string | null
  label: string | null
}

export interface Timeline {
  events: TimelineEvent[]
  now: number
}

export interface SupportClaim {
  id: string
  statement: string
  status: string
  source_id: string
  source_title: string | null
}

export interface Fall {
  claim_id: string
  statement: string
  status: string
  at: number | null
  by: 'correction' | 'conflict' | 'version' | null
  correction_id: string | null
  conflict_id: string | null
  version_id: string | null
  source_id: string | null
  reviewer: string | null
  reason: string | null
  replaced_by: { id: string; statement: string; status: string } | null
}

export interface PremiseThenNow {
  premise: string
  then: SupportClaim[]
  now: SupportClaim[]
  held_then: boolean
  holds_now: boolean
  fell: Fall[]
}

export interface DecisionSupport {
  decided_at: number
  at: number
  reconfirmed: number[]
  premises: PremiseThenNow[]
}

export interface DecisionRead extends Decision {
  support: DecisionSupport
}
