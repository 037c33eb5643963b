// Pure: the API's graph → React Flow nodes and edges, laid out once per response.
import type { GraphDTO, GraphView } from '../apiTypes'
import type { AppEdge, AppNode, AppNodeType, ProductKind } from '../types'
import { NODE_HEIGHT, NODE_WIDTH, layoutGraph, rankOf } from './layout'

const PRODUCT_KINDS: readonly ProductKind[] = ['source', 'correction', 'claim', 'decision', 'action']

/** The product kind of an API node type, in either view ('Claim' in the internal view too). */
export function productKind(apiType: string): ProductKind | null {
  const lower = apiType.toLowerCase()
  return (PRODUCT_KINDS as readonly string[]).includes(lower) ? (lower as ProductKind) : null
}

function nodeTypeFor(apiType: string, view: GraphView): AppNodeType {
  if (view === 'internal') return 'stored'
  return productKind(apiType) ?? 'stored'
}

export interface FlowGraph {
  nodes: AppNode[]
  edges: AppEdge[]
}

export function toFlow(dto: GraphDTO, view: GraphView): FlowGraph {
  const nodes = dto.nodes.map(
    (n) =>
      ({
        id: n.id,
        type: nodeTypeFor(n.type, view),
        position: { x: 0, y: 0 },
        // Fixed size: layout needs it up front, and onlyRenderVisibleElements can cull a node
        // React Flow has not measured yet.
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
        data: { apiType: n.type, label: n.label, status: n.status, mark: null, props: n.data },
      }) as AppNode,
  )
  const typeOf = new Map(dto.nodes.map((n) => [n.id, n.type]))
  const edges: AppEdge[] = []
  for (const e of dto.edges) {
    const from = typeOf.get(e.source)
    const to = typeOf.get(e.target)
    if (from === undefined || to === undefined) continue // React Flow cannot draw a dangling edge
    const sameColumn = rankOf(from) === rankOf(to)
    edges.push({
      id: e.id,
      source: e.source,
      target: e.target,
      // Within one column (decision → decision, replacement → old claim) leave from the bottom
      // and arrive on top, instead of looping out of the right side and back in on the left.
      sourceHandle: sameColumn ? 'bottom' : 'right',
      targetHandle: sameColumn ? 'top' : 'left',
      className: `edge-${e.type.toLowerCase()}`,
      data: { apiType: e.type },
    })
  }
  return { nodes: layoutGraph(nodes, edges), edges }
}
