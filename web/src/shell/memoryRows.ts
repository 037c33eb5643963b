// Pure: the memory list's rows, from the product graph.
import type { GraphDTO } from '../apiTypes'

export interface DecisionRow {
  id: string
  title: string
  status: string | null
  at: number
  claims: number
  actions: { id: string; label: string; status: string | null }[]
}

/** Pure: the graph's decisions, newest first, each with how many claims it cites and its actions. */
export function decisionRows(graph: GraphDTO): DecisionRow[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]))
  const claims = new Map<string, number>()
  const actions = new Map<string, DecisionRow['actions']>()
  for (const e of graph.edges) {
    const from = byId.get(e.source)
    const to = byId.get(e.target)
    if (!from || !to) continue
    if (e.type === 'INFORMS' && from.type === 'claim') claims.set(to.id, (claims.get(to.id) ?? 0) + 1)
    if (e.type === 'ENABLES' && to.type === 'action') {
      actions.set(from.id, [...(actions.get(from.id) ?? []), { id: to.id, label: to.label, status: to.status }])
    }
  }
  return graph.nodes
    .filter((n) => n.type === 'decision')
    .map((n) => ({
      id: n.id,
      title: n.label,
      status: n.status,
      at: typeof n.data?.created_at === 'number' ? n.data.created_at : 0,
      claims: claims.get(n.id) ?? 0,
      actions: actions.get(n.id) ?? [],
    }))
    .sort((a, b) => b.at - a.at || (a.id < b.id ? -1 : 1))
}
