// The memory as a list, for a phone: each decision with the question it answers and when,
// then (opened) each premise with its claims, their quotes and where they come from, and the
// actions it enables. The graph's boxes are too small to read there; this is the same memory
// in words, at the moment the graph shows.
import { useMemo, useState } from 'react'
import { api } from '../api'
import type { GraphDTO } from '../apiTypes'
import { askedWords } from '../asked'
import { originLabel } from '../claims'
import { useNow } from '../hooks'
import { useRead, wsKey } from '../query'
import { ErrorNote, NodeLink, StatusBadge, type SelectById } from '../panels/common'
import { useWorkspace } from '../workspace'
import { decisionRows } from './memoryRows'
import { WithErased } from '../erasures/Erased'
import { ERASED_MARK } from '../erasures/mark'

interface Props {
  graph: GraphDTO
  onSelect: SelectById
}

/** How many decisions the list shows before "Show more" (a phone scrolls, but not forever). */
const PAGE = 30

export function MemoryList({ graph, onSelect }: Props) {
  const { names } = useWorkspace()
  const now = useNow()
  const rows = useMemo(() => decisionRows(graph), [graph])
  const sources = useMemo(() => graph.nodes.filter((n) => n.type === 'source'), [graph])
  // The newest decision opens on its premises: the first screen shows claims and quotes.
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(rows.slice(0, 1).map((r) => r.id)))
  const [shown, setShown] = useState(PAGE)
  const toggle = (id: string) =>
    setOpen((o) => {
      const next = new Set(o)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })

  return (
    <div className="memory-list" data-testid="memory-list" data-decisions={rows.length}>
      {rows.length === 0 ? (
        <p className="muted">No decision yet: add a source, then ask the agent (the tabs below).</p>
      ) : (
        <p className="muted ml-intro">
          {rows.length === 1 ? 'One decision' : `${rows.length} decisions`}, newest first. Open one for what it rests on.
        </p>
      )}
      {rows.slice(0, shown).map((r) => {
        const isOpen = open.has(r.id)
        const asked = names.askedOf(r.id) ?? { at: r.at, nth: 1, of: 1 }
        return (
          <article key={r.id} className="ml-decision" data-testid="ml-decision" data-id={r.id} data-open={isOpen}>
            <button type="button" className="ml-head" aria-expanded={isOpen} onClick={() => toggle(r.id)}>
              <span className="ml-kind">
                Decision <StatusBadge status={r.status} />
              </span>
              <span className="ml-title" data-testid="ml-title">
                {r.title}
              </span>
              <span className="muted ml-when">
                {askedWords(asked, now)} · {r.claims === 1 ? '1 claim' : `${r.claims} claims`}
              </span>
            </button>
            {isOpen && <Premises id={r.id} onSelect={onSelect} />}
            {isOpen && r.actions.length > 0 && (
              <ul className="ml-actions">
                {r.actions.map((a) => (
                  <li key={a.id}>
                    Action:{' '}
                    <NodeLink id={a.id} kind="action" onSelect={onSelect}>
                      {a.label}
                    </NodeLink>{' '}
                    <StatusBadge status={a.status} />
                  </li>
                ))}
              </ul>
            )}
            {isOpen && (
              <button type="button" className="link ml-more" onClick={() => onSelect(r.id, 'decision')}>
                Review this decision
              </button>
            )}
          </article>
        )
      })}
      {rows.length > shown && (
        <button type="button" className="secondary" onClick={() => setShown((s) => s + PAGE)}>
          Show {Math.min(PAGE, rows.length - shown)} more of {rows.length - shown}
        </button>
      )}
      {sources.length > 0 && (
        <section className="ml-sources">
          <h3>Sources</h3>
          <ul>
            {sources.map((s) => (
              <li key={s.id}>
                <NodeLink id={s.id} kind="source" onSelect={onSelect}>
                  {s.label}
                </NodeLink>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  )
}

/** A decision's premises with their claims, read at the moment shown. */
function Premises({ id, onSelect }: { id: string; onSelect: SelectById }) {
  const { ws, asOf = null } = useWorkspace()
  const decision = useRead(wsKey(ws, 'decision', id, asOf), () => api.getDecision(ws, id, asOf))
  if (decision.error) return <ErrorNote error={decision.error} />
  const d = decision.data
  if (!d) return <p className="muted">Loading what it rests on…</p>
  if (d.premises.length === 0) return <p className="muted">It rests on no claim.</p>
  return (
    <ol className="ml-premises">
      {d.premises.map((p, i) => (
        <li key={`${p.premise}:${i}`} className="ml-premise" data-testid="ml-premise">
          {/* A premise named after its one fact says nothing its claim does not. */}
          {!p.claims.some((c) => c.statement === p.premise) && <span className="ml-premise-label">{p.premise.trim() === ERASED_MARK ? 'A premise whose words were erased' : `Premise: ${p.premise}`}</span>}
          {p.claims.map((c) => (
            <ClaimQuote key={c.id} id={c.id} statement={c.statement} status={c.status} onSelect={onSelect} />
          ))}
        </li>
      ))}
    </ol>
  )
}

/** One claim: its words, its status, the quote it was read from and where. */
function ClaimQuote({ id, statement, status, onSelect }: { id: string; statement: string; status: string; onSelect: SelectById }) {
  const { ws, asOf = null } = useWorkspace()
  const claim = useRead(wsKey(ws, 'claim', id, asOf), () => api.getClaim(ws, id, asOf))
  const c = claim.data
  return (
    <div className="ml-claim" data-testid="ml-claim" data-id={id} data-status={c?.status ?? status}>
      <NodeLink id={id} kind="claim" onSelect={onSelect}>
        {statement}
      </NodeLink>{' '}
      <StatusBadge status={c?.status ?? status} />
      {c && (
        <blockquote className="ml-quote" data-testid="ml-quote">
          “<WithErased text={c.evidence_quote} />”<footer className="muted">{originLabel(c.origin)}</footer>
        </blockquote>
      )}
      {claim.error && <ErrorNote error={claim.error} />}
    </div>
  )
}
