import { api } from '../api'
import { useAsync } from '../hooks'
import { quoted } from '../reasons'
import { useWorkspace } from '../workspace'
import { ErrorNote, PhraseView, type SelectById } from './common'

// A reviewer's correction, in words: what it corrected, to what, and why.
export function CorrectionInfo({ ws, id, onSelect }: { ws: string; id: string; onSelect: SelectById }) {
  const correction = useAsync(id, () => api.getCorrection(ws, id))
  const { names } = useWorkspace()
  if (correction.error) return <ErrorNote error={correction.error} />
  if (!correction.data) return <p className="muted">Loading the correction…</p>
  const c = correction.data
  const text = (k: string) => (typeof c[k] === 'string' && c[k] ? (c[k] as string) : null)
  const corrected = text('claim_id') ?? names.correctedBy(id) ?? null
  const replacement = text('replacement_id') ?? names.replacementOf(id) ?? null
  const retract = text('kind') === 'retract'
  // A conflict's resolution: the side kept supersedes the other (no reviewer's new statement).
  const supersede = text('kind') === 'supersede'
  return (
    <div className="stack" data-testid="correction-info">
      <h2>{retract ? 'Retraction' : supersede ? 'Sources disagreed: a side was kept' : 'Correction'}</h2>
      {corrected && (
        <p>
          {retract ? 'Retracts ' : supersede ? 'Supersedes ' : 'Corrects '}
          <PhraseView phrase={quoted(corrected, 'claim', names)} onSelect={onSelect} />
          {!retract && replacement && (
            <>
              {supersede ? ' by the side a reviewer kept, ' : ' to '}
              <PhraseView phrase={quoted(replacement, 'claim', names)} onSelect={onSelect} />
            </>
          )}
          .
        </p>
      )}
      {!corrected && text('statement') && <p>“{text('statement')}”</p>}
      {text('reason') && <p>Reason: {text('reason')}</p>}
      {text('reviewer') && <p className="muted">By {text('reviewer')}.</p>}
    </div>
  )
}
