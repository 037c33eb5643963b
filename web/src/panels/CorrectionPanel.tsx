import { useEffect, useRef, useState, type FormEvent } from 'react'
import { api, ApiError } from '../api'
import type { ClaimView, CorrectionApplied, CorrectionPreview } from '../apiTypes'
import { useAction } from '../hooks'
import { AlsoStatesList } from './AlsoStatesList'
import { ErrorNote, type SelectById } from './common'
import { PreviewList } from './PreviewList'

export type CorrectionKind = 'replace' | 'retract'

/** A preview and exactly what was sent to get it, so apply sends the same. */
export interface PreviewState {
  claimId: string
  statement: string
  kind: CorrectionKind
  /** Claims in other words the reviewer leaves out of the correction. */
  leave: string[]
  data: CorrectionPreview
}

interface Props {
  ws: string
  claim: ClaimView
  preview: PreviewState | null
  onPreview: (preview: PreviewState | null) => void
  onApplied: (result: CorrectionApplied, preview: CorrectionPreview) => void
  onSelect: SelectById
}

export function CorrectionPanel({ ws, claim, preview, onPreview, onApplied, onSelect }: Props) {
  const mine = preview && preview.claimId === claim.id ? preview : null
  // Coming back to a claim whose preview is still on the graph picks the text up again.
  const [statement, setStatement] = useState(() => mine?.statement ?? '')
  const [kind, setKind] = useState<CorrectionKind>(() => mine?.kind ?? 'replace')
  const [reason, setReason] = useState('')
  const [stale, setStale] = useState(false)
  const previewing = useAction()
  const applying = useAction()

  // A new preview's result is what the reviewer looks at next: bring it to the top of the
  // panel (the form above scrolls away; apply stays in reach in its sticky row).
  const results = useRef<HTMLDivElement>(null)
  const shown = mine?.data ?? null
  useEffect(() => {
    if (shown) results.current?.scrollIntoView({ block: 'start', behavior: 'instant' })
  }, [shown])

  // Apply only what was previewed: editing the text afterwards needs a new preview.
  const matches = mine !== null && mine.statement === statement.trim() && mine.kind === kind

  async function doPreview(e: FormEvent) {
    e.preventDefault()
    setStale(false)
    applying.setError(null)
    const text = statement.trim()
    // The same claims stay left out while the text is revised, as long as they are still
    // listed; when one is not any more, the preview starts again from correcting them all.
    let leave = mine ? mine.leave : []
    const data = await previewing.run(async () => {
      try {
        return await api.previewCorrection(ws, claim.id, text, kind, leave)
      } catch (e) {
        if (!leave.length || !(e instanceof ApiError) || e.code !== 'claim_not_listed') throw e
        leave = []
        return await api.previewCorrection(ws, claim.id, text, kind, leave)
      }
    })
    if (data) onPreview({ claimId: claim.id, statement: text, kind, leave, data })
  }

  // Leaving a claim in other words out (or taking it back) changes what apply does: the
  // preview is asked again with the new choice, so what it lists is exactly what apply does.
  async function doLeave(claimId: string, out: boolean) {
    if (!mine) return
    const leave = out ? [...mine.leave, claimId] : mine.leave.filter((id) => id !== claimId)
    const data = await previewing.run(() => api.previewCorrection(ws, claim.id, mine.statement, mine.kind, leave))
    if (data) onPreview({ ...mine, leave, data })
  }

  async function doApply() {
    if (!mine) return
    const result = await applying.run(() =>
      api.applyCorrection(ws, claim.id, {
        statement: mine.statement,
        kind: mine.kind,
        reason: reason.trim() || (mine.kind === 'retract' ? mine.statement : undefined),
        claim_revision: mine.data.revisions.claim_revision,
        impact_token: mine.data.revisions.impact_token,
        ...(mine.leave.length ? { leave: mine.leave } : {}),
      }),
      (error) => {
        // A stale preview is not an error to read but an instruction: look again.
        if (error.code === 'stale_correction_preview') {
          onPreview(null)
          setStale(true)
        }
      },
    )
    if (result) {
      onPreview(null)
      onApplied(result, mine.data)
    }
  }

  return (
    <form className="correction stack" onSubmit={doPreview} data-testid="correction-panel">
      <h3>Correct this claim</h3>
      <p className="muted small">Type what is true instead; the preview shows what rests on this claim before anything changes.</p>
      <div className="row">
        <label className="check">
          <input type="radio" name="kind" checked={kind === 'replace'} onChange={() => setKind('replace')} />
          replace
        </label>
        <label className="check">
          <input type="radio" name="kind" data-testid="correction-kind-retract" checked={kind === 'retract'} onChange={() => setKind('retract')} />
          retract
        </label>
      </div>
      <textarea
        data-testid="correction-input"
        rows={2}
        placeholder={kind === 'replace' ? 'The corrected statement' : 'Why this claim is wrong'}
        value={statement}
        onChange={(e) => setStatement(e.target.value)}
      />
      <input
        data-testid="correction-reason"
        placeholder="Reason (optional)"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <div className="row">
        <button data-testid="correction-preview" disabled={previewing.busy || !statement.trim()}>
          {previewing.busy ? 'Previewing…' : mine ? 'Preview again' : 'Preview impact'}
        </button>
        {!mine && <span className="muted">Nothing changes until you apply.</span>}
      </div>
      {stale && (
        <p className="warn" role="alert" data-testid="correction-stale">
          Someone changed this; preview again.
        </p>
      )}
      <ErrorNote error={previewing.error} testId="correction-error" />
      {applying.error && applying.error.code !== 'stale_correction_preview' && (
        <ErrorNote error={applying.error} testId="correction-error" />
      )}
      {mine && !matches && <p className="muted">The text changed since the preview: preview again to apply.</p>}
      {mine && (
        <div ref={results} className="preview-results">
          <AlsoStatesList
            items={mine.data.also_states_this}
            onLeave={(id, out) => void doLeave(id, out)}
            busy={previewing.busy || applying.busy}
            onSelect={onSelect}
          />
          <PreviewList preview={mine.data} onSelect={onSelect} />
          <div className="apply-row">
            <button
              type="button"
              data-testid="correction-apply"
              className="danger"
              disabled={!matches || applying.busy}
              onClick={() => void doApply()}
            >
              {applying.busy ? 'Applying…' : 'Apply correction'}
            </button>
          </div>
        </div>
      )}
    </form>
  )
}
