// What of the graph is laid out: narrowed to one node or not, claims no decision uses folded
// into their source (unless unfolded, kept by a mark or a selection, or all shown), and the
// laid-out flow. Selecting a visible node never lays the graph out again.
import { useCallback, useMemo, useState } from 'react'
import type { GraphDTO, GraphView } from '../apiTypes'
import { around as aroundOf } from '../graph/around'
import { foldableClaims, foldGraph } from '../graph/fold'
import { toFlow, type FlowGraph } from '../graph/toFlow'
import type { PreviewMark } from '../types'

const EMPTY_GRAPH: FlowGraph = { nodes: [], edges: [] }
const NO_IDS: ReadonlySet<string> = new Set()

function layout(dto: GraphDTO, view: GraphView, fold?: Parameters<typeof toFlow>[2]): FlowGraph {
  const started = performance.now()
  const flow = toFlow(dto, view, fold)
  const ms = Math.round(performance.now() - started)
  if (flow.nodes.length > 300) console.info(`[afterhack] layout of ${flow.nodes.length} nodes took ${ms} ms`)
  return flow
}

interface Input {
  view: GraphView
  drawn: GraphDTO | null
  internal: GraphDTO | null
  marks: ReadonlyMap<string, PreviewMark>
  selectedId: string | null
  /** Nodes brought into view by name (a search, a link): never folded away. */
  revealed: ReadonlySet<string>
}

export function useGraphShape({ view, drawn, internal, marks, selectedId, revealed }: Input) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(NO_IDS)
  const [showAll, setShowAll] = useState(false)
  // The node the graph is narrowed to (a large workspace), or null for all that is drawn.
  const [aroundId, setAround] = useState<string | null>(null)

  const narrowed = useMemo(() => (drawn && aroundId ? aroundOf(drawn, aroundId) : drawn), [drawn, aroundId])
  const aroundShown = Boolean(aroundId && drawn?.nodes.some((n) => n.id === aroundId))
  const foldable = useMemo(() => (narrowed ? foldableClaims(narrowed, expanded) : new Set<string>()), [narrowed, expanded])
  // Only what folding would hide matters for the layout.
  const keepKey = useMemo(() => {
    const keep = new Set<string>([...revealed, ...marks.keys()])
    if (selectedId) keep.add(selectedId)
    return [...keep].filter((id) => foldable.has(id)).sort().join(',')
  }, [revealed, marks, selectedId, foldable])
  const folding = useMemo(() => {
    if (!narrowed) return null
    return foldGraph(narrowed, { expanded, showAll: showAll || aroundShown, keep: new Set(keepKey ? keepKey.split(',') : []) })
  }, [narrowed, expanded, showAll, aroundShown, keepKey])
  const flow = useMemo(() => {
    if (view === 'internal') return internal ? layout(internal, 'internal') : EMPTY_GRAPH
    if (!folding) return EMPTY_GRAPH
    return layout(folding.dto, 'product', { hidden: folding.hidden, expanded })
  }, [view, internal, folding, expanded])

  const toggleSource = useCallback((id: string) => {
    setExpanded((e) => {
      const next = new Set(e)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  }, [])
  const narrowedIds = useMemo(() => new Set(narrowed?.nodes.map((n) => n.id) ?? []), [narrowed])

  return { narrowed, narrowedIds, aroundId, aroundShown, setAround, folding, flow, showAll, setShowAll, toggleSource }
}
