// One open conflict, a dispute over one fact: each value a side with its claims' quotes, their
// sources and dates, side by side, and the reviewer's choices (keep one value, or dismiss).
import { useState, type ReactNode } from 'react'
import { REVIEWER_ORIGIN, isCurrentClaim } from '../claims'
import { NodeLink, StatusBadge, type SelectById } from '../panels/common'
import type { Choice, Conflict, ConflictClaim, ConflictSide } from './types'
import { claimsOf, keeperOf, kindInWords, newerSide, sideAdded, speakersInWords, whenInWords } from './words'

interface SideProps {
  /** One claim of a side. */
  side: ConflictClaim
  now: number
  newer: boolean
  /** What the resolution being previewed does to this side, if any. */
  verdict?: 'kept' | 'superseded' | 'stays'
  onSelect: SelectById
  children?: ReactNode
}

const VERDICT_WORDS = { kept: 'kept', superseded: 'will be superseded', stays: 'stays current' }

export function SideCard({ side, now, newer, verdict, onSelect, children }: SideProps) {
  const quote = side.evidence_quote?.trim() || side.statement
  return (
    <section
      className={verdict ? `conflict-side side-${verdict}` : 'conflict-side'}
      data-testid="conflict-side"
      data-claim-id={side.id}
      data-verdict={verdict ?? ''}
    >
      {verdict && <span className={`verdict verdict-${verdict}`}>{VERDICT_WORDS[verdict]}</span>}
      <blockquote className="conflict-quote" data-testid="conflict-quote">
        “
        <NodeLink id={side.id} kind="claim" onSelect={onSelect}>
          {quote}
        </NodeLink>
        ”
      </blockquote>
      {quote !== side.statement && <p className="conflict-read-as">Read as: {side.statement}</p>}
      <p className="conflict-origin" data-testid="conflict-origin">
        {side.correction_id ? (
          <NodeLink id={side.correction_id} kind="correction" onSelect={onSelect}>
            {REVIEWER_ORIGIN}
          </NodeLink>
        ) : side.source_id ? (
          <NodeLink id={side.source_id} kind="source" onSelect={onSelect}>
            {side.source_title ?? undefined}
          </NodeLink>
        ) : (
          'A source no longer in the workspace'
        )}
        , {sideAdded(side, now)}
        {newer && (
          <span className="newer" title="Said, or added, the last: the newest word">
            newest
          </span>
        )}
        {!isCurrentClaim(side.status) && (
          <>
            {' '}
            <StatusBadge status={side.status} />
          </>
        )}
      </p>
      {children}
    </section>
  )
}

interface ValueProps {
  side: ConflictSide
  conflict: Conflict
  now: number
  newest: string | null
  busy: Choice | null
  onChoose: ((conflict: Conflict, choice: Choice) => void) | null
  onSelect: SelectById
}

/** One value of the fact in dispute: its claims, and keeping it. */
function ValueBlock({ side, conflict, now, newest, busy, onChoose, onSelect }: ValueProps) {
  const keeper = keeperOf(side, isCurrentClaim)
  return (
    <div className="conflict-value" data-testid="conflict-value" data-side={side.side}>
      {conflict.sides.length > 2 || side.claims.length > 1 ? (
        <h4 className="conflict-value-head" data-testid="conflict-value-head">
          {side.value}
        </h4>
      ) : null}
      {side.claims.map((claim) => (
        <SideCard key={claim.id} side={claim} now={now} newer={newest === claim.id} onSelect={onSelect} />
      ))}
      {onChoose && (
        <button
          type="button"
          data-testid="conflict-keep"
          data-claim-id={keeper?.id ?? ''}
          disabled={busy !== null || keeper === null}
          title="Preview keeping this value: the claims of every other value are superseded by it"
          onClick={() => keeper && onChoose(conflict, { keep: keeper.id })}
        >
          {busy && 'keep' in busy && keeper && busy.keep === keeper.id ? 'Previewing…' : 'Keep this one'}
        </button>
      )}
    </div>
  )
}

interface Props {
  conflict: Conflict
  now: number
  focused: boolean
  /** The choice whose preview is loading, if it is one of this conflict's. */
  busy: Choice | null
  /** Null at a moment in the past: the conflict is read, not settled. */
  onChoose: ((conflict: Conflict, choice: Choice) => void) | null
  onSelect: SelectById
}

/** How many values a card shows before it offers the rest. */
export const VALUES_SHOWN = 6

export function ConflictCard({ conflict, now, focused, busy, onChoose, onSelect }: Props) {
  const newest = newerSide(conflict)
  const disabled = busy !== null
  const shown = claimsOf(conflict).length
  const [every, setEvery] = useState(false)
  const sides = every ? conflict.sides : conflict.sides.slice(0, VALUES_SHOWN)
  return (
    <article
      className={focused ? 'conflict-card is-focused' : 'conflict-card'}
      data-testid="conflict"
      data-id={conflict.id}
      data-kind={conflict.kind}
      data-sides={conflict.n_sides}
    >
      <header className="conflict-head">
        <span className="conflict-kind">{kindInWords(conflict.kind, conflict.n_sides)}</span>
        <span className="muted">raised {whenInWords(conflict.created_at, now)}</span>
      </header>
      <p className="conflict-reason" data-testid="conflict-reason">
        {conflict.reason}
        {speakersInWords(conflict) && (
          <span className="muted" data-testid="conflict-speakers" data-same={String(conflict.same_speaker)}>
            {' '}
            {speakersInWords(conflict)}.
          </span>
        )}
      </p>
      <div className="conflict-sides">
        {sides.map((side) => (
          <ValueBlock
            key={side.side}
            side={side}
            conflict={conflict}
            now={now}
            newest={newest}
            busy={busy}
            onChoose={onChoose}
            onSelect={onSelect}
          />
        ))}
      </div>
      {sides.length < conflict.sides.length && (
        <button type="button" className="link" data-testid="conflict-more-values" onClick={() => setEvery(true)}>
          Show all {conflict.sides.length.toLocaleString('en')} values
        </button>
      )}
      {!conflict.complete && (
        <p className="muted" data-testid="conflict-partial">
          {shown} of its {conflict.n_claims} claims shown.
        </p>
      )}
      {onChoose && <div className="row conflict-dismiss-row">
        <button
          type="button"
          className="secondary"
          data-testid="conflict-dismiss"
          disabled={disabled}
          title="Preview dismissing: every value stays, and these claims are not raised against each other again"
          onClick={() => onChoose(conflict, { dismiss: true })}
        >
          {busy && 'dismiss' in busy ? 'Previewing…' : conflict.n_sides > 2 ? 'Dismiss: all can be true' : 'Dismiss: both can be true'}
        </button>
      </div>}
    </article>
  )
}
