// The page shown with no workspace open, or with a link to one that does not exist.
import { useState, type FormEvent } from 'react'
import { api } from '../api'
import type { Workspace } from '../apiTypes'
import { useAction } from '../hooks'
import { ErrorNote } from '../panels/common'

export function CreateWorkspaceForm({ onCreated, testPrefix = '' }: { onCreated: (ws: Workspace) => void; testPrefix?: string }) {
  const [name, setName] = useState('')
  const { busy, error, run } = useAction()
  async function create(e: FormEvent) {
    e.preventDefault()
    const ws = await run(() => api.createWorkspace(name.trim()))
    if (ws) {
      setName('')
      onCreated(ws)
    }
  }
  return (
    <form onSubmit={create} className="create-ws">
      <label className="visually-hidden" htmlFor={`${testPrefix}ws-name`}>
        New workspace name
      </label>
      <input
        id={`${testPrefix}ws-name`}
        data-testid={`${testPrefix}workspace-name-input`}
        placeholder="New workspace name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={200}
      />
      <button data-testid={`${testPrefix}workspace-create`} disabled={busy || !name.trim()}>
        Create
      </button>
      <ErrorNote error={error} testId={`${testPrefix}workspace-error`} />
    </form>
  )
}

interface Props {
  workspaces: Workspace[] | null
  /** The id the link asked for, when no workspace has it. */
  missing?: string | null
  onPick: (id: string) => void
  onCreated: (ws: Workspace) => void
}

export function WorkspaceChooser({ workspaces, missing, onPick, onCreated }: Props) {
  return (
    <div className="chooser" data-testid={missing ? 'workspace-unknown' : 'workspace-chooser'}>
      {missing ? (
        <>
          <h2>This workspace does not exist</h2>
          <p>
            The link asks for a workspace this server does not have: it may have been deleted, or the link
            was cut short. <span className="muted small">(It asked for “{missing}”.)</span>
          </p>
          <p>Open another one, or start a new one:</p>
        </>
      ) : (
        <>
          <h2>Open a workspace</h2>
          <p>
            A workspace holds your sources, the claims read from them with their exact quotes, and the
            decisions and actions agents built on them.
          </p>
        </>
      )}
      <CreateWorkspaceForm onCreated={onCreated} />
      {workspaces && workspaces.length > 0 && (
        <>
          <h3>Your workspaces</h3>
          <ul className="ws-list" data-testid="workspace-list">
            {workspaces.map((w) => (
              <li key={w.id}>
                <button type="button" className="link" data-testid="workspace-option" data-id={w.id} onClick={() => onPick(w.id)}>
                  {w.name}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
