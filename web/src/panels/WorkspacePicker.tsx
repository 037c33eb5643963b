import { useState, type FormEvent } from 'react'
import { api } from '../api'
import type { Workspace } from '../apiTypes'
import { useAction } from '../hooks'
import { ErrorNote } from './common'

interface Props {
  workspaces: Workspace[]
  current: string | null
  onPick: (id: string) => void
  onCreated: (ws: Workspace) => void
}

export function WorkspacePicker({ workspaces, current, onPick, onCreated }: Props) {
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

  const known = workspaces.some((w) => w.id === current)
  return (
    <div className="workspace-picker">
      <select
        data-testid="workspace-select"
        value={current ?? ''}
        onChange={(e) => e.target.value && onPick(e.target.value)}
        aria-label="Workspace"
      >
        <option value="">Choose a workspace…</option>
        {current && !known && <option value={current}>{current}</option>}
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
      <form onSubmit={create} className="inline-form">
        <input
          data-testid="workspace-name-input"
          placeholder="New workspace name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={200}
        />
        <button data-testid="workspace-create" disabled={busy || !name.trim()}>
          Create
        </button>
      </form>
      <ErrorNote error={error} testId="workspace-error" />
    </div>
  )
}
