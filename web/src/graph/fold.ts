// Pure: the product view's first screen shows what matters, decisions and actions with the
// claims they rest on, and claims in an open conflict. A claim nothing uses folds into the
// source it was read from (the source shows how many); a source expands on demand, and "all
// claims" shows everything.
import type { GraphDTO } from '../apiTypes'

export interface FoldOptions {
  /** Sources (or corrections) whose folded claims are shown. */
  expanded: ReadonlySet<string>
  showAll: boolean
  /** Nodes to show even if they would fold (the selection, a search hit, a preview's target). */
  keep: ReadonlySet<string>
}

export interface Folded {
  dto: GraphDTO
  /** Source or correction id → how many of its claims are folded into it. */
  hidden: ReadonlyMap<string, number>
  /** Claims folded away, in all. */
  hiddenTotal: number
  /** Whether folding applies at all (it needs at least one decision to focus on). */
  active: boolean
}

/** Every claim that would fold, given the sources expanded (without `keep`). */
export function foldableClaims(dto: GraphDTO, expanded: ReadonlySet<string>): Set<string> {
  const type = new Map(dto.nodes.map((n) => [n.id, n.type]))
  const used = new Set<string>()
  const parent = new Map<string, string>()
  const replaces = new Map<string, string[]>()
  for (const e of dto.edges) {
    if (e.type === 'INFORMS' && type.get(e.source) === 'claim' && type.get(e.target) === 'decision') used.add(e.source)
    // Sources that disagree are something to review: both sides stay in sight.
    else if (e.type === 'CONFLICTS') {
      used.add(e.source)
      used.add(e.target)
    }    else if (e.type === 'SUPPORTS' && type.get(e.target) === 'claim') parent.set(e.target, e.source)
    else if (e.type === 'REPLACES') replaces.set(e.source, [...(replaces.get(e.source) ?? []), e.target])
  }
  const out = new Set<string>()
  for (const n of dto.nodes) {
    if (n.type !== 'claim' || used.has(n.id)) continue
    const from = parent.get(n.id)
    // A claim with no source in the graph has nowhere to fold into.
    if (from === undefined || expanded.has(from)) continue
    // The replacement of a claim a decision uses stays next to it.
    if ((replaces.get(n.id) ?? []).some((old) => used.has(old))) continue
    out.add(n.id)
  }
  return out
}

export function foldGraph(dto: GraphDTO, opts: FoldOptions): Folded {
  const hasDecision = dto.nodes.some((n) => n.type === 'decision')
  if (opts.showAll || !hasDecision) return { dto, hidden: new Map(), hiddenTotal: 0, active: hasDecision }
  const fold = foldableClaims(dto, opts.expanded)
  for (const id of opts.keep) fold.delete(id)
  if (fold.size === 0) return { dto, hidden: new Map(), hiddenTotal: 0, active: true }

  const hidden = new Map<string, number>()
  const type = new Map(dto.nodes.map((n) => [n.id, n.type]))
  for (const e of dto.edges) {
    if (e.type === 'SUPPORTS' && fold.has(e.target)) hidden.set(e.source, (hidden.get(e.source) ?? 0) + 1)
  }
  // A correction goes with the claims it touches: shown if any of them is.
  const correctionShown = new Map<string, boolean>()
  for (const e of dto.edges) {
    if (type.get(e.source) !== 'correction') continue
    if (e.type === 'CORRECTS' || e.type === 'SUPPORTS') {
      if (!fold.has(e.target)) correctionShown.set(e.source, true)
      else if (!correctionShown.has(e.source)) correctionShown.set(e.source, false)
    }
  }
  const gone = (id: string) =>
    fold.has(id) || (type.get(id) === 'correction' && correctionShown.get(id) === false && !opts.keep.has(id))
  const nodes = dto.nodes.filter((n) => !gone(n.id))
  const edges = dto.edges.filter((e) => !gone(e.source) && !gone(e.target))
  return { dto: { ...dto, nodes, edges }, hidden, hiddenTotal: fold.size, active: true }
}
