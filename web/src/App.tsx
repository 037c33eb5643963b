import { useCallback, useEffect, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { api, getApiKey, onUnauthorized } from './api'
import type { GraphView, Workspace } from './apiTypes'
import { useAsync } from './hooks'
import { ErrorNote } from './panels/common'
import { KeyPrompt } from './panels/KeyPrompt'
import { MoreFooter } from './MoreFooter'
import { usePaged } from './paging'
import { WorkspaceChooser } from './shell/WorkspaceChooser'
import { WorkspaceMenu } from './shell/WorkspaceMenu'
import { WorkspaceView } from './shell/WorkspaceView'
import './App.css'

function wsFromHash(): string | null {
  const match = /(?:^#|&)ws=([^&]+)/.exec(window.location.hash)
  return match ? decodeURIComponent(match[1]) : null
}

export default function App() {
  const [ws, setWs] = useState<string | null>(wsFromHash)
  const [view, setView] = useState<GraphView>('product')
  const [listKey, setListKey] = useState(0)
  const [needKey, setNeedKey] = useState(false)
  const [keyKey, setKeyKey] = useState(0)
  const queries = useQueryClient()

  useEffect(() => onUnauthorized(() => setNeedKey(true)), [])
  useEffect(() => {
    const follow = () => setWs(wsFromHash())
    window.addEventListener('hashchange', follow)
    return () => window.removeEventListener('hashchange', follow)
  }, [])

  const workspaces = usePaged('workspaces', (cursor) => api.listWorkspaces(cursor), `${listKey}:${keyKey}`)
  // The workspace the link names, read on its own: a link to one that does not exist gets a
  // page that says so, not an empty graph and a raw id in the menu.
  const current = useAsync(ws ? `ws:${ws}` : null, () => api.getWorkspace(ws!), keyKey)

  const pickWorkspace = useCallback((id: string) => {
    setWs(id)
    window.location.hash = `ws=${encodeURIComponent(id)}`
  }, [])

  function created(w: Workspace) {
    pickWorkspace(w.id)
    setListKey((k) => k + 1)
  }

  const list = workspaces.loading && workspaces.items.length === 0 ? null : workspaces.items
  const missing = ws && current.error?.code === 'workspace_not_found' ? ws : null
  const open = ws && current.data ? current.data : null

  return (
    <div className="app" data-testid="app">
      <header className="topbar">
        <h1>afterhack</h1>
        <WorkspaceMenu workspaces={list ?? []} current={open} onPick={pickWorkspace} onCreated={created} />
        {open && (
          <div className="view-toggle" data-testid="view-toggle" role="group" aria-label="Graph view">
            <button
              type="button"
              data-testid="view-product"
              aria-pressed={view === 'product'}
              className={view === 'product' ? 'on' : ''}
              onClick={() => setView('product')}
            >
              Product<span className="wide-only"> view</span>
            </button>
            <button
              type="button"
              data-testid="view-internal"
              aria-pressed={view === 'internal'}
              className={view === 'internal' ? 'on' : ''}
              onClick={() => setView('internal')}
            >
              Internal<span className="wide-only"> graph</span>
            </button>
          </div>
        )}
        <button type="button" className="secondary key-button" data-testid="api-key-button" onClick={() => setNeedKey(true)}>
          {getApiKey() ? 'API key ✓' : 'API key'}
        </button>
      </header>

      {open ? (
        <WorkspaceView key={open.id} ws={open.id} view={view} reloadKey={keyKey} />
      ) : ws && !missing && !current.error ? (
        <div className="page-note muted">Opening the workspace…</div>
      ) : (
        <div className="page">
          {ws && current.error && !missing && <ErrorNote error={current.error} testId="workspace-error" />}
          <WorkspaceChooser workspaces={list} missing={missing} onPick={pickWorkspace} onCreated={created} />
          <MoreFooter list={workspaces} testId="workspaces-more" noun="workspaces" />
        </div>
      )}

      {needKey && (
        <KeyPrompt
          onSaved={() => {
            setNeedKey(false)
            setKeyKey((k) => k + 1)
            void queries.invalidateQueries() // a new key may see more: read everything again
          }}
          onCancel={() => setNeedKey(false)}
        />
      )}
    </div>
  )
}
