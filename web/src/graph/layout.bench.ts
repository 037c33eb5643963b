// The graph's layout against dagre (the layered layout it replaced) on product-view graphs of
// workspace shape, and against a floor: copying the nodes, the least any layout must do.
//   npm run bench
import dagre, { type GraphLabel } from '@dagrejs/dagre'
import { bench, describe } from 'vitest'
import { NODE_HEIGHT, NODE_SEP, NODE_WIDTH, RANK_SEP, layoutGraph, rankOf } from './layout'

function world(n: number) {
  let seed = 5
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  const nodes: { id: string; data: { apiType: string } }[] = []
  const edges: { source: string; target: string }[] = []
  const add = (id: string, apiType: string) => nodes.push({ id, data: { apiType } })
  const sources = Array.from({ length: n / 20 }, (_, i) => `s${i}`)
  sources.forEach((id) => add(id, 'source'))
  const claims = Array.from({ length: n / 2 }, (_, i) => `c${i}`)
  claims.forEach((id) => {
    add(id, 'claim')
    edges.push({ source: sources[Math.floor(rnd() * sources.length)], target: id })
  })
  for (let i = 0; i < n / 4; i++) {
    add(`d${i}`, 'decision')
    for (let k = 0; k < 3; k++) edges.push({ source: claims[Math.floor(rnd() * claims.length)], target: `d${i}` })
  }
  for (let i = 0; i < n / 5; i++) {
    add(`a${i}`, 'action')
    edges.push({ source: `d${i}`, target: `a${i}` })
  }
  return { nodes, edges }
}

/** What the UI did before: dagre LR with one rank per kind, crossing reduction off past 400 nodes. */
function dagreLayout({ nodes, edges }: ReturnType<typeof world>) {
  const present = [...new Set(nodes.map((n) => rankOf(n.data.apiType)))].sort((a, b) => a - b)
  const columnOf = new Map(nodes.map((n) => [n.id, present.indexOf(rankOf(n.data.apiType))]))
  const g = new dagre.graphlib.Graph()
  const ranker = (graph: typeof g) => {
    for (const v of graph.nodes()) graph.node(v).rank = 2 * (columnOf.get(v) ?? -1)
  }
  g.setGraph({ rankdir: 'LR', nodesep: NODE_SEP, ranksep: RANK_SEP, ranker } as unknown as GraphLabel)
  g.setDefaultEdgeLabel(() => ({}))
  for (const n of nodes) g.setNode(n.id, { width: NODE_WIDTH, height: NODE_HEIGHT })
  for (const e of edges) if (columnOf.get(e.source) !== columnOf.get(e.target)) g.setEdge(e.source, e.target)
  dagre.layout(g, { disableOptimalOrderHeuristic: nodes.length > 400 })
}

for (const n of [40, 400, 2000]) {
  const graph = world(n)
  describe(`${n} nodes`, () => {
    bench('floor: copy the nodes', () => {
      graph.nodes.map((node) => ({ ...node, position: { x: 0, y: 0 } }))
    })
    bench('layoutGraph (columns)', () => {
      layoutGraph(graph.nodes, graph.edges)
    })
    bench('dagre (before)', () => dagreLayout(graph), { iterations: n > 400 ? 2 : 5, time: 0 })
  })
}
