import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { api, getApiKey, onUnauthorized } from './api'
import type { GraphView, RunView as RunViewData, Workspace } from './apiTypes'
import { marksFromPreview } from './graph/decorate'
import { GraphCanvas } from './graph/GraphCanvas'
import { productKind, toFlow, type FlowGraph } from './graph/toFlow'
import { useAsync } from './hooks'
import { AskForm } from './panels/AskForm'
import { ErrorNote, Section, type SelectById } from './panels/common'
import type { PreviewState } from './panels/CorrectionPanel'
import { DetailPanel } from './panels/DetailPanel'
import { KeyPrompt } from './panels/KeyPrompt'
import { RunsList } from './panels/RunsList'
import { RunView } from './panels/RunView'
import { SourceForm } from './panels/SourceForm'
import { WorkspacePicker } from './panels/WorkspacePicker'
import type { AppNode, Selection } from './types'
import './App.css'

const EMPTY_GRAPH: FlowGraph = { nodes: [], edges: [] }

function wsFromHash(): string | null {
  const match = /(?:^#|&)ws=([^&]+)/.exec(window.location.hash)
  return match ? decodeURIComponent(match[1]) : null
}

function layout(data: Parameters<typeof toFlow>[0], view: GraphView): FlowGraph {
  const started = performance.now()
  const flow = toFlow(data, view)
  const ms = Math.round(performance.now() - started)
  if (flow.nodes.length > 300) console.info(`[afterhack] layout of ${flow.nodes.length} nodes took ${ms} ms`)
  return flow
}

export default function App() {
  const [ws, setWs] = useState<string | null>(wsFromHash)
  const [view, setView] = useState<GraphView>('product')
  const [refreshKey, setRefreshKey] = useState(0)
  const [selection, setSelection] = useState<Selection | null>(null)
  const [preview, setPreview] = useState<PreviewState | null>(null)
  const [run, setRun] = useState<RunViewData | null>(null)
  const [needKey, setNeedKey] = useState(false)
  const [focus, setFocus] = useState<{ id: string; seq: number } | null>(null)
  const focusSeq = useRef(0)

  useEffect(() => onUnauthorized(() => setNeedKey(true)), [])
  useEffect(() => {
    const follow = () => {
      const id = wsFromHash()
      if (id) setWs(id)
    }
    window.addEventListener('hashchange', follow)
    return () => window.removeEventListener('hashchange', follow)
  }, [])

  const refresh = useCallback(() => setRefreshKey((k) => k + 1), [])
  const workspaces = useAsync('workspaces', () => api.listWorkspaces(), refreshKey)
  const graph = useAsync(ws ? `${ws}:${view}` : null, () => api.getGraph(ws!, view), refreshKey)
  // Layout runs when a new graph arrives, never on a click or a hover.
  const flow = useMemo(() => (graph.data ? layout(graph.data, view) : EMPTY_GRAPH), [graph.data, view])
  const marks = useMemo(() => marksFromPreview(preview?.data ?? null), [preview])

  const pickWorkspace = useCallback((id: string) => {
    setWs(id)
    window.location.hash = `ws=${encodeURIComponent(id)}`
    setSelection(null)
    setPreview(null)
    setRun(null)
  }, [])

  function created(w: Workspace) {
    pickWorkspace(w.id)
    refresh()
  }

  const selectNode = useCallback((node: AppNode | null) => {
    setSelection(node ? { id: node.id, kind: productKind(node.data.apiType), node } : null)
  }, [])

  const selectById: SelectById = useCallback((id, kind) => {
    setSelection({ id, kind })
    focusSeq.current += 1
    setFocus({ id, seq: focusSeq.current })
  }, [])

  const selectedDecision =
    selection?.kind === 'decision' ? { id: selection.id, title: selection.node?.data.label ?? 'selected decision' } : null

  return (
    <div className="app" data-testid="app">
      <header className="topbar">
        <h1>afterhack</h1>
        <WorkspacePicker
          workspaces={workspaces.data?.items ?? []}
          current={ws}
          onPick={pickWorkspace}
          onCreated={created}
        />
        <div className="view-toggle" data-testid="view-toggle" role="group" aria-label="Graph view">
          <button
            type="button"
            data-testid="view-product"
            className={view === 'product' ? 'on' : ''}
            onClick={() => setView('product')}
          >
            Product view
          </button>
          <button
            type="button"
            data-testid="view-internal"
            className={view === 'internal' ? 'on' : ''}
            onClick={() => setView('internal')}
          >
            Internal graph
          </button>
        </div>
        <button type="button" className="secondary" onClick={() => setNeedKey(true)}>
          {getApiKey() ? 'API key ✓' : 'API key'}
        </button>
      </header>

      <aside className="side-left">
        {ws ? (
          <>
            <div className="muted" data-testid="workspace-current" data-id={ws}>
              {workspaces.data?.items.find((w) => w.id === ws)?.name ?? ws}
            </div>
            <Section title="Add a source">
              <SourceForm ws={ws} onAdded={refresh} />
            </Section>
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
              <Section title="Agent run and its handoff trail">
                <RunView view={run} onSelect={selectById} />
              </Section>
            )}
            <Section title="Earlier runs">
              <RunsList ws={ws} refreshKey={refreshKey} onOpen={setRun} />
            </Section>
          </>
        ) : (
          <p className="hint">Create a workspace, or choose one, to begin.</p>
        )}
      </aside>

      <main className="canvas" data-testid="graph" data-view={view} data-nodes={flow.nodes.length}>
        {graph.error && <ErrorNote error={graph.error} testId="graph-error" />}
        {ws && graph.loading && <div className="canvas-note">Loading the graph…</div>}
        {ws && graph.data && flow.nodes.length === 0 && (
          <div className="canvas-note">Nothing yet: add a source, then ask the agent.</div>
        )}
        {preview && (
          <div className="preview-banner" data-testid="preview-banner">
            Previewing a correction of “{preview.data.claim.statement}”: {preview.data.flag.length} flagged,{' '}
            {preview.data.hold.length} held, {preview.data.stay.length} stay supported.
            <button type="button" className="link" onClick={() => selectById(preview.claimId, 'claim')}>
              back to the claim
            </button>
            <button type="button" className="link" onClick={() => setPreview(null)}>
              dismiss
            </button>
          </div>
        )}
        <GraphCanvas
          key={`${ws}:${view}`}
          graph={flow}
          selectedId={selection?.id ?? null}
          marks={marks}
          onSelect={selectNode}
          focus={focus}
        />
      </main>

      <aside className="side-right" data-testid="detail-panel">
        {ws && (
          <DetailPanel
            ws={ws}
            selection={selection}
            refreshKey={refreshKey}
            preview={preview}
            onPreview={setPreview}
            onChanged={refresh}
            onSelect={selectById}
          />
        )}
      </aside>

      {needKey && (
        <KeyPrompt
          onSaved={() => {
            setNeedKey(false)
            refresh()
          }}
          onCancel={() => setNeedKey(false)}
        />
      )}
    </div>
  )
}
