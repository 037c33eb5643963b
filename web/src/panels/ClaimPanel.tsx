import { useState } from 'react'
import { api } from '../api'
import type { CorrectionApplied, CorrectionPreview } from '../apiTypes'
import { isCurrentClaim } from '../claims'
import { useRead, wsKey } from '../query'
import { BeforeAfter } from './BeforeAfter'
import { ErrorNote, type SelectById } from './common'
import { CorrectionPanel, type PreviewState } from './CorrectionPanel'
import { EvidencePanel } from './EvidencePanel'
import { ClaimConflicts } from '../conflicts/ConflictLinks'
import { EraseAction } from '../erasures/EraseAction'
import { useWorkspace } from '../workspace'

interface Props {
  ws: string
  id: string
  preview: PreviewState | null
  onPreview: (preview: PreviewState | null) => void
  /** Told once a correction is applied (it reloads the workspace). */
  onApplied: (applied: CorrectionApplied, preview: CorrectionPreview) => void
  onSelect: SelectById
}

export function ClaimPanel({ ws, id, preview, onPreview, onApplied, onSelect }: Props) {
  const { asOf = null } = useWorkspace()
  const claim = useRead(wsKey(ws, 'claim', id, asOf), () => api.getClaim(ws, id, asOf))
  const [applied, setApplied] = useState<{ result: CorrectionApplied; preview: CorrectionPreview } | null>(null)

  function handleApplied(result: CorrectionApplied, applying: CorrectionPreview) {
    setApplied({ result, preview: applying })
    onApplied(result, applying)
  }

  if (claim.error) return <ErrorNote error={claim.error} />
  if (!claim.data) return <p className="muted">Loading the claim…</p>
  return (
    <div className="stack">
      {applied && <BeforeAfter ws={ws} applied={applied.result} preview={applied.preview} onSelect={onSelect} />}
      <EvidencePanel claim={claim.data} onSelect={onSelect} />
      <ClaimConflicts claim={claim.data} onSelect={onSelect} />
      {!applied && asOf === null && isCurrentClaim(claim.data.status) && (
        <CorrectionPanel
          ws={ws}
          claim={claim.data}
          preview={preview}
          onPreview={onPreview}
          onApplied={handleApplied}
          onSelect={onSelect}
        />
      )}
      {!applied && (
        <EraseAction
          ws={ws}
          target={{ claim_id: claim.data.id }}
          label="Erase this claim’s words…"
          what="the words this claim quotes"
          onSelect={onSelect}
          offered={claim.data.status !== 'erased'}
        />
      )}
    </div>
  )
}
