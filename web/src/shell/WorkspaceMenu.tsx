// The workspace switcher in the top bar: the current workspace's name; a click lists the
// others and offers a new one.
import { useEffect, useRef, useState } from 'react'
import type { Workspace } from '../apiTypes'
import { CreateWorkspaceForm } from './WorkspaceChooser'

interface Props {
  workspaces: Workspace[]
  current: Workspace | null
  onPick: (id: string) => void
  onCreated: (ws: Workspace) => void
}

export function WorkspaceMenu({ workspaces, current, onPick, onCreated }: Props) {
  const [open, setOpen] = useState(false)
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const close = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false)
    }
    const escape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false)
    }
    document.addEventListener('mousedown', close)
    document.addEventListener('keydown', escape)
    return () => {
      document.removeEventListener('mousedown', close)
      document.removeEventListener('keydown', escape)
    }
  }, [open])
  return (
    <div className="ws-menu" ref={box}>
      <button
        type="button"
        className="ws-current"
        data-testid="workspace-current"
        data-id={current?.id ?? ''}
        aria-haspopup="true"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        title="Switch workspace"
      >
        <span className="ws-name">{current?.name ?? 'Choose a workspace'}</span>
        <span aria-hidden="true"> ▾</span>
      </button>
      {open && (
        <div className="ws-dropdown" data-testid="workspace-menu">
          <ul>
            {workspaces.map((w) => (
              <li key={w.id}>
                <button
                  type="button"
                  className={w.id === current?.id ? 'ws-option on' : 'ws-option'}
                  data-testid="workspace-option"
                  data-id={w.id}
                  onClick={() => {
                    setOpen(false)
                    onPick(w.id)
                  }}
                >
                  {w.name}
                </button>
              </li>
            ))}
          </ul>
          <CreateWorkspaceForm
            testPrefix="menu-"
            onCreated={(w) => {
              setOpen(false)
              onCreated(w)
            }}
          />
        </div>
      )}
    </div>
  )
}
