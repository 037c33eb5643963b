// A resolution, previewed then applied, the way a correction is: what it does to the claims
// and to what rests on them (drawn on the graph too), apply in a row that stays in reach, and
// afterwards the outcome first, with the claim that went beside the claim kept.
import { useEffect, useRef, useState } from 'react'
import { api } from '../api'
import { useAction, useAsync } from '../hooks'
import { ClaimCard } from '../panels/BeforeAfter'
import { ErrorNote, PhraseView, type SelectById } from '../panels/common'
import { PreviewList } from '../panels/PreviewList'
import { impactSummary, phraseText } from '../reasons'
import { useWorkspace } from '../workspace'
import { conflictApi } from './api'
import { SideCard } from './ConflictCard'
import type { ResolutionApplied, ResolutionPreview } from './types'
import { keptSide, newerSide, resolutionImpact, resolutionPhrase, resolutionSummary } from './words'

/** The impact line under the claims: what rests on them, or that nothing does. */
function impactLine(preview: ResolutionPreview, tense: 'preview' | 'past'): string {
  const { flag, hold, stay } = preview
  if (flag.length + hold.length + stay.length > 0) return impactSummary(preview, tense)
  if (preview.resolution === 'dismiss') return 'No claim changes, so no decision or action does.'
  return tense === 'preview' ? 'No decision or action rested on it alone: nothing else changes.' : 'No decision or action rested on it alone.'
}

function verdictOf(preview: ResolutionPreview, claimId: string): 'kept' | 'superseded' | 'stays' {
  if (preview.resolution === 'dismiss') return 'stays'
  return claimId === preview.keep ? 'kept' : 'superseded'
}

interface ViewProps {
  ws: string
  preview: ResolutionPreview
  /** When the conflicts were read, for the dates in words. */
  now: number
  onBack: () => void
  /** The preview went stale (409): the reader previews again. */
  onStale: () => void
  onApplied: (result: ResolutionApplied, preview: ResolutionPreview) => void
  onSelect: SelectById
}

export function ResolutionView({ ws, preview, now, onBack, onStale, onApplied, onSelect }: ViewProps) {
  const { names } = useWorkspace()
  const [reason, setReason] = useState('')
  const applying = useAction()
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'start', behavior: 'instant' })
  }, [preview])
  const keep = preview.resolution === 'keep'
  const kept = keptSide(preview)
  const newer = newerSide(preview.conflict)

  async function apply() {
    const result = await applying.run(
      () => conflictApi.resolve(ws, preview, reason.trim() || undefined),
      (error) => {
        if (error.code === 'stale_correction_preview') onStale()
      },
    )
    if (result) onApplied(result, preview)
  }

  return (
    <div className="resolution stack" ref={box} data-testid="resolution-preview" data-resolution={preview.resolution}>
      <button type="button" className="link back" data-testid="conflict-back" onClick={onBack}>
        ← All open conflicts
      </button>
      <h3>{keep && kept ? 'Keep one side' : 'Dismiss this conflict'}</h3>
      <p className="resolution-summary" data-testid="resolution-summary">
        <PhraseView phrase={resolutionPhrase(preview, names, 'preview')} onSelect={onSelect} />
      </p>
      <div className="conflict-sides">
        {preview.conflict.claims.map((side) => (
          <SideCard
            key={side.id}
            side={side}
            now={now}
            newer={newer === side.id}
            verdict={verdictOf(preview, side.id)}
            onSelect={onSelect}
          />
        ))}
      </div>
      <PreviewList preview={resolutionImpact(preview)} summary={impactLine(preview, 'preview')} onSelect={onSelect} />
      <input
        data-testid="conflict-reason-input"
        placeholder="Reason (optional), e.g. the April memo is the latest word"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      {applying.error && applying.error.code !== 'stale_correction_preview' && (
        <ErrorNote error={applying.error} testId="conflict-error" />
      )}
      <div className="apply-row row">
        <button
          type="button"
          className="danger"
          data-testid="conflict-apply"
          disabled={applying.busy}
          onClick={() => void apply()}
          title={phraseText(resolutionPhrase(preview, names, 'preview'))}
        >
          {applying.busy ? 'Applying…' : keep ? 'Apply: keep this side' : 'Apply: dismiss'}
        </button>
        <button type="button" className="secondary" data-testid="conflict-cancel" onClick={onBack}>
          Cancel
        </button>
      </div>
    </div>
  )
}

interface OutcomeProps {
  ws: string
  result: ResolutionApplied
  /** The preview that was applied: apply checked it still held, so it says what changed. */
  preview: ResolutionPreview
  onSelect: SelectById
}

// First in the panel and scrolled into view: what changed in one line, the claim that went
// beside the claim kept (both read back from the server), then what rested on them.
export function ResolutionOutcome({ ws, result, preview, onSelect }: OutcomeProps) {
  const { names } = useWorkspace()
  const keep = preview.resolution === 'keep'
  const ids = keep
    ? [preview.supersede[0]?.claim_id ?? null, preview.keep]
    : preview.conflict.claims.map((c) => c.id)
  const cards = useAsync(`${result.conflict.id}:${result.status}`, () =>
    Promise.all(ids.map((id) => (id ? api.getClaim(ws, id) : Promise.resolve(null)))),
  )
  const box = useRef<HTMLDivElement>(null)
  const loaded = cards.data !== null
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'start', behavior: 'instant' })
  }, [loaded])
  const titles = keep ? ['Before', 'Kept'] : ['Stays', 'Stays']
  const testIds = keep ? ['before-card', 'after-card'] : ['stays-card', 'stays-card']
  const impact = resolutionImpact(preview)
  return (
    <div className="outcome conflict-outcome" ref={box} data-testid="conflict-outcome" data-status={result.status}>
      <h3 className="ok">
        {result.status === 'already_applied'
          ? 'This conflict was already settled'
          : keep
            ? 'Conflict settled'
            : 'Conflict dismissed'}
      </h3>
      <p className="outcome-summary" data-testid="outcome-summary">
        {resolutionSummary(preview, names, 'past')}
      </p>
      <ErrorNote error={cards.error} />
      {cards.data && (
        <div className="cards">
          {cards.data.map((claim, i) =>
            claim ? <ClaimCard key={claim.id} claim={claim} testId={testIds[i]} title={titles[i]} /> : null,
          )}
        </div>
      )}
      {impact.flag.length + impact.hold.length + impact.stay.length > 0 && (
        <details className="outcome-details" data-testid="outcome-details">
          <summary>What changed, and why</summary>
          <PreviewList preview={impact} summary={null} onSelect={onSelect} tense="past" />
        </details>
      )}
    </div>
  )
}
