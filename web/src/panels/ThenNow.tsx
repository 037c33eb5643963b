// Why then, why now (docs/rules.md, rule 10): each premise of a decision as it stood when
// the decision was made, beside how it stands at the moment shown (now, or the time
// control's moment), with what retired each claim that fell in between.
import { Fragment } from 'react'
import { when } from '../time/when'
import type { DecisionSupport, Fall, SupportClaim } from '../apiTypes'
import { premiseName } from '../reasons'
import { useWorkspace } from '../workspace'
import { NodeLink, Section, StatusBadge, type SelectById } from './common'

function Claims({ claims, onSelect }: { claims: SupportClaim[]; onSelect: SelectById }) {
  if (claims.length === 0) return <p className="muted">not a premise then</p>
  return (
    <ul>
      {claims.map((c) => (
        <li key={c.id}>
          <NodeLink id={c.id} kind="claim" onSelect={onSelect}>
            “{c.statement}”
          </NodeLink>
          {c.source_title ? ` from ${c.source_title} ` : ' '}
          <StatusBadge status={c.status} />
        </li>
      ))}
    </ul>
  )
}

function fellBecause(f: Fall): string {
  const who = f.reviewer ? ` by ${f.reviewer}` : ''
  const why = f.reason ? ` (“${f.reason}”)` : ''
  const at = f.at ? ` on ${when(f.at)}` : ''
  switch (f.by) {
    case 'correction':
      return `corrected${who}${at}${why}`
    case 'conflict':
      return `lost a conflict between sources, resolved${who}${at}${why}`
    case 'version':
      return `no longer in a new version of its source${at}`
    default:
      return `retired${at}`
  }
}

function Fell({ fell, onSelect }: { fell: Fall[]; onSelect: SelectById }) {
  return (
    <ul>
      {fell.map((f) => (
        <li key={f.claim_id} className="fell" data-testid="premise-fell" data-by={f.by ?? ''}>
          <NodeLink id={f.claim_id} kind="claim" onSelect={onSelect}>
            “{f.statement}”
          </NodeLink>{' '}
          {fellBecause(f)}
          {f.replaced_by && (
            <>
              ; replaced by{' '}
              <NodeLink id={f.replaced_by.id} kind="claim" onSelect={onSelect}>
                “{f.replaced_by.statement}”
              </NodeLink>
              <Current replaced={f.replaced_by.id} onSelect={onSelect} />
            </>
          )}
        </li>
      ))}
    </ul>
  )
}

/** Where a chain of replacements ends now, when its first replacement was itself replaced
 *  (a correction to June 19, then a conflict resolved for June 26): "now “…June 26.”". */
function Current({ replaced, onSelect }: { replaced: string; onSelect: SelectById }) {
  const { names } = useWorkspace()
  const current = names.currentReplacementOf(replaced)
  const named = current ? names.get(current) : undefined
  if (!current || !named) return null
  return (
    <span data-testid="premise-current" data-id={current}>
      , itself replaced since: it is now{' '}
      <NodeLink id={current} kind="claim" onSelect={onSelect}>
        “{named.label}”
      </NodeLink>{' '}
      <StatusBadge status={named.status} />
    </span>
  )
}

export function ThenNow({ support, onSelect }: { support: DecisionSupport; onSelect: SelectById }) {
  const { asOf } = useWorkspace()
  return (
    <Section title="Then and now" testId="then-now">
      <div className="then-now">
        <div className="then-now-head">When decided, {when(support.decided_at)}</div>
        <div className="then-now-head">{asOf == null ? 'Now' : `As of ${when(support.at)}`}</div>
        {support.premises.map((p) => (
          <Fragment key={p.premise}>
            <div className="premise-label">{premiseName(p.premise)}</div>
            <div data-testid="premise-then" data-holds={p.held_then}>
              <Claims claims={p.then} onSelect={onSelect} />
            </div>
            <div data-testid="premise-now" data-holds={p.holds_now}>
              {p.now.length === 0 ? (
                <p className="muted">no longer a premise (re-confirmed)</p>
              ) : (
                <Claims claims={p.now} onSelect={onSelect} />
              )}
              {p.fell.length > 0 && <Fell fell={p.fell} onSelect={onSelect} />}
            </div>
          </Fragment>
        ))}
      </div>
      {support.reconfirmed.length > 0 && (
        <p className="muted">A reviewer re-confirmed it on {support.reconfirmed.map(when).join(', ')}.</p>
      )}
    </Section>
  )
}
