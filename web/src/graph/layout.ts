// Pure left-to-right layout: dagre orders nodes within ranks, but the ranks themselves are
// fixed by kind (Sources → Corrections → Claims → Decisions → Actions) so the chain of
// because always reads the same way, whatever the edges look like.
import dagre, { type GraphLabel, type RankerFunction } from '@dagrejs/dagre'

export const NODE_WIDTH = 230
export const NODE_HEIGHT = 68
export const RANK_SEP = 90
export const NODE_SEP = 14

/** Above this many nodes dagre's crossing-minimisation sweeps cost seconds; skip them. */
const LARGE_GRAPH = 400

// Product kinds, left to right. A correction sits just before the claims it fixes.
const PRODUCT_RANK: Record<string, number> = {
  source: 0,
  correction: 1,
  claim: 2,
  decision: 3,
  action: 4,
}

// Stored labels of the internal view, in the same spirit: origins, then evidence, then what
// was concluded from it.
const INTERNAL_RANK: Record<string, number> = {
  Workspace: 0,
  Source: 1,
  Correction: 1,
  SourceVersion: 2,
  SourceFragment: 3,
  Claim: 4,
  AgentRun: 5,
  Handoff: 6,
  Decision: 6,
  Action: 7,
  AuditEvent: 8,
}

const UNKNOWN_RANK = 9

/** The column a node type belongs to (product kinds and internal labels alike). */
export function rankOf(apiType: string): number {
  return PRODUCT_RANK[apiType] ?? INTERNAL_RANK[apiType] ?? UNKNOWN_RANK
}

export interface LayoutNode {
  id: string
  data: { apiType: string }
}

export interface LayoutEdge {
  source: string
  target: string
}

export type Positioned<N> = N & { position: { x: number; y: number } }

/**
 * Positions nodes left to right, one rank per kind. Edges between nodes of the same kind
 * (decision → decision, replacement → old claim) do not take part in ranking; edges that run
 * against the kind order are laid out reversed. Returns new node objects with top-left
 * positions, as React Flow expects.
 */
export function layoutGraph<N extends LayoutNode>(nodes: N[], edges: LayoutEdge[]): Positioned<N>[] {
  if (nodes.length === 0) return []
  // Only the kinds present get a column, so a workspace without corrections has no gap.
  const present = [...new Set(nodes.map((n) => rankOf(n.data.apiType)))].sort((a, b) => a - b)
  const column = new Map(present.map((rank, index) => [rank, index]))
  const columnOf = new Map(nodes.map((n) => [n.id, column.get(rankOf(n.data.apiType))!]))

  // dagre doubles every edge's minlen internally (room for edge labels), so a column is two
  // of its ranks; its nesting root has no column and goes before the first.
  const ranker: RankerFunction = (graph) => {
    for (const v of graph.nodes()) {
      const col = columnOf.get(v)
      graph.node(v).rank = col === undefined ? -2 : 2 * col
    }
  }
  const g = new dagre.graphlib.Graph()
  // dagre accepts a ranker function at run time; its GraphLabel type lists only the names.
  const label = { rankdir: 'LR', nodesep: NODE_SEP, ranksep: RANK_SEP, marginx: 0, marginy: 0, ranker }
  g.setGraph(label as unknown as GraphLabel)
  g.setDefaultEdgeLabel(() => ({}))
  for (const n of nodes) g.setNode(n.id, { width: NODE_WIDTH, height: NODE_HEIGHT })
  for (const e of edges) {
    const a = columnOf.get(e.source)
    const b = columnOf.get(e.target)
    if (a === undefined || b === undefined || a === b) continue
    if (a < b) g.setEdge(e.source, e.target)
    else g.setEdge(e.target, e.source)
  }
  dagre.layout(g, { disableOptimalOrderHeuristic: nodes.length > LARGE_GRAPH })

  return nodes.map((n) => {
    const { x, y } = g.node(n.id) as { x: number; y: number }
    // dagre gives the node's centre; React Flow positions by the top-left corner.
    return { ...n, position: { x: x - NODE_WIDTH / 2, y: y - NODE_HEIGHT / 2 } }
  })
}
