import { api } from '../api'
import type { ClaimView, CorrectionApplied } from '../apiTypes'
import { originLabel } from '../claims'
import { useAsync } from '../hooks'
import { ErrorNote, StatusBadge } from './common'

function ClaimCard({ claim, testId, title }: { claim: ClaimView; testId: string; title: string }) {
  return (
    <div className="card" data-testid={testId} data-claim-id={claim.id}>
      <h4>
        {title} <StatusBadge status={claim.status} />
      </h4>
      <dl className="facts">
        <dt>Statement</dt>
        <dd data-testid="card-statement">{claim.statement}</dd>
        <dt>Evidence quote</dt>
        <dd data-testid="card-quote">“{claim.evidence_quote}”</dd>
        <dt>Origin</dt>
        <dd data-testid="card-origin" data-origin-type={claim.origin.type}>
          {originLabel(claim.origin)}
        </dd>
        <dt>Confidence</dt>
        <dd data-testid="card-confidence-kind">{claim.confidence_kind}</dd>
      </dl>
    </div>
  )
}

// The old claim next to its replacement, both read back from the server after apply.
export function BeforeAfter({ ws, applied }: { ws: string; applied: CorrectionApplied }) {
  const cards = useAsync(applied.correction.id, () =>
    Promise.all([
      api.getClaim(ws, applied.old_claim.id),
      applied.replacement ? api.getClaim(ws, applied.replacement.id) : Promise.resolve(null),
    ]),
  )
  return (
    <div className="before-after" data-testid="before-after" data-status={applied.status}>
      <p className="ok">
        {applied.status === 'already_applied' ? 'This correction was already applied.' : 'Correction applied.'}
      </p>
      <ErrorNote error={cards.error} />
      {cards.data && (
        <div className="cards">
          <ClaimCard claim={cards.data[0]} testId="before-card" title="Before" />
          {cards.data[1] ? (
            <ClaimCard claim={cards.data[1]} testId="after-card" title="After" />
          ) : (
            <div className="card" data-testid="after-card">
              <h4>After</h4>
              <p>Retracted: no replacement claim. The reviewer's reason is kept as the correction's evidence.</p>
            </div>
          )}
        </div>
      )}
    </div>
  )
}
