// Pure: laid-out nodes and edges + what is selected and previewed → what React Flow draws.
// Node objects that do not change are returned as they are, so memoised nodes stay put.
import type { CorrectionPreview } from '../apiTypes'
import type { AppEdge, AppNode, PreviewMark } from '../types'
import type { Impact } from './impact'

/** What a correction preview does to each node it names. */
export function marksFromPreview(preview: CorrectionPreview | null): Map<string, PreviewMark> {
  const marks = new Map<string, PreviewMark>()
  if (!preview) return marks
  marks.set(preview.claim.id, 'target')
  // Copies of the statement, and the claims that state it in other words unless left out:
  // the replacement supersedes them too.
  if (preview.kind === 'replace') {
    for (const a of preview.also_states_this) if (!a.left_out) marks.set(a.claim_id, 'supersede')
  }
  for (const s of preview.stay) marks.set(s.decision_id, 'stays')
  for (const f of preview.flag) marks.set(f.decision_id, 'flagged')
  for (const h of preview.hold) marks.set(h.action_id, 'held')
  return marks
}

// Only nodes on the impact path get a class. Dimming the rest is one class on the canvas
// (`has-selection`), so a click on a 2,000-node graph touches a handful of node objects,
// not all of them.
function emphasisClass(id: string, impact: Impact | null): string | undefined {
  if (!impact) return undefined
  if (id === impact.selected) return 'is-selected'
  if (impact.downstream.has(id)) return 'is-downstream'
  if (impact.upstream.has(id)) return 'is-upstream'
  return undefined
}

export function decorateNodes(
  nodes: readonly AppNode[],
  impact: Impact | null,
  marks: ReadonlyMap<string, PreviewMark>,
): AppNode[] {
  return nodes.map((node) => {
    const className = emphasisClass(node.id, impact)
    const mark = marks.get(node.id) ?? null
    if (className === node.className && mark === node.data.mark) return node
    const data = mark === node.data.mark ? node.data : { ...node.data, mark }
    return { ...node, className, data } as AppNode
  })
}

export function decorateEdges(edges: readonly AppEdge[], impact: Impact | null): AppEdge[] {
  if (!impact) return edges as AppEdge[]
  return edges.map((edge) => {
    const base = edge.className ?? ''
    if (impact.downstreamEdges.has(edge.id)) {
      return { ...edge, className: `${base} is-downstream`, animated: true, zIndex: 1 }
    }
    if (impact.upstreamEdges.has(edge.id)) {
      return { ...edge, className: `${base} is-upstream`, zIndex: 1 }
    }
    return edge
  })
}
