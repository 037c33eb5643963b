import type { ClaimView } from '../apiTypes'
import { originLabel } from '../claims'
import { statusStyle } from '../graph/styles'
import { Highlighted } from './Highlighted'
import { useWorkspace } from '../workspace'
import { NodeLink, Section, StatusBadge, type SelectById } from './common'

function Confidence({ claim }: { claim: ClaimView }) {
  // A reviewer's word is a different kind of confidence, not a number on the same scale.
  return (
    <span data-testid="evidence-confidence-kind" data-kind={claim.confidence_kind}>
      {claim.confidence_kind}
      {claim.confidence_kind !== 'human_correction' && <span className="muted"> · {claim.confidence}</span>}
    </span>
  )
}

export function EvidencePanel({ claim, onSelect }: { claim: ClaimView; onSelect: SelectById }) {
  const { names } = useWorkspace()
  const look = statusStyle(claim.status)
  return (
    <div className="evidence-panel" data-testid="evidence-panel" data-claim-id={claim.id} data-status={claim.status}>
      <h2 className={look.struck ? 'is-struck' : undefined} data-testid="claim-statement">
        {claim.statement}
      </h2>
      <div className="row">
        <StatusBadge status={claim.status} />
        <span className="muted">revision {claim.revision}</span>
      </div>
      <dl className="facts">
        <dt>Origin</dt>
        <dd data-testid="evidence-origin" data-origin-type={claim.origin?.type}>
          {originLabel(claim.origin)}
          {claim.origin && claim.origin.type !== 'human_correction' && claim.origin.version != null && (
            <span className="muted"> · version {claim.origin.version}</span>
          )}
        </dd>
        <dt>Confidence</dt>
        <dd>
          <Confidence claim={claim} />
        </dd>
        <dt>Quote</dt>
        <dd data-testid="claim-evidence-quote">{claim.evidence_quote}</dd>
      </dl>

      <Section title="Evidence">
        {claim.evidence.length === 0 && <p className="muted">No fragment backs this claim.</p>}
        {claim.evidence.map((ev) => (
          <blockquote key={ev.fragment_id} className="fragment" data-testid="evidence-fragment">
            {ev.segments?.length ? <Highlighted segments={ev.segments} /> : <span>{ev.text}</span>}
            <footer className="muted">
              {ev.origin_type === 'human_correction' ? ev.origin_name || 'Reviewer correction' : ev.origin_name || ev.origin_type}
              {' · '}characters {ev.quote_start}–{ev.quote_end} (code points)
            </footer>
          </blockquote>
        ))}
      </Section>

      {claim.superseded_by && (
        <p data-testid="superseded-by">
          Superseded by{' '}
          <NodeLink id={claim.superseded_by.id} kind="claim" onSelect={onSelect}>
            {claim.superseded_by.statement}
          </NodeLink>
        </p>
      )}
      {claim.supersedes.length > 0 && (
        <p>
          Replaces{' '}
          {claim.supersedes.map((c) => (
            <NodeLink key={c.id} id={c.id} kind="claim" onSelect={onSelect}>
              {c.statement}
            </NodeLink>
          ))}
        </p>
      )}
      {claim.corrections.length > 0 && (
        <Section title="Corrections">
          <ul>
            {claim.corrections.map((c) => (
              <li key={c.id}>
                {c.kind}: “{c.statement}”{c.reason && <> — {c.reason}</>}
                {c.reviewer && <span className="muted"> by {c.reviewer}</span>}
              </li>
            ))}
          </ul>
        </Section>
      )}
      {claim.used_by.length > 0 && (
        <Section title="Used by">
          <ul>
            {claim.used_by.map((u) => (
              <li key={`${u.decision_id}:${u.premise ?? ''}`}>
                <NodeLink id={u.decision_id} kind="decision" onSelect={onSelect}>
                  {u.title}
                </NodeLink>{' '}
                <StatusBadge status={names.get(u.decision_id)?.status ?? u.status} />
                {u.premise && <span className="muted"> (premise “{u.premise}”)</span>}
              </li>
            ))}
          </ul>
        </Section>
      )}
    </div>
  )
}
