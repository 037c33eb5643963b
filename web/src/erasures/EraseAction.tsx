// The "Erase" offer on a source, a message or a claim. The panel that previews and applies
// is a chunk of its own, fetched only once a reader asks to erase something. The outcome is
// kept here, so it stays in view while the panel around it is read again after apply.
import { lazy, Suspense, useState } from 'react'
import type { ErasureTarget } from '../apiTypes'
import type { SelectById } from '../panels/common'
import { useWorkspace } from '../workspace'
import type { Applied } from './ErasePanel'
import { refusalWords, useRefusal } from './refused'

const ErasePanel = lazy(() => import('./ErasePanel').then((m) => ({ default: m.ErasePanel })))

interface Props {
  ws: string
  target: ErasureTarget
  /** The button's words: "Erase this message". */
  label: string
  /** What is erased, for the panel's heading: "this message". */
  what: string
  onSelect: SelectById
  /** False where there is nothing to erase (an erased claim); an outcome still shows. */
  offered?: boolean
  /** Whether a refused key says why here (once per panel, not on every message). */
  sayRefusal?: boolean
  className?: string
  /** Told when the panel opens, and when it closes (cancelled, or done with the outcome). */
  onOpen?: () => void
  onClose?: () => void
}

export function EraseAction({ ws, target, label, what, onSelect, offered = true, sayRefusal = true, className, onOpen, onClose }: Props) {
  const { asOf = null } = useWorkspace()
  const [open, setOpen] = useState(false)
  const [applied, setApplied] = useState<Applied | null>(null)
  const refusal = useRefusal('erase')
  if (open || applied) {
    return (
      <Suspense fallback={<p className="muted">Loading…</p>}>
        <ErasePanel
          ws={ws}
          target={target}
          what={what}
          onSelect={onSelect}
          applied={applied}
          onApplied={setApplied}
          onClose={() => {
            setOpen(false)
            setApplied(null)
            onClose?.()
          }}
        />
      </Suspense>
    )
  }
  // The past offers no changes; a key the server refused says why once, not a button.
  if (!offered || asOf !== null) return null
  if (refusal) {
    if (!sayRefusal) return null
    return (
      <p className="muted small" data-testid="erase-refused">
        {refusalWords(refusal)}
      </p>
    )
  }
  return (
    <button type="button" className={className ?? 'small erase-offer'} data-testid="erase-offer" onClick={() => {
        setOpen(true)
        onOpen?.()
      }}>
      {label}
    </button>
  )
}
