// Pure: who is who in a workspace, read from the product graph the UI already loads, so
// every panel names a claim by its statement and its source by title, and shows the same
// status the graph shows (one source of truth after a change).
import type { GraphDTO } from './apiTypes'
import { askedTimes, type Asked } from './asked'
import type { ProductKind } from './types'

export interface NamedNode {
  id: string
  kind: ProductKind
  /** Statement, title or description (the graph's label, shortened past 160 characters). */
  label: string
  status: string | null
}

/** Where a claim comes from: a document, or a reviewer's correction. */
export interface ClaimOrigin {
  id: string
  kind: 'source' | 'correction'
  title: string
}

export interface Names {
  get(id: string): NamedNode | undefined
  /** The source (or correction) a claim was read from, if the graph has it. */
  originOf(claimId: string): ClaimOrigin | undefined
  /** The replacement a correction created, if any. */
  replacementOf(correctionId: string): string | undefined
  /** The claim a correction corrects. */
  correctedBy(correctionId: string): string | undefined
  /** When a decision was made, and which of several from the same question it is. */
  askedOf(decisionId: string): Asked | undefined
  /**
   * The claim at the end of the chain of replacements that starts at this one (a correction,
   * then a conflict's resolution, …): the one that holds now. Undefined when nothing
   * replaced it, or the graph does not draw the next link.
   */
  currentReplacementOf(claimId: string): string | undefined
  /** The open conflicts a claim is one side of: each with the claim on its other side. */
  openConflictsOf(claimId: string): OpenConflictRef[]
}

/** An open conflict as the graph draws it, seen from one of its claims. */
export interface OpenConflictRef {
  conflictId: string
  otherId: string
  kind: string
  reason: string
}

const KINDS: readonly string[] = ['source', 'correction', 'claim', 'decision', 'action']

export const NO_NAMES: Names = {
  get: () => undefined,
  originOf: () => undefined,
  replacementOf: () => undefined,
  correctedBy: () => undefined,
  askedOf: () => undefined,
  currentReplacementOf: () => undefined,
  openConflictsOf: () => [],
}

export function buildNames(dto: GraphDTO | null): Names {
  if (!dto) return NO_NAMES
  const nodes = new Map<string, NamedNode>()
  for (const n of dto.nodes) {
    if (!KINDS.includes(n.type)) continue
    nodes.set(n.id, { id: n.id, kind: n.type as ProductKind, label: n.label, status: n.status })
  }
  const origin = new Map<string, ClaimOrigin>()
  const replacement = new Map<string, string>()
  const corrected = new Map<string, string>()
  const asked = askedTimes(dto)
  const replacedBy = new Map<string, string[]>()
  const conflicts = new Map<string, OpenConflictRef[]>()
  const created = new Map<string, number>()
  for (const n of dto.nodes) {
    const at = n.data?.created_at
    if (typeof at === 'number') created.set(n.id, at)
  }
  for (const e of dto.edges) {
    if (e.type === 'SUPPORTS') {
      const from = nodes.get(e.source)
      if (from && (from.kind === 'source' || from.kind === 'correction')) {
        origin.set(e.target, { id: from.id, kind: from.kind, title: from.kind === 'source' ? from.label : REVIEWER })
        if (from.kind === 'correction') replacement.set(from.id, e.target)
      }
    } else if (e.type === 'CORRECTS') {
      corrected.set(e.source, e.target)
    } else if (e.type === 'REPLACES') {
      replacedBy.set(e.target, [...(replacedBy.get(e.target) ?? []), e.source])
    } else if (e.type === 'CONFLICTS' && e.data?.status === 'open') {
      const data = e.data as { conflict_id?: unknown; kind?: unknown; reason?: unknown }
      const ref = { conflictId: String(data.conflict_id ?? e.id), kind: String(data.kind ?? 'other'), reason: String(data.reason ?? '') }
      conflicts.set(e.source, [...(conflicts.get(e.source) ?? []), { ...ref, otherId: e.target }])
      conflicts.set(e.target, [...(conflicts.get(e.target) ?? []), { ...ref, otherId: e.source }])
    }
  }
  const currentReplacementOf = (id: string): string | undefined => {
    // Follows the newest replacement at each step; a cycle (none should exist) stops it.
    const seen = new Set([id])
    let at = id
    for (;;) {
      const next = (replacedBy.get(at) ?? []).filter((r) => !seen.has(r)).sort(newestFirst)[0]
      if (!next) break
      seen.add(next)
      at = next
    }
    return at === id ? undefined : at
  }
  const newestFirst = (a: string, b: string) => (created.get(b) ?? 0) - (created.get(a) ?? 0)
  return {
    get: (id) => nodes.get(id),
    originOf: (id) => origin.get(id),
    replacementOf: (id) => replacement.get(id),
    correctedBy: (id) => corrected.get(id),
    askedOf: (id) => asked.get(id),
    currentReplacementOf,
    openConflictsOf: (id) => conflicts.get(id) ?? [],
  }
}

export const REVIEWER = 'a reviewer’s correction'
