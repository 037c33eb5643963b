// Pure status → look. One table, so nodes, legend and tests agree.
import type { ActionStatus, ClaimStatus, DecisionStatus } from '../apiTypes'

/** Every status a node can have, as the API's types list them (generated from its schema). */
export type Status = ClaimStatus | DecisionStatus | ActionStatus

export type Tone = 'normal' | 'amber' | 'grey' | 'muted' | 'withheld' | 'erased'

export interface StatusStyle {
  tone: Tone
  /** Struck-through text: the node is no longer what the workspace believes. */
  struck: boolean
  dashed: boolean
  className: string
}

interface Look {
  tone: Tone
  struck?: boolean
  dashed?: boolean
}

const LOOKS: Partial<Record<Status, Look>> = {
  superseded: { tone: 'normal', struck: true, dashed: true },
  needs_review: { tone: 'amber' },
  held: { tone: 'grey' },
  rejected: { tone: 'muted' },
  cancelled: { tone: 'muted' },
  // A request to forget waits on it: out of every search and run until a reviewer decides.
  withheld: { tone: 'withheld', dashed: true },
  // Its words are gone; it stays where it stood, saying when and by whom (rule 22).
  erased: { tone: 'erased', dashed: true },
}

export function statusStyle(status: string | null | undefined): StatusStyle {
  const look = (status && LOOKS[status as Status]) || { tone: 'normal' as const }
  const struck = Boolean(look.struck)
  const dashed = Boolean(look.dashed)
  const classes = [`tone-${look.tone}`]
  if (struck) classes.push('is-struck')
  if (dashed) classes.push('is-dashed')
  return { tone: look.tone, struck, dashed, className: classes.join(' ') }
}

/** Legend rows: each groups the statuses that share a look. */
export const LEGEND: { key: string; label: string; statuses: Status[]; sample: Status }[] = [
  {
    key: 'current',
    label: 'current / accepted',
    statuses: ['proposed', 'accepted', 'draft', 'approved', 'done'],
    sample: 'accepted',
  },
  { key: 'needs_review', label: 'needs review', statuses: ['needs_review'], sample: 'needs_review' },
  { key: 'held', label: 'held', statuses: ['held'], sample: 'held' },
  { key: 'superseded', label: 'superseded', statuses: ['superseded'], sample: 'superseded' },
  { key: 'rejected', label: 'rejected / cancelled', statuses: ['rejected', 'cancelled'], sample: 'rejected' },
  { key: 'withheld', label: 'withheld (a request to forget waits)', statuses: ['withheld'], sample: 'withheld' },
  { key: 'erased', label: 'erased', statuses: ['erased'], sample: 'erased' },
]

/**
 * How many nodes fall in each legend row. Nodes without a status (sources, corrections) are
 * not counted; a status outside the table counts as current, the way it is drawn.
 */
export function legendCounts(statuses: Iterable<string | null | undefined>): Record<string, number> {
  const rowOf = new Map<string, string>()
  for (const row of LEGEND) for (const s of row.statuses) rowOf.set(s, row.key)
  const counts: Record<string, number> = Object.fromEntries(LEGEND.map((row) => [row.key, 0]))
  for (const status of statuses) {
    if (!status) continue
    counts[rowOf.get(status) ?? 'current'] += 1
  }
  return counts
}
