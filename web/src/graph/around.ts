// Pure: a workspace too large to draw whole, narrowed to one node and what is around it:
// what rests on it and what it rests on (a source's claims and the decisions using them; a
// decision's claims, their sources, and its actions), with each claim's replacement and the
// other side of its open conflicts.
import type { GraphDTO } from '../apiTypes'
import { buildFlowIndex, traceImpact } from './impact'

export function around(dto: GraphDTO, id: string): GraphDTO {
  if (!dto.nodes.some((n) => n.id === id)) return dto
  const impact = traceImpact(buildFlowIndex(dto.edges), id)
  const keep = new Set([id, ...impact.upstream, ...impact.downstream])
  for (const e of dto.edges) {
    if (e.type !== 'REPLACES' && e.type !== 'CONFLICTS') continue
    if (keep.has(e.source)) keep.add(e.target)
    else if (keep.has(e.target)) keep.add(e.source)
  }
  return {
    ...dto,
    nodes: dto.nodes.filter((n) => keep.has(n.id)),
    edges: dto.edges.filter((e) => keep.has(e.source) && keep.has(e.target)),
  }
}

/** "5,000 of 15,855 claims and 5,000 of 6,010 decisions": the kinds a view was cut at. */
export function cutWords(totals: GraphDTO['totals']): string | null {
  const cut = totals.filter((t) => t.total > t.drawn)
  if (cut.length === 0) return null
  const plural: Record<string, string> = { claim: 'claims', source: 'sources', correction: 'corrections', decision: 'decisions', action: 'actions', node: 'nodes' }
  const n = (x: number) => x.toLocaleString('en-GB')
  const parts = cut.map((t) => `${n(t.drawn)} of ${n(t.total)} ${plural[t.type] ?? t.type}`)
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
}
