// A resolution, previewed then applied, the way a correction is: what it does to the claims
// and to what rests on them (drawn on the graph too), apply in a row that stays in reach, and
// afterwards the outcome first, with the claim that went beside the claim kept.
import { useEffect, useRef, useState } from 'react'
import { api } from '../api'
import { useAction, useAsync } from '../hooks'
import type { ClaimView } from '../apiTypes'
import { originLabel } from '../claims'
import { ErrorNote, PhraseView, StatusBadge, type SelectById } from '../panels/common'
import { SettledList } from './Settled'
import { PreviewList } from '../panels/PreviewList'
import { phraseText } from '../reasons'
import { useWorkspace } from '../workspace'
import { conflictApi } from './api'
import { SideCard } from './ConflictCard'
import type { ResolutionApplied, ResolutionPreview } from './types'
import { claimsOf, impactLine, keptSide, newerSide, resolutionImpact, resolutionPhrase } from './words'

function verdictOf(preview: ResolutionPreview, claimId: string): 'kept' | 'superseded' | 'stays' {
  if (preview.resolution === 'dismiss') return 'stays'
  if (claimId === preview.keep) return 'kept'
  return preview.supersede.some((s) => s.claim_id === claimId) ? 'superseded' : 'stays'
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
      <h3>{keep && kept ? 'Keep one value' : 'Dismiss this conflict'}</h3>
      <p className="resolution-summary" data-testid="resolution-summary">
        <PhraseView phrase={resolutionPhrase(preview, names, 'preview')} onSelect={onSelect} />
      </p>
      <div className="conflict-sides">
        {claimsOf(preview.conflict).map((side) => (
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
          {applying.busy ? 'Applying…' : keep ? 'Apply: keep this value' : 'Apply: dismiss'}
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

/** A claim as it is now, read back from the server: short enough for a phone's panel. */
function OutcomeCard({ claim, testId, title }: { claim: ClaimView; testId: string; title: string }) {
  const quote = claim.evidence_quote?.trim()
  return (
    <div className="card" data-testid={testId} data-claim-id={claim.id}>
      <h4>
        {title} <StatusBadge status={claim.status} />
      </h4>
      <p className="card-statement" data-testid="card-statement">
        {claim.statement}
      </p>
      {quote && quote !== claim.statement && (
        <p className="card-quote muted" data-testid="card-quote">
          “{quote}”
        </p>
      )}
      <p className="card-meta" data-testid="card-origin" data-origin-type={claim.origin?.type}>
        {originLabel(claim.origin)}
      </p>
    </div>
  )
}

// First in the panel and scrolled into view, as after a correction: what changed in one line,
// the claim that went beside the claim kept (both read back from the server), then the
// resolution and what rested on it, with reasons.
export function ResolutionOutcome({ ws, result, preview, onSelect }: OutcomeProps) {
  const { names } = useWorkspace()
  const keep = preview.resolution === 'keep'
  const ids = keep ? [preview.supersede[0]?.claim_id ?? null, preview.keep] : claimsOf(preview.conflict).map((c) => c.id)
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
        {result.status === 'already_applied' ? 'Already settled' : keep ? 'Conflict settled' : 'Conflict dismissed'}
      </h3>
      <p className="outcome-summary" data-testid="outcome-summary">
        {keep ? impactLine(preview, 'past') : phraseText(resolutionPhrase(preview, names, 'past'))}
      </p>
      <ErrorNote error={cards.error} />
      {cards.data && (
        <div className="cards">
          {cards.data.map((claim, i) =>
            claim ? <OutcomeCard key={claim.id} claim={claim} testId={testIds[i]} title={titles[i]} /> : null,
          )}
        </div>
      )}
      <SettledList ws={ws} ids={result.settled} />
      {keep && (
        <details className="outcome-details" data-testid="outcome-details">
          <summary>What changed, and why</summary>
          <p data-testid="outcome-claims">
            <PhraseView phrase={resolutionPhrase(preview, names, 'past')} onSelect={onSelect} />
          </p>
          <PreviewList preview={impact} summary={null} onSelect={onSelect} tense="past" />
        </details>
      )}
    </div>
  )
}
