import type { Handoff, RunView as RunViewData } from '../apiTypes'
import { NodeLink, StatusBadge, type SelectById } from './common'

function IdList({ label, ids, onSelect, testId }: { label: string; ids: string[]; onSelect: SelectById; testId: string }) {
  return (
    <div className="id-list" data-testid={testId} data-count={ids.length}>
      <span className="muted">{label}</span>{' '}
      {ids.length === 0 ? (
        <span className="muted">none</span>
      ) : (
        ids.map((id) => <NodeLink key={id} id={id} kind="claim" onSelect={onSelect} />)
      )}
    </div>
  )
}

function proposalText(proposal: unknown): string {
  if (proposal == null) return ''
  if (typeof proposal === 'string') return proposal
  const answer = (proposal as { answer?: unknown }).answer
  return typeof answer === 'string' ? answer : JSON.stringify(proposal)
}

function HandoffStep({ h, onSelect }: { h: Handoff; onSelect: SelectById }) {
  return (
    <li className="handoff" data-testid="handoff">
      <div>
        <b>{h.from_role}</b> → <b>{h.to_role}</b>
      </div>
      {proposalText(h.proposal) && <p className="proposal">{proposalText(h.proposal)}</p>}
      <IdList label="searched" ids={h.searched_claim_ids ?? []} onSelect={onSelect} testId="handoff-searched" />
      <IdList label="retrieved" ids={h.retrieved_claim_ids ?? []} onSelect={onSelect} testId="handoff-retrieved" />
      <IdList label="dropped" ids={h.dropped_claim_ids ?? []} onSelect={onSelect} testId="handoff-dropped" />
      {(h.dropped ?? []).length > 0 && (
        <ul className="dropped">
          {h.dropped.map((d) => (
            <li key={d.claim_id}>
              <code>{d.claim_id.slice(0, 8)}</code> {d.reason.replaceAll('_', ' ')}
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

export function RunView({ view, onSelect }: { view: RunViewData; onSelect: SelectById }) {
  const { run, handoffs, decision, actions } = view
  return (
    <div className="run-view" data-testid="run-view" data-run-id={run.id}>
      <div>
        <b>{run.task}</b> <StatusBadge status={run.status} /> <span className="muted">{run.model}</span>
      </div>
      {run.error && <p className="error">{run.error}</p>}
      <ol className="handoff-trail" data-testid="handoff-trail">
        {[...handoffs]
          .sort((a, b) => a.seq - b.seq)
          .map((h) => (
            <HandoffStep key={h.id} h={h} onSelect={onSelect} />
          ))}
      </ol>
      {decision && (
        <div data-testid="run-decision">
          Decision:{' '}
          <NodeLink id={decision.id} kind="decision" onSelect={onSelect}>
            {decision.title}
          </NodeLink>{' '}
          <StatusBadge status={decision.status} />
        </div>
      )}
      {actions.map((a) => (
        <div key={a.id} data-testid="run-action">
          Action:{' '}
          <NodeLink id={a.id} kind="action" onSelect={onSelect}>
            {a.description}
          </NodeLink>{' '}
          <StatusBadge status={a.status} />
        </div>
      ))}
    </div>
  )
}
