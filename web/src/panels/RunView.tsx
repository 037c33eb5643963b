import { api } from '../api'
import type { Handoff, RunView as RunViewData } from '../apiTypes'
import { useRead, wsKey } from '../query'
import { droppedPhrase, proposalPhrases, quoted } from '../reasons'
import { useWorkspace } from '../workspace'
import { NodeLink, PhraseView, StatusBadge, type SelectById } from './common'

const ROLE_WORDS: Record<string, string> = {
  analyst: 'Analyst',
  coordinator: 'Coordinator',
  decision: 'Decision',
}

const roleName = (role: string) => ROLE_WORDS[role] ?? role

function ClaimList({ label, ids, onSelect, testId }: { label: string; ids: string[]; onSelect: SelectById; testId: string }) {
  const { names } = useWorkspace()
  if (ids.length === 0) {
    return (
      <div className="id-list" data-testid={testId} data-count={0}>
        <span className="muted">{label}: none</span>
      </div>
    )
  }
  return (
    <details className="id-list" data-testid={testId} data-count={ids.length}>
      <summary>
        {label}: {ids.length} claim{ids.length === 1 ? '' : 's'}
      </summary>
      <ul>
        {ids.map((id) => (
          <li key={id}>
            <PhraseView phrase={quoted(id, 'claim', names)} onSelect={onSelect} />
          </li>
        ))}
      </ul>
    </details>
  )
}

function HandoffStep({ h, onSelect }: { h: Handoff; onSelect: SelectById }) {
  const { names } = useWorkspace()
  const said = proposalPhrases(h.proposal, names)
  return (
    <li className="handoff" data-testid="handoff">
      <div>
        <b>{roleName(h.from_role)}</b> → <b>{roleName(h.to_role)}</b>
      </div>
      {said.map((phrase, i) => (
        <p key={i} className="proposal" data-testid="handoff-said">
          <PhraseView phrase={phrase} onSelect={onSelect} />
        </p>
      ))}
      <ClaimList label="searched" ids={h.searched_claim_ids ?? []} onSelect={onSelect} testId="handoff-searched" />
      <ClaimList label="read" ids={h.retrieved_claim_ids ?? []} onSelect={onSelect} testId="handoff-retrieved" />
      {(h.dropped ?? []).length > 0 && (
        <div data-testid="handoff-dropped" data-count={h.dropped.length}>
          <span className="muted">dropped from the proposal:</span>
          <ul className="dropped">
            {h.dropped.map((d) => (
              <li key={d.claim_id}>
                <PhraseView phrase={droppedPhrase(d, names)} onSelect={onSelect} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </li>
  )
}

/**
 * A run and its handoff trail. It is read again whenever the workspace changes, and the
 * statuses shown are the graph's, so a correction applied elsewhere shows here too.
 */
export function RunView({ initial, onSelect }: { initial: RunViewData; onSelect: SelectById }) {
  const { ws, names } = useWorkspace()
  const fresh = useRead(wsKey(ws, 'run', initial.run.id), () => api.getRun(ws, initial.run.id))
  const { run, handoffs, decision, actions } = fresh.data ?? initial
  return (
    <div className="run-view" data-testid="run-view" data-run-id={run.id}>
      <div>
        <b>{run.task}</b> <StatusBadge status={run.status} /> <span className="muted">{run.model}</span>
      </div>
      {run.error && <p className="error">{run.error}</p>}
      {decision && (
        <div data-testid="run-decision">
          Decision:{' '}
          <NodeLink id={decision.id} kind="decision" onSelect={onSelect}>
            {decision.title}
          </NodeLink>{' '}
          <StatusBadge status={names.get(decision.id)?.status ?? decision.status} />
        </div>
      )}
      {actions.map((a) => (
        <div key={a.id} data-testid="run-action">
          Action:{' '}
          <NodeLink id={a.id} kind="action" onSelect={onSelect}>
            {a.description}
          </NodeLink>{' '}
          <StatusBadge status={names.get(a.id)?.status ?? a.status} />
        </div>
      ))}
      <h4>Handoff trail</h4>
      <ol className="handoff-trail" data-testid="handoff-trail">
        {[...handoffs]
          .sort((a, b) => a.seq - b.seq)
          .map((h) => (
            <HandoffStep key={h.id} h={h} onSelect={onSelect} />
          ))}
      </ol>
    </div>
  )
}
