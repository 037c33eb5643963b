import { useEffect, useRef } from 'react'
import { api } from '../api'
import type { ClaimView, CorrectionApplied, CorrectionPreview } from '../apiTypes'
import { originLabel } from '../claims'
import { useAsync } from '../hooks'
import { ErrorNote, StatusBadge, type SelectById } from './common'
import { impactSummary } from '../reasons'
import { PreviewList } from './PreviewList'
import { SettledList } from '../conflicts/Settled'

const CONFIDENCE_WORDS: Record<string, string> = {
  quote_match: 'exact quote from the document',
  human_correction: 'a reviewer’s word',
}

function ClaimCard({ claim, testId, title }: { claim: ClaimView; testId: string; title: string }) {
  return (
    <div className="card" data-testid={testId} data-claim-id={claim.id}>
      <h4>
        {title} <StatusBadge status={claim.status} />
      </h4>
      <p className="card-statement" data-testid="card-statement">
        {claim.statement}
      </p>
      <p className="card-quote muted" data-testid="card-quote">
        “{claim.evidence_quote}”
      </p>
      <p className="card-meta">
        <span data-testid="card-origin" data-origin-type={claim.origin?.type}>
          {originLabel(claim.origin)}
        </span>
        {' · '}
        <span data-testid="card-confidence-kind" data-kind={claim.confidence_kind} title={CONFIDENCE_WORDS[claim.confidence_kind]}>
          {claim.confidence_kind}
        </span>
      </p>
    </div>
  )
}

interface Props {
  ws: string
  applied: CorrectionApplied
  /** The preview that was applied: apply checks it still holds, so it says what changed. */
  preview: CorrectionPreview | null
  onSelect: SelectById
}

// The outcome of an apply, first in the panel and scrolled into view: what changed in one
// line, the old claim next to its replacement (both read back from the server), then the
// decisions and actions it touched with their reasons.
export function BeforeAfter({ ws, applied, preview, onSelect }: Props) {
  const cards = useAsync(applied.correction.id, () =>
    Promise.all([
      api.getClaim(ws, applied.old_claim.id),
      applied.replacement ? api.getClaim(ws, applied.replacement.id) : Promise.resolve(null),
    ]),
  )
  const box = useRef<HTMLDivElement>(null)
  const loaded = cards.data !== null
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'start', behavior: 'instant' })
  }, [loaded])
  return (
    <div className="before-after outcome" data-testid="before-after" data-status={applied.status} ref={box}>
      <h3 className="ok">
        {applied.status === 'already_applied' ? 'This correction was already applied' : 'Correction applied'}
      </h3>
      {preview && (
        <p className="outcome-summary" data-testid="outcome-summary">
          {impactSummary(preview, 'past')}
        </p>
      )}
      <ErrorNote error={cards.error} />
      {cards.data && (
        <div className="cards">
          <ClaimCard claim={cards.data[0]} testId="before-card" title="Before" />
          {cards.data[1] ? (
            <ClaimCard claim={cards.data[1]} testId="after-card" title="After" />
          ) : (
            <div className="card" data-testid="after-card">
              <h4>After</h4>
              <p>Retracted: no replacement claim. The reviewer’s reason is kept as the correction’s evidence.</p>
            </div>
          )}
        </div>
      )}
      {applied.also_corrected.length > 0 && (
        <p data-testid="outcome-also-corrected">
          {applied.also_corrected.length === 1
            ? 'One other claim stating the same was corrected with it.'
            : `${applied.also_corrected.length} other claims stating the same were corrected with it.`}
        </p>
      )}
      {applied.conflicts.length > 0 && (
        <p className="warn" data-testid="outcome-conflicts">
          Now in an open conflict with the correction:{' '}
          {applied.conflicts.map((k) => k.other.map((o) => `“${o.statement}”`).join(', ')).join('; ')} — see the
          Conflicts tab.
        </p>
      )}
      <SettledList ws={ws} ids={applied.settled} />
      {preview && preview.flag.length + preview.hold.length + preview.stay.length > 0 && (
        <details className="outcome-details" data-testid="outcome-details">
          <summary>What changed, and why</summary>
          <PreviewList preview={preview} onSelect={onSelect} tense="past" />
        </details>
      )}
    </div>
  )
}
