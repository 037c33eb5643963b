import { api } from '../api'
import { useAsync } from '../hooks'
import { ErrorNote } from './common'

// The correction's own record; its shape beyond the id is the server's to describe.
export function CorrectionInfo({ ws, id }: { ws: string; id: string }) {
  const correction = useAsync(id, () => api.getCorrection(ws, id))
  if (correction.error) return <ErrorNote error={correction.error} />
  if (!correction.data) return <p className="muted">Loading the correction…</p>
  const c = correction.data
  const text = (k: string) => (typeof c[k] === 'string' ? (c[k] as string) : null)
  return (
    <div className="stack" data-testid="correction-info">
      <h2>Correction</h2>
      {text('statement') && <p>“{text('statement')}”</p>}
      {text('kind') && <div>kind: {text('kind')}</div>}
      {text('reason') && <div>reason: {text('reason')}</div>}
      {text('reviewer') && <div className="muted">by {text('reviewer')}</div>}
    </div>
  )
}
