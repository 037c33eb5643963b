// The graph and everything about it. Nothing floats over the nodes: the search box, the
// legend, the folding and zoom controls sit in a bar above the canvas, the minimap in a dock
// beside it, a preview's summary in a strip under the bar.
import {
  Background,
  MarkerType,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type NodeMouseHandler,
  type OnMoveStart,
} from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { GraphDTO, GraphView } from '../apiTypes'
import type { AppNode, PreviewMark } from '../types'
import { decorateEdges, decorateNodes } from './decorate'
import { edgeTypes } from './edgeTypes'
import { ToggleFoldCtx } from './foldContext'
import { buildFlowIndex, traceImpact } from './impact'
import { Legend } from './Legend'
import { NodeSearch, type SearchHit } from './NodeSearch'
import { nodeTypes } from './nodeTypes'
import { statusStyle } from './styles'
import type { FlowGraph } from './toFlow'
import { firstViewport, READABLE_ZOOM } from './viewport'

const MINIMAP_LIMIT = 3000

const defaultEdgeOptions = { markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 } }
const proOptions = { hideAttribution: true }

const MINIMAP_TONE: Record<string, string> = { amber: '#f59e0b', grey: '#6b7280', muted: '#cbd5e1', normal: '#94a3b8' }
const minimapColor = (node: AppNode) => MINIMAP_TONE[statusStyle(node.data.status).tone]

export interface Focus {
  ids: string[]
  seq: number
}

export interface FoldControls {
  /** Folding applies (the workspace has decisions to focus on). */
  active: boolean
  hiddenClaims: number
  showAll: boolean
  onShowAll: (showAll: boolean) => void
  onToggleSource: (id: string) => void
}

interface Props {
  view: GraphView
  graph: FlowGraph
  /** The whole graph, folded claims included, for the search box. */
  full: GraphDTO | null
  selectedId: string | null
  marks: ReadonlyMap<string, PreviewMark>
  onSelect: (node: AppNode | null) => void
  onSearchPick: (hit: SearchHit) => void
  /** Bumped by the app to bring nodes into view: a claim picked in a panel, what a
   * correction preview touches. */
  focus: Focus | null
  fold: FoldControls
  /** A strip under the bar (a correction preview's summary). */
  notice?: ReactNode
  /** Notes drawn in the middle of the canvas (loading, empty, error). */
  children?: ReactNode
  /** The same memory as a list (a phone's way through it), and whether it shows instead of
   * the graph. The graph stays mounted meanwhile, so coming back keeps its camera. */
  list?: { content: ReactNode; shown: boolean; onShow: (shown: boolean) => void }
  /** A new value opens the first view again (the graph narrowed to another part). */
  resetKey?: string
}

function Canvas({ view, graph, full, selectedId, marks, onSelect, onSearchPick, focus, fold, notice, children, list, resetKey = '' }: Props) {
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
  // The map is docked beside the pane, so it costs the graph width: folded until asked for.
  const [mapOpen, setMapOpen] = useState(false)


  // The first screen: readable text, opened on what matters. It follows the graph as it
  // grows and the pane as it resizes, until the reader moves the camera.
  const pane = useRef<HTMLDivElement>(null)
  const [paneShown, setPaneShown] = useState(true)
  const moved = useRef(false)
  // Where the camera is, for tests and for whoever reads the DOM: 'first' once the first
  // view is set, 'moved' once the reader (or a focus request) moved it.
  const camera = useCallback((state: 'first' | 'moved') => pane.current?.setAttribute('data-camera', state), [])
  const onMoveStart: OnMoveStart = useCallback(
    (event) => {
      if (!event) return
      moved.current = true
      camera('moved')
    },
    [camera],
  )
  // A click on a node says "I am looking here": later refreshes keep the camera.
  const onNodeClick: NodeMouseHandler<AppNode> = useCallback(
    (_, node) => {
      moved.current = true
      onSelect(node)
    },
    [onSelect],
  )
  const onPaneClick = useCallback(() => onSelect(null), [onSelect])

  const latestNodes = useRef(graph.nodes)
  useEffect(() => {
    latestNodes.current = graph.nodes
  }, [graph.nodes])
  const showFirstView = useCallback(() => {
    const el = pane.current
    // A pane with no size (the list shows instead) gets its first view once it is shown.
    if (!el || moved.current || latestNodes.current.length === 0 || el.clientWidth === 0) return
    void flow.setViewport(firstViewport(latestNodes.current, { width: el.clientWidth, height: el.clientHeight }))
    camera('first')
  }, [flow, camera])
  const lastReset = useRef(resetKey)
  useEffect(() => {
    if (lastReset.current === resetKey) return
    lastReset.current = resetKey
    moved.current = false
  }, [resetKey])
  useEffect(() => {
    const raf = requestAnimationFrame(showFirstView)
    return () => cancelAnimationFrame(raf)
  }, [graph.nodes, showFirstView])
  // The pane shrinks when the panel under it opens (a narrow window): the node just selected
  // is kept in view rather than left under the panel.
  const selected = useRef(selectedId)
  useEffect(() => {
    selected.current = selectedId
  }, [selectedId])
  const keepSelectionInView = useCallback(() => {
    const el = pane.current
    const node = latestNodes.current.find((n) => n.id === selected.current)
    if (!el || !node || el.clientWidth === 0) return
    const { x, y, zoom } = flow.getViewport()
    const w = (node.width ?? 0) * zoom
    const h = (node.height ?? 0) * zoom
    const left = node.position.x * zoom + x
    const top = node.position.y * zoom + y
    if (left >= 0 && top >= 0 && left + w <= el.clientWidth && top + h <= el.clientHeight) return
    void flow.setCenter(node.position.x + (node.width ?? 0) / 2, node.position.y + (node.height ?? 0) / 2, { zoom })
  }, [flow])
  useEffect(() => {
    const el = pane.current
    if (!el || typeof ResizeObserver === 'undefined') return
    // A frame later, once React Flow has measured the new size too.
    const observer = new ResizeObserver(() =>
      requestAnimationFrame(() => {
        setPaneShown(el.clientWidth > 0)
        if (moved.current) keepSelectionInView()
        else showFirstView()
      }),
    )
    observer.observe(el)
    return () => observer.disconnect()
  }, [showFirstView, keepSelectionInView])

  // A focus request waits for the layout that holds all its nodes (a folded claim appears
  // once it unfolds, a replacement once the graph is read again after apply). One node is
  // centred; several are fitted, never below the readable zoom.
  // A pane with no size (the list shows instead) keeps the request until it is shown.
  const handled = useRef(0)
  useEffect(() => {
    if (!focus || focus.seq === handled.current || focus.ids.length === 0 || !paneShown) return
    const byId = new Map(graph.nodes.map((n) => [n.id, n]))
    const targets = focus.ids.map((id) => byId.get(id))
    if (targets.some((n) => n === undefined)) return
    handled.current = focus.seq
    moved.current = true
    camera('moved')
    if (targets.length === 1) {
      const { position, width, height } = targets[0]!
      void flow.setCenter(position.x + (width ?? 0) / 2, position.y + (height ?? 0) / 2, {
        zoom: Math.max(flow.getZoom(), READABLE_ZOOM),
        duration: 300,
      })
    } else {
      void flow.fitView({
        nodes: focus.ids.map((id) => ({ id })),
        minZoom: READABLE_ZOOM,
        maxZoom: 1,
        padding: 0.12,
        duration: 300,
      })
    }
  }, [focus, graph.nodes, flow, camera, paneShown])

  const resetView = useCallback(() => {
    moved.current = false
    showFirstView()
  }, [showFirstView])

  return (
    <main
      className={list?.shown ? 'canvas as-list' : 'canvas'}
      data-testid="graph"
      data-view={view}
      data-mode={list?.shown ? 'list' : 'graph'}
      data-nodes={graph.nodes.length}
      data-folded={fold.hiddenClaims}
    >
      <div className="canvas-bar" data-testid="canvas-bar">
        <NodeSearch graph={full} onPick={onSearchPick} />
        <div className="canvas-tools">
          {list && (
            <div className="list-toggle" role="group" aria-label="Show the memory as">
              <button
                type="button"
                className={list.shown ? 'secondary small on' : 'secondary small'}
                data-testid="show-list"
                aria-pressed={list.shown}
                onClick={() => list.onShow(true)}
              >
                List
              </button>
              <button
                type="button"
                className={list.shown ? 'secondary small' : 'secondary small on'}
                data-testid="show-graph"
                aria-pressed={!list.shown}
                onClick={() => list.onShow(false)}
              >
                Graph
              </button>
            </div>
          )}
          {view === 'product' && fold.active && (fold.hiddenClaims > 0 || fold.showAll) && (
            <button
              type="button"
              className="secondary small"
              data-testid="toggle-all-claims"
              aria-pressed={fold.showAll}
              onClick={() => fold.onShowAll(!fold.showAll)}
              title="Claims no decision uses are folded into their source"
            >
              {fold.showAll ? 'Fold unused claims' : `Show ${fold.hiddenClaims} unused claim${fold.hiddenClaims === 1 ? '' : 's'}`}
            </button>
          )}
          <div className="zoom-buttons" role="group" aria-label="Zoom">
            <button type="button" className="secondary small" aria-label="Zoom out" data-testid="zoom-out" onClick={() => void flow.zoomOut()}>
              −
            </button>
            <button type="button" className="secondary small" aria-label="Zoom in" data-testid="zoom-in" onClick={() => void flow.zoomIn()}>
              +
            </button>
            <button
              type="button"
              className="secondary small"
              data-testid="zoom-reset"
              aria-label="Back to the first view"
              title="Back to the first view: readable text, decisions in view"
              onClick={resetView}
            >
              ⟲<span className="wide-only"> Reset</span>
            </button>
            <button
              type="button"
              className="secondary small"
              data-testid="zoom-fit"
              aria-label="Fit the whole graph"
              title="Fit the whole graph (text may get small)"
              onClick={() => void flow.fitView({ padding: 0.05 })}
            >
              ⤢<span className="wide-only"> Fit all</span>
            </button>
          </div>
          {graph.nodes.length <= MINIMAP_LIMIT && (
            <button
              type="button"
              className="secondary small map-toggle"
              data-testid="map-toggle"
              aria-pressed={mapOpen}
              onClick={() => setMapOpen((o) => !o)}
            >
              {mapOpen ? 'Hide map' : 'Map'}
            </button>
          )}
        </div>
        <Legend nodes={graph.nodes} hiddenClaims={fold.hiddenClaims} />
      </div>
      {notice}
      <div className="canvas-body">
        {list?.shown && list.content}
        <div className="flow-pane" ref={pane} data-testid="flow-pane" hidden={list?.shown}>
          <ToggleFoldCtx.Provider value={fold.onToggleSource}>
            <ReactFlow<AppNode>
              nodes={nodes}
              edges={edges}
              nodeTypes={nodeTypes}
              edgeTypes={edgeTypes}
              defaultEdgeOptions={defaultEdgeOptions}
              onNodeClick={onNodeClick}
              onPaneClick={onPaneClick}
              onMoveStart={onMoveStart}
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
            </ReactFlow>
          </ToggleFoldCtx.Provider>
          {children}
        </div>
        {mapOpen && graph.nodes.length <= MINIMAP_LIMIT && (
          <aside className="map-dock" data-testid="minimap-dock" aria-label="Map of the whole graph">
            <MiniMap
              pannable
              zoomable
              nodeColor={minimapColor}
              bgColor="#fff"
              maskColor="rgb(226 232 240 / 0.6)"
              maskStrokeColor="#1d4ed8"
              maskStrokeWidth={2}
              style={{ width: 180, height: 140 }}
            />
          </aside>
        )}
      </div>
    </main>
  )
}

export function GraphCanvas(props: Props) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  )
}
