import { useState } from 'react'
import { api } from '../api'
import type { Decision } from '../apiTypes'
import { askedWords } from '../asked'
import { isCurrentClaim } from '../claims'
import type { Names } from '../names'
import { useAction, useNow } from '../hooks'
import { useRead, wsKey } from '../query'
import { claimWithOrigin, explainReviewReason, parseReviewReason, premiseName } from '../reasons'
import { WithErased } from '../erasures/Erased'
import { useWorkspace } from '../workspace'
import { ActionControls } from './ActionControls'
import { ErrorNote, NodeLink, PhraseView, Section, StatusBadge, type SelectById } from './common'
import { ReconfirmForm } from './ReconfirmForm'
import { ReviewConflictButtons } from '../conflicts/ConflictLinks'
import { useOpenConflict } from '../conflicts/nav'
import { kindInWords } from '../conflicts/words'
import { ThenNow } from './ThenNow'

type Op = 'accept' | 'reject'

const OPS: Record<Decision['status'], Op[]> = {
  draft: ['accept', 'reject'],
  accepted: ['reject'],
  needs_review: ['accept', 'reject'],
  rejected: [],
}

interface Props {
  ws: string
  id: string
  onChanged: () => void
  onSelect: SelectById
}

export function DecisionPanel({ ws, id, onChanged, onSelect }: Props) {
  const { names, asOf = null } = useWorkspace()
  const decision = useRead(wsKey(ws, 'decision', id, asOf), () => api.getDecision(ws, id, asOf))
  const [reconfirming, setReconfirming] = useState(false)
  const { busy, error, run } = useAction()
  const now = useNow()

  if (decision.error) return <ErrorNote error={decision.error} />
  const d = decision.data
  if (!d) return <p className="muted">Loading the decision…</p>

  async function review(op: Op) {
    // Sends the revision the UI saw; a 409 stale_revision means reload and look again.
    const result = await run(() => api.reviewDecision(ws, d!.id, { op, revision: d!.revision }), () => onChanged())
    if (result) onChanged()
  }

  return (
    <div className="stack" data-testid="decision-panel" data-status={d.status}>
      <h2>{d.title}</h2>
      <div className="row">
        <StatusBadge status={d.status} />
        <span className="muted" data-testid="decision-when">
          {askedWords(names.askedOf(d.id) ?? { at: d.created_at, nth: 1, of: 1 }, now)}
        </span>
        {asOf === null && <span className="muted">revision {d.revision}</span>}
      </div>
      {d.summary && (
        <p>
          <WithErased text={d.summary} />
        </p>
      )}
      <ReviewReason decision={d} onSelect={onSelect} />
      {d.support && <ThenNow support={d.support} onSelect={onSelect} />}
      {asOf === null && <div className="row">
        {OPS[d.status].map((op) => (
          <button key={op} type="button" data-testid={`decision-${op}`} disabled={busy} onClick={() => void review(op)}>
            {op}
          </button>
        ))}
        {d.status !== 'rejected' && (
          <button type="button" data-testid="decision-reconfirm" className="secondary" onClick={() => setReconfirming((r) => !r)}>
            re-confirm…
          </button>
        )}
      </div>}
      <ErrorNote error={error} testId="decision-error" />
      {reconfirming && (
        <ReconfirmForm
          ws={ws}
          decision={d}
          onDone={() => {
            setReconfirming(false)
            onChanged()
          }}
        />
      )}

      <Section title="Rests on">
        {d.premises.length === 0 && <p className="muted">No claims: no source-backed answer yet.</p>}
        {d.premises.map((p, i) => (
          <div key={i} className="premise">
            <PremiseState
              premise={p.premise}
              statuses={p.claims.map((c) => names.get(c.id)?.status ?? c.status)}
              disputed={p.claims.filter((c) => names.openConflictsOf(c.id).length > 0).length}
            />
            <ul>
              {p.claims.map((c) => (
                <li key={c.id} data-testid="premise-claim" data-id={c.id}>
                  <PhraseView phrase={claimWithOrigin(c.id, withClaim(names, c))} onSelect={onSelect} />{' '}
                  <StatusBadge status={names.get(c.id)?.status ?? c.status} />
                  <PremiseConflicts claimId={c.id} onSelect={onSelect} />
                </li>
              ))}
            </ul>
          </div>
        ))}
      </Section>
      {(d.depends_on.length > 0 || d.dependents.length > 0) && (
        <Section title="Builds on / fed into">
          {d.depends_on.map((u) => (
            <div key={u.id}>
              builds on{' '}
              <NodeLink id={u.id} kind="decision" onSelect={onSelect}>
                {u.title}
              </NodeLink>{' '}
              <StatusBadge status={names.get(u.id)?.status ?? u.status} />
            </div>
          ))}
          {d.dependents.map((u) => (
            <div key={u.id}>
              fed into{' '}
              <NodeLink id={u.id} kind="decision" onSelect={onSelect}>
                {u.title}
              </NodeLink>{' '}
              <StatusBadge status={names.get(u.id)?.status ?? u.status} />
            </div>
          ))}
        </Section>
      )}
      <Section title="Actions">
        {d.actions.length === 0 && <p className="muted">No actions.</p>}
        {d.actions.map((a) =>
          asOf === null ? (
            <ActionControls key={a.id} ws={ws} action={a} onChanged={onChanged} />
          ) : (
            <div key={a.id} data-testid="action-then">
              {a.description} <StatusBadge status={a.status} />
            </div>
          ),
        )}
      </Section>
    </div>
  )
}

/** The decision's own copy of a claim's statement, for a claim the graph does not hold. */
function withClaim(names: Names, c: { id: string; statement: string; status: string }): Names {
  if (names.get(c.id)) return names
  return { ...names, get: (id) => (id === c.id ? { id, kind: 'claim', label: c.statement, status: c.status } : names.get(id)) }
}

// Why a decision needs review (or was rejected), in words; never the stored JSON.
function ReviewReason({ decision, onSelect }: { decision: Decision; onSelect: SelectById }) {
  const { names } = useWorkspace()
  const reason = parseReviewReason(decision.review_reason)
  if (!reason) return null
  const { headline, details } = explainReviewReason(reason, names)
  return (
    <div className={`review-reason status-${decision.status}`} data-testid="decision-review-reason" data-type={reason.type}>
      <p>
        <PhraseView phrase={headline} onSelect={onSelect} />
      </p>
      {details.length > 0 && (
        <ul className="reasons">
          {details.map((phrase, i) => (
            <li key={i} data-testid="reason">
              <PhraseView phrase={phrase} onSelect={onSelect} />
            </li>
          ))}
        </ul>
      )}
      {reason.type === 'sources_disagree' && <ReviewConflictButtons ids={openConflicts(reason.conflict_ids, reason.claim_ids, names)} />}
    </div>
  )
}

/** The conflicts still worth opening: none once a side it cited was superseded (settled). */
function openConflicts(conflictIds: string[], claimIds: string[], names: Names): string[] {
  return claimIds.some((id) => names.get(id)?.status === 'superseded') ? [] : conflictIds
}

/** The open conflicts a premise's claim is in: it holds, but another source says otherwise. */
function PremiseConflicts({ claimId, onSelect }: { claimId: string; onSelect: SelectById }) {
  const { names } = useWorkspace()
  const open = useOpenConflict()
  const conflicts = names.openConflictsOf(claimId)
  if (conflicts.length === 0) return null
  return (
    <ul className="premise-conflicts">
      {conflicts.map((k) => (
        <li key={k.conflictId} className="warn" data-testid="premise-conflict" data-id={k.conflictId}>
          In an open conflict ({kindInWords(k.kind).toLowerCase()}): against{' '}
          <PhraseView phrase={claimWithOrigin(k.otherId, names)} onSelect={onSelect} />.{' '}
          {open && (
            <button type="button" className="link" data-testid="premise-conflict-review" data-id={k.conflictId} onClick={() => open(k.conflictId)}>
              Review the conflict
            </button>
          )}
        </li>
      ))}
    </ul>
  )
}

function PremiseState({ premise, statuses, disputed }: { premise: string | null; statuses: string[]; disputed: number }) {
  const current = statuses.filter(isCurrentClaim).length
  const name = premiseName(premise)
  const but = disputed > 0 ? `, but ${disputed === 1 ? (statuses.length === 1 ? 'it is' : 'one is') : `${disputed} are`} in an open conflict` : ''
  return (
    <div className="premise-state" data-testid="premise-state" data-holds={current > 0} data-disputed={disputed}>
      {current > 0
        ? `${name} holds: ${current} of its ${statuses.length} claim${statuses.length === 1 ? ' is' : 's are'} current${but}.`
        : `${name} lost its last claim: none of its claims is current.`}
    </div>
  )
}
