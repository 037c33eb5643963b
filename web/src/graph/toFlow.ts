// Pure: the API's graph → React Flow nodes and edges, laid out once per response.
import type { GraphDTO, GraphView } from '../apiTypes'
import { askedTimes } from '../asked'
import type { AppEdge, AppNode, AppNodeType, ProductKind } from '../types'
import { placeConflicts } from '../conflicts/words'
import { layoutGraph, nodeSize, rankOf } from './layout'

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

export interface FoldMarks {
  hidden: ReadonlyMap<string, number>
  expanded: ReadonlySet<string>
}

const NO_FOLD: FoldMarks = { hidden: new Map(), expanded: new Set() }

export function toFlow(dto: GraphDTO, view: GraphView, fold: FoldMarks = NO_FOLD): FlowGraph {
  const asked = view === 'product' ? askedTimes(dto) : new Map()
  const nodes = dto.nodes.map(
    (n) =>
      ({
        id: n.id,
        type: nodeTypeFor(n.type, view),
        position: { x: 0, y: 0 },
        // Fixed size: layout needs it up front, and onlyRenderVisibleElements can cull a node
        // React Flow has not measured yet.
        ...nodeSize(n.type),
        data: {
          apiType: n.type,
          label: n.label,
          status: n.status,
          mark: null,
          props: n.data,
          folded: fold.hidden.get(n.id) ?? 0,
          expanded: fold.expanded.has(n.id),
          asked: asked.get(n.id),
        },
      }) as AppNode,
  )
  const typeOf = new Map(dto.nodes.map((n) => [n.id, n.type]))
  const edges: AppEdge[] = []
  for (const e of dto.edges) {
    if (!typeOf.has(e.source) || !typeOf.has(e.target)) continue // React Flow cannot draw a dangling edge
    edges.push({
      id: e.id,
      source: e.source,
      target: e.target,
      sourceHandle: 'right',
      targetHandle: 'left',
      className: `edge-${e.type.toLowerCase()}`,
      data: { apiType: e.type },
      // Two claims that disagree: neither rests on the other, so no arrowhead; a bracket on
      // their left (conflicts/ConflictEdge.tsx), never through the claims between them.
      ...(e.type === 'CONFLICTS'
        ? { type: 'conflict', sourceHandle: 'left-out', markerEnd: undefined, ariaLabel: 'These two claims disagree' }
        : {}),
    })
  }
  const laid = layoutGraph(nodes, edges)
  // Within one column (decision → decision, replacement → old claim) an edge leaves from the
  // side facing the other node and arrives on the side facing back, instead of looping out
  // of the right and in on the left, or running through both boxes.
  const y = new Map(laid.map((n) => [n.id, n.position.y]))
  // A bracket runs from each claim's left side, halfway down (its "left" handles).
  const box = new Map(laid.map((n) => [n.id, { x: n.position.x, y: n.position.y + (Number(n.height ?? n.style?.height) || 0) / 2 }]))
  const lanes = placeConflicts(
    edges
      .filter((e) => e.type === 'conflict')
      .map((e) => {
        const s = box.get(e.source) ?? { x: 0, y: 0 }
        const t = box.get(e.target) ?? { x: 0, y: 0 }
        return { id: e.id, sx: s.x, sy: s.y, tx: t.x, ty: t.y }
      }),
  )
  for (const edge of edges) {
    if (edge.type === 'conflict') edge.data = { apiType: 'CONFLICTS', ...(lanes.get(edge.id) ?? { lane: 0, at: 0.5 }) }
    if (edge.type === 'conflict') continue
    if (rankOf(typeOf.get(edge.source)!) !== rankOf(typeOf.get(edge.target)!)) continue
    const down = y.get(edge.target)! >= y.get(edge.source)!
    edge.sourceHandle = down ? 'bottom' : 'top-out'
    edge.targetHandle = down ? 'top' : 'bottom-in'
  }
  return { nodes: laid, edges }
}
