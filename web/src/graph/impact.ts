// Pure impact tracing: from a selected node, what rests on it (downstream) and what it rests
// on (upstream), following each edge in the direction of "because".

/** How an edge type runs along the chain of because. */
export type Flow = 'forward' | 'reverse' | 'none'

const EDGE_FLOW: Record<string, Flow> = {
  // Product view: edges already point from reason to consequence.
  SUPPORTS: 'forward',
  INFORMS: 'forward',
  ENABLES: 'forward',
  CORRECTS: 'forward',
  // A replacement is lineage, not a reason: the old claim does not rest on its replacement.
  REPLACES: 'none',
  // Internal view: stored edges point whichever way the model reads best.
  HAS_VERSION: 'forward',
  HAS_FRAGMENT: 'forward',
  SUPPORTED_BY: 'reverse',
  USED_CLAIM: 'reverse',
  DEPENDS_ON: 'reverse',
  REQUIRES: 'reverse',
  PRODUCED: 'forward',
  HAS_HANDOFF: 'forward',
  SUPERSEDES: 'none',
}

export function flowOf(edgeType: string): Flow {
  return EDGE_FLOW[edgeType] ?? 'none'
}

export interface FlowEdge {
  id: string
  source: string
  target: string
  type: string
}

interface Step {
  next: string
  edgeId: string
}

/** Adjacency in the direction of because, built once per graph and reused for every click. */
export interface FlowIndex {
  down: Map<string, Step[]>
  up: Map<string, Step[]>
}

export function buildFlowIndex(edges: readonly FlowEdge[], flow: (type: string) => Flow = flowOf): FlowIndex {
  const down = new Map<string, Step[]>()
  const up = new Map<string, Step[]>()
  const add = (map: Map<string, Step[]>, from: string, step: Step) => {
    const list = map.get(from)
    if (list) list.push(step)
    else map.set(from, [step])
  }
  for (const e of edges) {
    const f = flow(e.type)
    if (f === 'none') continue
    const [reason, consequence] = f === 'forward' ? [e.source, e.target] : [e.target, e.source]
    add(down, reason, { next: consequence, edgeId: e.id })
    add(up, consequence, { next: reason, edgeId: e.id })
  }
  return { down, up }
}

export interface Impact {
  selected: string
  downstream: Set<string>
  upstream: Set<string>
  downstreamEdges: Set<string>
  upstreamEdges: Set<string>
}

function walk(adjacency: Map<string, Step[]>, start: string): { nodes: Set<string>; edges: Set<string> } {
  const nodes = new Set<string>()
  const edges = new Set<string>()
  const seen = new Set<string>([start])
  const queue = [start]
  // Each node is expanded once, so cycles end.
  for (let i = 0; i < queue.length; i++) {
    for (const { next, edgeId } of adjacency.get(queue[i]) ?? []) {
      edges.add(edgeId)
      if (seen.has(next)) continue
      seen.add(next)
      nodes.add(next)
      queue.push(next)
    }
  }
  return { nodes, edges }
}

/**
 * Everything reachable from `id` along because (downstream) and against it (upstream). In a
 * cycle the selected node can reach itself; it is reported as selected, not in either set.
 */
export function traceImpact(index: FlowIndex, id: string): Impact {
  const down = walk(index.down, id)
  const up = walk(index.up, id)
  down.nodes.delete(id)
  up.nodes.delete(id)
  return {
    selected: id,
    downstream: down.nodes,
    upstream: up.nodes,
    downstreamEdges: down.edges,
    upstreamEdges: up.edges,
  }
}
