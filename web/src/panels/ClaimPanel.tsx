import { useState } from 'react'
import { api } from '../api'
import type { CorrectionApplied } from '../apiTypes'
import { isCurrentClaim } from '../claims'
import { useAsync } from '../hooks'
import { BeforeAfter } from './BeforeAfter'
import { ErrorNote, type SelectById } from './common'
import { CorrectionPanel, type PreviewState } from './CorrectionPanel'
import { EvidencePanel } from './EvidencePanel'

interface Props {
  ws: string
  id: string
  refreshKey: number
  preview: PreviewState | null
  onPreview: (preview: PreviewState | null) => void
  onChanged: () => void
  onSelect: SelectById
}

export function ClaimPanel({ ws, id, refreshKey, preview, onPreview, onChanged, onSelect }: Props) {
  const claim = useAsync(id, () => api.getClaim(ws, id), refreshKey)
  const [applied, setApplied] = useState<CorrectionApplied | null>(null)

  function handleApplied(result: CorrectionApplied) {
    setApplied(result)
    onChanged()
  }

  if (claim.error) return <ErrorNote error={claim.error} />
  if (!claim.data) return <p className="muted">Loading the claim…</p>
  return (
    <div className="stack">
      <EvidencePanel claim={claim.data} onSelect={onSelect} />
      {applied && <BeforeAfter ws={ws} applied={applied} />}
      {!applied && isCurrentClaim(claim.data.status) && (
        <CorrectionPanel
          ws={ws}
          claim={claim.data}
          preview={preview}
          onPreview={onPreview}
          onApplied={handleApplied}
          onSelect={onSelect}
        />
      )}
    </div>
  )
}
