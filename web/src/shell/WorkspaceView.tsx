// An open workspace: the graph, and the side panel with its tabs. The product graph is the
// one source of truth for names and statuses: every panel reads them from it, and every
// change reloads it, so no panel keeps showing a status the graph no longer has.
import { lazy, Suspense, useCallback, useMemo, useRef, useState, type ReactNode } from 'react'
import type { CorrectionApplied, CorrectionPreview, ErasurePreview, GraphView, RunView as RunViewData } from '../apiTypes'
import { marksFromPreview } from '../graph/decorate'
import type { Focus } from '../graph/GraphCanvas'
import { LimitStrip } from '../graph/LimitStrip'
import type { SearchHit } from '../graph/NodeSearch'
import { productKind } from '../graph/toFlow'
import { useMedia } from '../hooks'
import { useChangeStamp, useWorkspaceChanged } from '../query'
import { impactSummary } from '../reasons'
import { ErrorNote, Section, type LinkKind, type SelectById } from '../panels/common'
import type { PreviewState } from '../panels/CorrectionPanel'
import { ConflictNavCtx } from '../conflicts/nav'
import { CONFLICTS_TAB, useConflictsTab } from '../conflicts/useConflictsTab'
import { marksFromErasure } from '../erasures/marks'
import { ErasureNavCtx, ErasurePreviewCtx } from '../erasures/nav'
import { ERASURES_TAB, useErasuresTab } from '../erasures/useErasuresTab'
import type { AppNode, Selection } from '../types'
import { WorkspaceCtx } from '../workspace'
import { SidePanel, type PanelTab } from './SidePanel'
import { useGraphRead } from './useGraphRead'
import { useGraphShape } from './useGraphShape'

// The graph (React Flow), the panels and the history are loaded on need, each its own chunk
// fetched while the workspace's graph is read: the first script is the shell alone.
const GraphCanvas = lazy(() => import('../graph/GraphCanvas').then((m) => ({ default: m.GraphCanvas })))
const DetailPanel = lazy(() => import('../panels/DetailPanel').then((m) => ({ default: m.DetailPanel })))
const ConflictsPanel = lazy(() => import('../conflicts/ConflictsPanel').then((m) => ({ default: m.ConflictsPanel })))
const SourceForm = lazy(() => import('../panels/SourceForm').then((m) => ({ default: m.SourceForm })))
const AskForm = lazy(() => import('../panels/AskForm').then((m) => ({ default: m.AskForm })))
const RunView = lazy(() => import('../panels/RunView').then((m) => ({ default: m.RunView })))
const RunsList = lazy(() => import('../panels/RunsList').then((m) => ({ default: m.RunsList })))
const TimeControl = lazy(() => import('../time/TimeControl').then((m) => ({ default: m.TimeControl })))
const MemoryList = lazy(() => import('./MemoryList').then((m) => ({ default: m.MemoryList })))
const ErasuresPanel = lazy(() => import('../erasures/ErasuresPanel').then((m) => ({ default: m.ErasuresPanel })))

const Loading = ({ what }: { what: string }) => <p className="muted">Loading {what}…</p>
const OnNeed = ({ what, children }: { what: string; children: ReactNode }) => (
  <Suspense fallback={<Loading what={what} />}>{children}</Suspense>
)

const NO_IDS: ReadonlySet<string> = new Set()

/** The nodes a correction touches: the claim, and the decisions and actions in its preview. */
function touched(p: CorrectionPreview): string[] {
  return [p.claim.id, ...p.flag.map((f) => f.decision_id), ...p.hold.map((h) => h.action_id), ...p.stay.map((s) => s.decision_id)]
}

const narrowWindow = () => typeof window !== 'undefined' && window.innerWidth < 1024
/** A phone's width: the graph's boxes are too small to read, the memory opens as a list. */
const PHONE = '(max-width: 699px)'

export function WorkspaceView({ ws, view, reloadKey = 0 }: { ws: string; view: GraphView; reloadKey?: number }) {
  const [selection, setSelection] = useState<Selection | null>(null)
  const [preview, setPreview] = useState<PreviewState | null>(null)
  const [run, setRun] = useState<RunViewData | null>(null)
  const [focus, setFocus] = useState<Focus | null>(null)
  const focusSeq = useRef(0)
  const bringIntoView = useCallback((ids: string[]) => {
    focusSeq.current += 1
    setFocus({ ids, seq: focusSeq.current })
  }, [])
  const [chosenTab, setTab] = useState<string | null>(null)
  const [folded, setFolded] = useState(false)
  // The moment the graph shows (the time control's), or null for now.
  const [asOf, setAsOf] = useState<number | null>(null)
  // The memory as a list or as a graph: a phone opens on the list, any width can switch.
  const phone = useMedia(PHONE)
  const [chosenMode, setMode] = useState<'list' | 'graph' | null>(null)
  const listShown = view === 'product' && (chosenMode ?? (phone ? 'list' : 'graph')) === 'list'

  // A change is made now: the graph comes back to now to show it.
  const changed = useWorkspaceChanged(ws)
  const refresh = useCallback(() => {
    setAsOf(null)
    changed()
  }, [changed])
  const version = `${useChangeStamp(ws)}:${reloadKey}`
  const { product, internal, drawn, names, drawClaim } = useGraphRead(ws, view, asOf)
  // Marks on the graph and the nodes they keep unfolded come from the previews, so the
  // graph's shape is worked out below, once the conflicts tab has said what it previews.
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(NO_IDS)
  const reveal = useCallback(
    (ids: string[]) => setRevealed((r) => (ids.every((id) => r.has(id)) ? r : new Set([...r, ...ids]))),
    [],
  )
  const correctionMarks = useMemo(() => marksFromPreview(preview?.data ?? null), [preview])
  // Open conflicts: their tab, a resolution's preview (one preview at a time on the graph).
  const conflicts = useConflictsTab({
    ws,
    version,
    asOf,
    graph: drawn,
    bringIntoView,
    reveal,
    refresh,
    onPreviewShown: useCallback(() => {
      setPreview(null)
      setSelection(null) // a selection elsewhere would dim the preview's marks
    }, []),
    openTab: useCallback(() => {
      setTab(CONFLICTS_TAB)
      setFolded(false)
    }, []),
  })
  const erasures = useErasuresTab(
    ws,
    useCallback(() => {
      setTab(ERASURES_TAB)
      setFolded(false)
    }, []),
  )
  // An erasure's preview: the claims that go marked, the repair as a correction's.
  const [erasing, setErasing] = useState<ErasurePreview | null>(null)
  const erasureMarks = useMemo(() => marksFromErasure(erasing), [erasing])
  const showErasure = useCallback(
    (p: ErasurePreview | null) => {
      setErasing(p)
      if (!p) return
      const ids = [...marksFromErasure(p).keys()]
      if (!ids.length) return
      reveal(p.goes.claims.map((c) => c.id))
      bringIntoView(ids)
    },
    [reveal, bringIntoView],
  )
  const marks = conflicts.preview ? conflicts.marks : preview ? correctionMarks : erasureMarks
  const clearResolution = conflicts.clearPreview

  const shape = useGraphShape({ view, drawn, internal: internal.data, marks, selectedId: selection?.id ?? null, revealed })
  const { narrowed, narrowedIds, aroundId, aroundShown, setAround, folding, flow, showAll, setShowAll, toggleSource: toggleFold } = shape
  const graphData = view === 'internal' ? internal : product

  // An empty workspace opens on the form that fills it (decided once, when it first loads).
  const [emptyAtOpen, setEmptyAtOpen] = useState<boolean | null>(null)
  if (emptyAtOpen === null && product.data) setEmptyAtOpen(product.data.nodes.length === 0)
  const tab = chosenTab ?? (emptyAtOpen ? 'sources' : 'details')

  const show = useCallback((id: string, kind: LinkKind | null, node?: AppNode) => {
    setSelection({ id, kind, node })
    setTab('details')
    setFolded(false)
  }, [])

  const selectNode = useCallback(
    (node: AppNode | null) => {
      if (node) show(node.id, productKind(node.data.apiType), node)
      else setSelection(null)
    },
    [show],
  )

  // A node outside the narrowed graph is shown with the rest of it.
  const drawnIds = useMemo(() => new Set(drawn?.nodes.map((n) => n.id) ?? []), [drawn])
  const selectById: SelectById = useCallback(
    (id, kind) => {
      if (!narrowedIds.has(id)) setAround(null)
      reveal([id])
      show(id, kind)
      bringIntoView([id])
      // A claim the graph view did not draw: read it, draw it with its source and the
      // decisions resting on it, and narrow the graph to it (the camera follows once drawn).
      if (kind === 'claim' && !drawnIds.has(id) && asOf === null) {
        drawClaim(id).then(
          () => setAround(id),
          () => undefined, // the panel says why it cannot be read
        )
      }
    },
    [show, bringIntoView, narrowedIds, drawnIds, asOf, reveal, setAround, drawClaim],
  )

  // A preview shows on the graph what it touches; after apply the same nodes (and the
  // replacement, unfolded) are brought back into view once the graph has been read again.
  const showPreview = useCallback(
    (p: PreviewState | null) => {
      setPreview(p)
      if (p) clearResolution()
      if (p) bringIntoView(touched(p.data))
    },
    [bringIntoView, clearResolution],
  )
  const onApplied = useCallback(
    (applied: CorrectionApplied, was: CorrectionPreview) => {
      const replacement = applied.replacement?.id
      if (replacement) reveal([replacement])
      bringIntoView(replacement ? [...touched(was), replacement] : touched(was))
      refresh()
    },
    [bringIntoView, refresh, reveal],
  )

  const onSearchPick = useCallback((hit: SearchHit) => selectById(hit.id, hit.kind), [selectById])

  const toggleSource = useCallback(
    (id: string) => {
      toggleFold(id)
      bringIntoView([id])
    },
    [bringIntoView, toggleFold],
  )

  const selectedDecision =
    selection?.kind === 'decision'
      ? { id: selection.id, title: names.get(selection.id)?.label ?? selection.node?.data.label ?? 'the selected decision' }
      : null

  const tabs: PanelTab[] = [
    {
      id: 'details',
      label: 'Details',
      testId: 'detail-panel',
      content: (
        <DetailPanel
          ws={ws}
          selection={selection}
          preview={preview}
          onPreview={showPreview}
          onApplied={onApplied}
          onChanged={refresh}
          onSelect={selectById}
        />
      ),
    },
    { ...conflicts.tab, content: <ConflictsPanel {...conflicts.panel} onSelect={selectById} /> },
    {
      id: 'sources',
      label: 'Add source',
      content: (
        <Section title="Add a source">
          <SourceForm ws={ws} onAdded={refresh} />
        </Section>
      ),
    },
    {
      id: 'agent',
      label: 'Agent',
      content: (
        <>
          <Section title="Ask the agent">
            <AskForm
              ws={ws}
              buildsOn={selectedDecision}
              onRun={(r) => {
                setRun(r)
                refresh()
              }}
            />
          </Section>
          {run && (
            <Section title="This run">
              <RunView key={run.run.id} initial={run} onSelect={selectById} />
            </Section>
          )}
          <Section title="Earlier runs">
            <RunsList ws={ws} onOpen={setRun} />
          </Section>
        </>
      ),
    },
  ]

  // The erasures tab, once the workspace has something to list (or it is being looked at).
  if (erasures.shown || tab === ERASURES_TAB) {
    tabs.splice(2, 0, {
      ...erasures.tab,
      content: <ErasuresPanel ws={ws} requests={erasures.requests} focus={erasures.focus} onSelect={selectById} />,
    })
  }

  const notice = !preview ? conflicts.notice : (
    <div className="preview-strip" data-testid="preview-banner" role="status">
      <span>
        Previewing a correction of <b>“{preview.data.claim.statement}”</b>: {impactSummary(preview.data, 'preview')}
      </span>
      <span className="row">
        <button type="button" className="link" onClick={() => selectById(preview.claimId, 'claim')}>
          back to the claim
        </button>
        <button type="button" className="link" onClick={() => setPreview(null)}>
          dismiss
        </button>
      </span>
    </div>
  )

  const time = (
    <Suspense fallback={null}>
      <TimeControl ws={ws} asOf={asOf} onChange={setAsOf} />
    </Suspense>
  )

  return (
    <WorkspaceCtx.Provider value={{ ws, names, asOf }}>
      <ConflictNavCtx.Provider value={conflicts.openConflict}>
      <ErasureNavCtx.Provider value={erasures.openErasure}>
      <ErasurePreviewCtx.Provider value={showErasure}>
      <div className={folded ? 'workspace panel-folded' : 'workspace'} data-testid="workspace" data-id={ws}>
        <Suspense
          fallback={
            <main className="canvas" data-testid="graph-loading">
              <div className="canvas-note">Loading the graph…</div>
            </main>
          }
        >
        <GraphCanvas
          key={view}
          view={view}
          graph={flow}
          full={drawn}
          selectedId={selection?.id ?? null}
          marks={marks}
          onSelect={selectNode}
          onSearchPick={onSearchPick}
          focus={focus}
          resetKey={aroundShown ? (aroundId ?? '') : ''}
          fold={{
            active: view === 'product' && Boolean(folding?.active),
            hiddenClaims: view === 'product' ? (folding?.hiddenTotal ?? 0) : 0,
            showAll,
            onShowAll: setShowAll,
            onToggleSource: toggleSource,
          }}
          notice={
            <>
              {time}
              {view === 'product' && (
                <LimitStrip
                  graph={product.data}
                  around={
                    aroundShown && aroundId
                      ? { id: aroundId, label: names.get(aroundId)?.label ?? '', nodes: narrowed?.nodes.length ?? 0 }
                      : null
                  }
                  selected={selection && names.get(selection.id) ? { id: selection.id, label: names.get(selection.id)!.label } : null}
                  onAround={setAround}
                />
              )}
              {notice}
            </>
          }
          list={
            view === 'product'
              ? {
                  shown: listShown,
                  onShow: (shown: boolean) => setMode(shown ? 'list' : 'graph'),
                  content: product.data ? (
                    <OnNeed what="the memory">
                      <MemoryList graph={product.data} onSelect={selectById} />
                    </OnNeed>
                  ) : (
                    <div className="memory-list">
                      {product.error ? <ErrorNote error={product.error} testId="graph-error" /> : <p className="muted">Loading the memory…</p>}
                    </div>
                  ),
                }
              : undefined
          }
        >
          {graphData.error && <ErrorNote error={graphData.error} testId="graph-error" />}
          {graphData.loading && !graphData.data && <div className="canvas-note">Loading the graph…</div>}
          {graphData.data && flow.nodes.length === 0 && (
            <div className="canvas-note" data-testid="graph-empty">
              Nothing yet: add a source, then ask the agent.
            </div>
          )}
        </GraphCanvas>
        </Suspense>
        <SidePanel
          tabs={tabs.map((t) => ({ ...t, content: <OnNeed what="the panel">{t.content}</OnNeed> }))}
          active={tab}
          onActivate={setTab}
          folded={folded}
          onFold={(f) => setFolded(f && narrowWindow() ? true : false)}
        />
      </div>
      </ErasurePreviewCtx.Provider>
      </ErasureNavCtx.Provider>
      </ConflictNavCtx.Provider>
    </WorkspaceCtx.Provider>
  )
}
