import { useState } from 'react'
import { api } from '../api'
import type { Decision } from '../apiTypes'
import { useAction, useAsync } from '../hooks'
import { ActionControls } from './ActionControls'
import { ErrorNote, NodeLink, Section, StatusBadge, type SelectById } from './common'
import { ReconfirmForm } from './ReconfirmForm'

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
  refreshKey: number
  onChanged: () => void
  onSelect: SelectById
}

export function DecisionPanel({ ws, id, refreshKey, onChanged, onSelect }: Props) {
  const decision = useAsync(id, () => api.getDecision(ws, id), refreshKey)
  const [reconfirming, setReconfirming] = useState(false)
  const { busy, error, run } = useAction()

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
        <span className="muted">revision {d.revision}</span>
      </div>
      {d.summary && <p>{d.summary}</p>}
      {d.review_reason && (
        <pre className="review-reason" data-testid="decision-review-reason">
          {JSON.stringify(d.review_reason, null, 2)}
        </pre>
      )}
      <div className="row">
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
      </div>
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
            {p.premise && <div className="muted">{p.premise}</div>}
            <ul>
              {p.claims.map((c) => (
                <li key={c.id}>
                  <NodeLink id={c.id} kind="claim" onSelect={onSelect}>
                    {c.statement}
                  </NodeLink>{' '}
                  <StatusBadge status={c.status} />
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
              <StatusBadge status={u.status} />
            </div>
          ))}
          {d.dependents.map((u) => (
            <div key={u.id}>
              fed into{' '}
              <NodeLink id={u.id} kind="decision" onSelect={onSelect}>
                {u.title}
              </NodeLink>{' '}
              <StatusBadge status={u.status} />
            </div>
          ))}
        </Section>
      )}
      <Section title="Actions">
        {d.actions.length === 0 && <p className="muted">No actions.</p>}
        {d.actions.map((a) => (
          <ActionControls key={a.id} ws={ws} action={a} onChanged={onChanged} />
        ))}
      </Section>
    </div>
  )
}
