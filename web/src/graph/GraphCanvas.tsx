import {
  Background,
  Controls,
  MarkerType,
  MiniMap,
  Panel,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type NodeMouseHandler,
} from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import { useCallback, useEffect, useMemo, useRef } from 'react'
import type { AppNode, PreviewMark } from '../types'
import { decorateEdges, decorateNodes } from './decorate'
import { buildFlowIndex, traceImpact } from './impact'
import { Legend } from './Legend'
import { nodeTypes } from './nodeTypes'
import { statusStyle } from './styles'
import type { FlowGraph } from './toFlow'

/** Past this many nodes, open on the first few instead of zooming out over all of them. */
const FIT_ALL_LIMIT = 300
const MINIMAP_LIMIT = 800

const defaultEdgeOptions = { markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 } }
const proOptions = { hideAttribution: true }

const MINIMAP_TONE: Record<string, string> = { amber: '#f59e0b', grey: '#6b7280', muted: '#cbd5e1', normal: '#94a3b8' }
const minimapColor = (node: AppNode) => MINIMAP_TONE[statusStyle(node.data.status).tone]

interface Props {
  graph: FlowGraph
  selectedId: string | null
  marks: ReadonlyMap<string, PreviewMark>
  onSelect: (node: AppNode | null) => void
  /** Bumped by the app to bring a node into view (e.g. a claim picked in a panel). */
  focus: { id: string; seq: number } | null
}

function Canvas({ graph, selectedId, marks, onSelect, focus }: Props) {
  const flow = useReactFlow()
  const index = useMemo(
    () => buildFlowIndex(graph.edges.map((e) => ({ ...e, type: e.data?.apiType ?? '' }))),
    [graph.edges],
  )
  const ids = useMemo(() => new Set(graph.nodes.map((n) => n.id)), [graph.nodes])
  const impact = useMemo(
    () => (selectedId && ids.has(selectedId) ? traceImpact(index, selectedId) : null),
    [index, ids, selectedId],
  )
  const nodes = useMemo(() => decorateNodes(graph.nodes, impact, marks), [graph.nodes, impact, marks])
  const edges = useMemo(() => decorateEdges(graph.edges, impact), [graph.edges, impact])

  const onNodeClick: NodeMouseHandler<AppNode> = useCallback((_, node) => onSelect(node), [onSelect])
  const onPaneClick = useCallback(() => onSelect(null), [onSelect])

  // Refit when the graph grows or shrinks, not when a review changes a status in place.
  const fittedCount = useRef(-1)
  useEffect(() => {
    const count = graph.nodes.length
    if (count === fittedCount.current || count === 0) return
    fittedCount.current = count
    // A big graph opens on its top band (the first rows of every column), readable at once.
    const first =
      count > FIT_ALL_LIMIT
        ? [...graph.nodes]
            .sort((a, b) => a.position.y - b.position.y)
            .slice(0, 40)
            .map((n) => ({ id: n.id }))
        : undefined
    const raf = requestAnimationFrame(() => {
      void flow.fitView({ nodes: first, padding: 0.15, maxZoom: 1 })
    })
    return () => cancelAnimationFrame(raf)
  }, [graph.nodes, flow])

  useEffect(() => {
    if (!focus) return
    const node = flow.getNode(focus.id)
    if (!node) return
    const { x, y } = node.position
    void flow.setCenter(x + (node.width ?? 0) / 2, y + (node.height ?? 0) / 2, {
      zoom: Math.max(flow.getZoom(), 0.8),
      duration: 300,
    })
  }, [focus, flow])

  return (
    <ReactFlow<AppNode>
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      defaultEdgeOptions={defaultEdgeOptions}
      onNodeClick={onNodeClick}
      onPaneClick={onPaneClick}
      onlyRenderVisibleElements
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      className={impact ? 'has-selection' : undefined}
      minZoom={0.05}
      maxZoom={1.5}
      proOptions={proOptions}
    >
      <Background gap={24} />
      <Controls showInteractive={false} />
      {graph.nodes.length <= MINIMAP_LIMIT && <MiniMap pannable zoomable nodeColor={minimapColor} />}
      <Panel position="top-right">
        <Legend nodes={graph.nodes} />
      </Panel>
    </ReactFlow>
  )
}

export function GraphCanvas(props: Props) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  )
}
