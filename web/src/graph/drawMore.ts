// Pure: a node the graph view did not draw (a large workspace draws at most so many of a
// kind), found by the server's search, drawn with what is around it: its source and the
// decisions that rest on it, as the product view would have drawn them.
import type { ClaimView, GraphDTO } from '../apiTypes'

type ViewNode = GraphDTO['nodes'][number]
type ViewEdge = GraphDTO['edges'][number]

/** A claim read on its own, as a piece of the product graph. */
export function claimAsGraph(claim: ClaimView): GraphDTO {
  const nodes: ViewNode[] = [
    {
      id: claim.id,
      type: 'claim',
      label: claim.statement,
      status: claim.status,
      data: { confidence_kind: claim.confidence_kind, source_id: claim.source_id, revision: claim.revision },
    },
  ]
  const edges: ViewEdge[] = []
  const origin = claim.origin
  if (origin?.source_id && origin.type !== 'human_correction') {
    nodes.push({ id: origin.source_id, type: 'source', label: origin.source_title ?? 'a source', status: null, data: {} })
    edges.push({ id: `SUPPORTS:${origin.source_id}->${claim.id}`, source: origin.source_id, target: claim.id, type: 'SUPPORTS' })
  }
  for (const use of claim.used_by ?? []) {
    nodes.push({ id: use.decision_id, type: 'decision', label: use.title, status: use.status, data: {} })
    edges.push({ id: `INFORMS:${claim.id}->${use.decision_id}`, source: claim.id, target: use.decision_id, type: 'INFORMS' })
  }
  return { view: 'product', nodes, edges, truncated: false, totals: [] } as unknown as GraphDTO
}

/** The drawn graph with more of it: nodes and edges it lacks are added, its own kept. */
export function withMore(graph: GraphDTO | null, more: readonly GraphDTO[]): GraphDTO | null {
  if (!graph || more.length === 0) return graph
  const nodes = [...graph.nodes]
  const edges = [...graph.edges]
  const haveNode = new Set(nodes.map((n) => n.id))
  const haveEdge = new Set(edges.map((e) => e.id))
  for (const m of more) {
    for (const n of m.nodes) {
      if (haveNode.has(n.id)) continue
      haveNode.add(n.id)
      nodes.push(n)
    }
    for (const e of m.edges) {
      if (haveEdge.has(e.id)) continue
      haveEdge.add(e.id)
      edges.push(e)
    }
  }
  return { ...graph, nodes, edges }
}
