import type { ClaimView } from '../apiTypes'
import { originLabel } from '../claims'
import { statusStyle } from '../graph/styles'
import { Highlighted } from './Highlighted'
import { ClaimErasureNote } from '../erasures/ClaimErasureNote'
import { WithErased } from '../erasures/Erased'
import { ERASED_MARK } from '../erasures/words'
import { useWorkspace } from '../workspace'
import { isMessage, mediaName, placeText } from '../sources/places'
import { when } from '../time/when'
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
      <ClaimErasureNote claim={claim} />
      <dl className="facts">
        <dt>Origin</dt>
        <dd data-testid="evidence-origin" data-origin-type={claim.origin?.type}>
          {originLabel(claim.origin)}
          {claim.origin && claim.origin.type !== 'human_correction' && claim.origin.version != null && (
            <span className="muted"> · version {claim.origin.version}</span>
          )}
        </dd>
        {claim.said_by && (
          <>
            <dt>Said by</dt>
            <dd data-testid="claim-said-by">
              {claim.said_by}
              {claim.said_at != null && <span className="muted"> · {when(claim.said_at)}</span>}
            </dd>
          </>
        )}
        <dt>Confidence</dt>
        <dd>
          <Confidence claim={claim} />
        </dd>
        <dt>Quote</dt>
        <dd data-testid="claim-evidence-quote">
          <WithErased text={claim.evidence_quote} />
        </dd>
      </dl>

      <Section title="Evidence">
        {claim.evidence.length === 0 && <p className="muted">No fragment backs this claim.</p>}
        {claim.evidence.map((ev) =>
          isMessage(ev) ? (
            // The message the quote comes from, whole, as the transcript shows it.
            <blockquote key={ev.fragment_id} className="fragment message" data-testid="evidence-fragment" data-message={ev.message_index ?? undefined}>
              <div className="message-head" data-testid="evidence-message">
                <span className="speaker">{ev.speaker}</span>
                <time className="muted" dateTime={new Date(ev.said_at ?? 0).toISOString()}>
                  {when(ev.said_at ?? 0)}
                </time>
              </div>
              <div className="message-text">
                {ev.segments?.length ? <Highlighted segments={ev.segments} /> : <span>{ev.text}</span>}
              </div>
              <footer className="muted">
                {ev.source_title ?? ev.origin_name} · message {(ev.message_index ?? 0) + 1}
              </footer>
            </blockquote>
          ) : (
            <blockquote key={ev.fragment_id} className="fragment" data-testid="evidence-fragment">
              {ev.segments?.length ? <Highlighted segments={ev.segments} /> : <span>{ev.text}</span>}
              <footer className="muted">
                {ev.origin_type === 'human_correction' ? ev.origin_name || 'Reviewer correction' : ev.origin_name || ev.origin_type}
                {ev.media_type && <span data-testid="evidence-file"> · {mediaName(ev.media_type)}</span>}
                {placeText(ev) && <span data-testid="evidence-place"> · {placeText(ev)}</span>}
                {' · '}characters {ev.quote_start}–{ev.quote_end} (code points)
              </footer>
            </blockquote>
          ),
        )}
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
                {u.premise && (
                  <span className="muted">
                    {u.premise.trim() === ERASED_MARK ? ' (a premise whose words were erased)' : ` (premise “${u.premise}”)`}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </Section>
      )}
    </div>
  )
}
