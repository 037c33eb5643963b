import { useState, type FormEvent } from 'react'
import { api } from '../api'
import type { Decision } from '../apiTypes'
import { isCurrentClaim } from '../claims'
import { useAction } from '../hooks'
import { MoreFooter } from '../MoreFooter'
import { usePaged } from '../paging'
import { ErrorNote } from './common'

interface Props {
  ws: string
  decision: Decision
  onDone: () => void
}

// Re-confirm puts a decision back in good standing on claims the reviewer picks now; the
// still-current claims it already used are pre-selected.
export function ReconfirmForm({ ws, decision, onDone }: Props) {
  const claims = usePaged(`${ws}:claims`, (cursor) => api.listClaims(ws, '', cursor))
  const [picked, setPicked] = useState<Set<string>>(
    () =>
      new Set(
        decision.premises.flatMap((p) => p.claims.filter((c) => isCurrentClaim(c.status)).map((c) => c.id)),
      ),
  )
  const { busy, error, run } = useAction()

  function toggle(id: string) {
    setPicked((prev) => {
      const next = new Set(prev)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    const result = await run(() =>
      api.reviewDecision(ws, decision.id, { op: 'reconfirm', revision: decision.revision, claim_ids: [...picked] }),
    )
    if (result) onDone()
  }

  return (
    <form className="stack reconfirm" onSubmit={submit} data-testid="reconfirm-form">
      <p className="muted">Pick the current claims this decision rests on now:</p>
      <ErrorNote error={claims.error} />
      <ul className="claim-picker">
        {claims.items.map((c) => (
          <li key={c.id}>
            <label className="check">
              <input type="checkbox" checked={picked.has(c.id)} onChange={() => toggle(c.id)} />
              {c.statement}
            </label>
          </li>
        ))}
      </ul>
      <MoreFooter list={claims} testId="reconfirm-claims-more" noun="claims" />
      <button data-testid="reconfirm-submit" disabled={busy || picked.size === 0}>
        Re-confirm on {picked.size} claim{picked.size === 1 ? '' : 's'}
      </button>
      <ErrorNote error={error} testId="reconfirm-error" />
    </form>
  )
}
