// One open conflict: what disagrees, both quotes side by side with their sources and dates,
// and the reviewer's choices (keep one side, or dismiss).
import type { ReactNode } from 'react'
import { REVIEWER_ORIGIN, isCurrentClaim } from '../claims'
import { NodeLink, StatusBadge, type SelectById } from '../panels/common'
import type { Choice, Conflict, ConflictSide } from './types'
import { kindInWords, newerSide, sideAdded, speakersInWords, whenInWords } from './words'

interface SideProps {
  side: ConflictSide
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
          <span className="newer" title="Said, or added, later than the other side">
            newer
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

export function ConflictCard({ conflict, now, focused, busy, onChoose, onSelect }: Props) {
  const newer = newerSide(conflict)
  const disabled = busy !== null
  return (
    <article
      className={focused ? 'conflict-card is-focused' : 'conflict-card'}
      data-testid="conflict"
      data-id={conflict.id}
      data-kind={conflict.kind}
    >
      <header className="conflict-head">
        <span className="conflict-kind">{kindInWords(conflict.kind)}</span>
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
        {conflict.claims.map((side) => (
          <SideCard key={side.id} side={side} now={now} newer={newer === side.id} onSelect={onSelect}>
            {onChoose && <button
              type="button"
              data-testid="conflict-keep"
              data-claim-id={side.id}
              disabled={disabled || !isCurrentClaim(side.status)}
              title="Preview keeping this side: the other is superseded by it"
              onClick={() => onChoose(conflict, { keep: side.id })}
            >
              {busy && 'keep' in busy && busy.keep === side.id ? 'Previewing…' : 'Keep this one'}
            </button>}
          </SideCard>
        ))}
      </div>
      {onChoose && <div className="row conflict-dismiss-row">
        <button
          type="button"
          className="secondary"
          data-testid="conflict-dismiss"
          disabled={disabled}
          title="Preview dismissing: both claims stay, and this pair is not raised again"
          onClick={() => onChoose(conflict, { dismiss: true })}
        >
          {busy && 'dismiss' in busy ? 'Previewing…' : 'Dismiss: both can be true'}
        </button>
      </div>}
    </article>
  )
}
