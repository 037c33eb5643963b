// The conflicts tab: every open conflict with both sides, for a reviewer to settle. Choosing
// a side previews it (drawn on the graph, listed here with reasons); apply settles it, and
// the outcome comes first.
import { useEffect, useMemo, useRef, useState } from 'react'
import type { Async } from '../hooks'
import { useAction } from '../hooks'
import { ErrorNote, type SelectById } from '../panels/common'
import { conflictApi } from './api'
import { ConflictCard } from './ConflictCard'
import './conflicts.css'
import { ResolutionOutcome, ResolutionView } from './Resolution'
import { ClosedNote } from './Settled'
import type { Choice, Conflict, ResolutionApplied, ResolutionPreview } from './types'
import type { ConflictFocus } from './useConflictsTab'

export interface ConflictsPanelProps {
  ws: string
  /** A moment in the past (epoch ms): the conflicts open then, to read, not to settle. */
  asOf: number | null
  list: Async<{ items: Conflict[]; readAt: number }>
  preview: ResolutionPreview | null
  onPreview: (preview: ResolutionPreview | null) => void
  onResolved: (result: ResolutionApplied, preview: ResolutionPreview) => void
  onSelect: SelectById
  focus: ConflictFocus | null
}

export function ConflictsPanel({ ws, asOf, list, preview, onPreview, onResolved, onSelect, focus }: ConflictsPanelProps) {
  const [outcome, setOutcome] = useState<{ result: ResolutionApplied; preview: ResolutionPreview } | null>(null)
  const [choosing, setChoosing] = useState<{ conflictId: string; choice: Choice } | null>(null)
  const [stale, setStale] = useState<string | null>(null)
  const previewing = useAction()
  const data = list.data
  const items = useMemo(() => data?.items ?? [], [data])
  const now = data?.readAt ?? 0

  // Sent here for one conflict (its edge on the graph, a decision's reason): show it.
  const [focusedId, setFocusedId] = useState<string | null>(null)
  const listBox = useRef<HTMLDivElement>(null)
  const handled = useRef(0)
  useEffect(() => {
    if (!focus || focus.seq === handled.current) return
    handled.current = focus.seq
    setFocusedId(focus.id)
    setOutcome(null)
    if (preview && preview.conflict.id !== focus.id) onPreview(null)
  }, [focus, preview, onPreview])
  useEffect(() => {
    if (!focusedId || preview) return
    const el = listBox.current?.querySelector(`[data-testid="conflict"][data-id="${CSS.escape(focusedId)}"]`)
    el?.scrollIntoView({ block: 'start', behavior: 'instant' })
  }, [focusedId, preview, items])

  async function choose(conflict: Conflict, choice: Choice) {
    setStale(null)
    setOutcome(null)
    setChoosing({ conflictId: conflict.id, choice })
    const data = await previewing.run(() => conflictApi.preview(ws, conflict.id, choice))
    setChoosing(null)
    if (data) onPreview(data)
  }

  if (preview) {
    return (
      <ResolutionView
        key={`${preview.conflict.id}:${preview.keep ?? 'dismiss'}:${preview.revisions.impact_token}`}
        ws={ws}
        preview={preview}
        now={now}
        onBack={() => onPreview(null)}
        onStale={() => {
          setStale(preview.conflict.id)
          onPreview(null)
        }}
        onApplied={(result, applied) => {
          setOutcome({ result, preview: applied })
          onPreview(null)
          onResolved(result, applied)
        }}
        onSelect={onSelect}
      />
    )
  }

  const focusedMissing = focusedId !== null && list.data !== null && !items.some((c) => c.id === focusedId)
  return (
    <div className="conflicts stack" data-testid="conflicts-list" data-open={items.length}>
      {outcome && <ResolutionOutcome ws={ws} result={outcome.result} preview={outcome.preview} onSelect={onSelect} />}
      {stale && (
        <p className="warn" role="alert" data-testid="conflict-stale">
          Something this resolution touches changed since the preview: look at the conflict again and choose.
        </p>
      )}
      {focusedMissing && !outcome && focusedId && <ClosedNote ws={ws} id={focusedId} />}
      <ErrorNote error={list.error} testId="conflicts-error" />
      <ErrorNote error={previewing.error} testId="conflict-error" />
      {list.data && items.length === 0 && (
        <p className="muted" data-testid="conflicts-empty">
          {outcome
            ? 'No other conflict is open.'
            : asOf !== null
              ? 'No conflict was open at this moment.'
              : 'No open conflicts: no two sources disagree on anything checked so far.'}
        </p>
      )}
      {items.length > 0 && (
        <>
          {outcome && <h3>Still open: {items.length}</h3>}
          <div className="conflict-list" ref={listBox}>
            {items.map((c) => (
              <ConflictCard
                key={c.id}
                conflict={c}
                now={now}
                focused={c.id === focusedId}
                busy={choosing?.conflictId === c.id ? choosing.choice : null}
                onChoose={asOf === null ? (conflict, choice) => void choose(conflict, choice) : null}
                onSelect={onSelect}
              />
            ))}
          </div>
          {asOf !== null ? (
            <p className="muted conflicts-help" data-testid="conflicts-past">
              Open at the moment shown. To settle one, go back to now.
            </p>
          ) : (
          <p className="muted conflicts-help">
            Two sources give different values for the same thing. Keep one side and the other is superseded by it (what
            rested on the other is flagged for review); dismiss when both can be true. Nothing changes until you apply.
          </p>
          )}
        </>
      )}
      {list.loading && !list.data && <p className="muted">Loading the conflicts…</p>}
    </div>
  )
}
