// Erasing (docs/rules.md, rule 22), as a correction is made: the preview first (what goes,
// what is repaired), then apply with the token it gave, then the outcome and the record.
// Loaded on need: nothing of it is fetched until a reader asks to erase something.
import { useCallback, useEffect, useRef, useState } from 'react'
import type { ErasureApplied, ErasurePreview, ErasureTarget } from '../apiTypes'
import { useAction } from '../hooks'
import { ErrorNote, NodeLink, type SelectById } from '../panels/common'
import { PreviewList } from '../panels/PreviewList'
import { useWorkspaceChanged } from '../query'
import { plural } from '../format'
import { useWorkspace } from '../workspace'
import { erasureApi } from './api'
import { ErasureCard } from './ErasureCard'
import { useShowErasure } from './nav'
import { noteRefusal, refusalWords, useRefusal } from './refused'
import { erasureSummary, recordsWords } from './words'
import './erasures.css'

export interface ErasePanelProps {
  ws: string
  target: ErasureTarget
  /** What is erased, for the heading: "this message", "this claim's words". */
  what: string
  onSelect: SelectById
  /** The outcome, kept by the caller: the panel around it is read again after apply. */
  applied: Applied | null
  onApplied: (applied: Applied) => void
  onClose: () => void
}

/** An apply's answer: applied now, or already before, with the record. */
export type Applied = ErasureApplied

/** Codes that say what to do, not what broke: each has its own words below. */
const SAID = new Set(['stale_erasure_preview', 'forbidden', 'nothing_to_erase', 'erasure_closed'])

export function ErasePanel({ ws, target, what, onSelect, applied, onApplied, onClose }: ErasePanelProps) {
  const [preview, setPreview] = useState<ErasurePreview | null>(null)
  const [stale, setStale] = useState(false)
  const [reason, setReason] = useState('')
  const previewing = useAction()
  const applying = useAction()
  const changed = useWorkspaceChanged(ws)
  const refusal = useRefusal('erase')
  const results = useRef<HTMLDivElement>(null)
  // The preview on the graph while it is looked at; gone once applied, or the panel closed.
  const showOnGraph = useShowErasure()
  useEffect(() => {
    showOnGraph?.(applied ? null : preview)
  }, [showOnGraph, preview, applied])
  useEffect(() => {
    return () => showOnGraph?.(null)
  }, [showOnGraph])

  const look = useCallback(async () => {
    setStale(false)
    applying.setError(null)
    const data = await previewing.run(() => erasureApi.preview(ws, target), (e) => void noteRefusal(e))
    setPreview(data ?? null)
  }, [ws, target, previewing, applying])

  // A preview changes nothing: asking to erase shows at once what would go.
  const started = useRef(false)
  useEffect(() => {
    if (started.current || applied) return
    started.current = true
    void look()
  }, [look, applied])

  useEffect(() => {
    if (preview) results.current?.scrollIntoView({ block: 'nearest', behavior: 'instant' })
  }, [preview])

  async function apply() {
    if (!preview) return
    const result = await applying.run(
      () => erasureApi.apply(ws, target, preview.impact_token, reason.trim()),
      (error) => {
        noteRefusal(error)
        // A stale preview is an instruction, not an error to read: look again.
        if (error.code === 'stale_erasure_preview') {
          setPreview(null)
          setStale(true)
        }
      },
    )
    if (!result) return
    onApplied(result)
    changed()
  }

  if (applied) return <Outcome applied={applied} onSelect={onSelect} onClose={onClose} />

  const error = previewing.error ?? applying.error
  return (
    <section className="erase stack" data-testid="erase-panel" data-state={preview ? 'preview' : previewing.busy ? 'reading' : 'none'}>
      <h3>Erase {what}</h3>
      <p className="muted small">
        The words go from everywhere the memory wrote them: texts, quotes, claims, runs, exports made after. What rested on
        them is repaired as for a retraction. A record keeps when, who and why, never the words.
      </p>
      {previewing.busy && <p className="muted">Reading what would go…</p>}
      {(refusal || error?.code === 'forbidden') && (
        <p className="warn" role="alert" data-testid="erase-forbidden">
          {refusal ? refusalWords(refusal) : error?.message}
        </p>
      )}
      {stale && (
        <p className="warn" role="alert" data-testid="erase-stale">
          Something changed since the preview: look at it again before erasing.{' '}
          <button type="button" className="small" data-testid="erase-preview-again" onClick={() => void look()}>
            Preview again
          </button>
        </p>
      )}
      {error?.code === 'nothing_to_erase' && (
        <p className="muted" data-testid="erase-nothing">
          Nothing is left to erase here: its words are gone already.
        </p>
      )}
      {error?.code === 'erasure_closed' && (
        <p className="muted" data-testid="erase-closed">
          This request was decided already.
        </p>
      )}
      {error && !SAID.has(error.code) && <ErrorNote error={error} testId="erase-error" />}
      {preview && (
        <div ref={results} className="preview-results" data-testid="erase-preview">
          <p className="summary erase-summary" data-testid="erase-summary">
            {erasureSummary(preview.counts, 'preview')}
          </p>
          <Goes preview={preview} onSelect={onSelect} />
          <h4>What is repaired</h4>
          <PreviewList preview={preview} onSelect={onSelect} summary={null} />
          {preview.flag.length + preview.hold.length + preview.stay.length === 0 && (
            <p className="muted" data-testid="erase-repairs-nothing">
              No decision rests on what goes.
            </p>
          )}
          {preview.closes.length > 0 && (
            <>
              <h4 className="stay">{plural(preview.closes.length, 'open conflict')} will close</h4>
              <ul data-testid="erase-closes">
                {preview.closes.map((c) => (
                  <li key={c.id}>{c.reason}</li>
                ))}
              </ul>
            </>
          )}
          <div className="apply-row erase-apply-row">
            <input
              data-testid="erase-reason"
              placeholder="Why (kept on the record; optional)"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
            <div className="row">
              <button
                type="button"
                className="danger"
                data-testid="erase-apply"
                disabled={applying.busy || Boolean(refusal)}
                onClick={() => void apply()}
              >
                {applying.busy ? 'Erasing…' : 'Erase'}
              </button>
              <button type="button" className="link" data-testid="erase-cancel" onClick={onClose}>
                Cancel
              </button>
            </div>
          </div>
        </div>
      )}
      {!preview && !previewing.busy && (
        <div className="row">
          <button type="button" className="link" data-testid="erase-cancel" onClick={onClose}>
            Close
          </button>
        </div>
      )}
    </section>
  )
}

/** What the preview says goes: the messages, the passages of each version, the claims. */
function Goes({ preview, onSelect }: { preview: ErasurePreview; onSelect: SelectById }) {
  const { names } = useWorkspace()
  const { goes } = preview
  const title = (id: string) => names.get(id)?.label ?? 'a source'
  const records = recordsWords(preview)
  const passages = goes.versions.filter((v) => v.spans > 0 || v.file)
  return (
    <div className="erase-goes" data-testid="erase-goes">
      <h4 className="flag">What goes</h4>
      <ul>
        {goes.messages.map((m) => (
          <li key={`${m.source_id}:${m.message_index}`} data-testid="erase-goes-message">
            Message {m.message_index + 1}
            {m.speaker && <> by {m.speaker}</>} in{' '}
            <NodeLink id={m.source_id} kind="source" onSelect={onSelect}>
              {title(m.source_id)}
            </NodeLink>
          </li>
        ))}
        {goes.messages.length === 0 &&
          passages.map((v) => (
            <li key={v.version_id} data-testid="erase-goes-version">
              {plural(v.spans, 'passage')} of version {v.version} of{' '}
              <NodeLink id={v.source_id} kind="source" onSelect={onSelect}>
                {title(v.source_id)}
              </NodeLink>
              {v.file && <>, and its original file</>}
            </li>
          ))}
        {goes.claims.map((c) => (
          <li key={c.id} data-testid="erase-goes-claim" data-id={c.id}>
            The claim “
            <NodeLink id={c.id} kind="claim" onSelect={onSelect}>
              {c.statement}
            </NodeLink>
            ”{c.used_by > 0 && <span className="muted"> · {plural(c.used_by, 'decision rests', 'decisions rest')} on it</span>}
          </li>
        ))}
        {goes.corrections.length > 0 && (
          <li>{plural(goes.corrections.length, 'reviewer’s correction')} lose{goes.corrections.length === 1 ? 's' : ''} the words</li>
        )}
      </ul>
      {records && <p className="muted small">{records}</p>}
    </div>
  )
}

function Outcome({ applied, onSelect, onClose }: { applied: Applied; onSelect: SelectById; onClose: () => void }) {
  const result = applied
  const record = result.erasure
  const again = result.status === 'already_applied'
  const box = useRef<HTMLElement>(null)
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'nearest', behavior: 'instant' })
  }, [])
  // The preview's lists are not shown again: they quote the words that are gone now. The
  // record names what was repaired by what stands there now.
  return (
    <section ref={box} className="erase stack" data-testid="erase-outcome" data-status={result.status}>
      <p className="outcome-summary" data-testid="erase-outcome-summary">
        {again ? 'This was erased already. ' : ''}
        {record.counts ? erasureSummary(record.counts, 'past') : 'Erased.'}
      </p>
      <ErasureCard record={record} onSelect={onSelect} />
      <div className="row">
        <button type="button" data-testid="erase-done" onClick={onClose}>
          Done
        </button>
      </div>
    </section>
  )
}
