import { useState, type FormEvent } from 'react'
import { api } from '../api'
import type { SourceResult } from '../apiTypes'
import { useAction } from '../hooks'
import { ErrorNote } from './common'

export function SourceForm({ ws, onAdded }: { ws: string; onAdded: () => void }) {
  const [title, setTitle] = useState('')
  const [text, setText] = useState('')
  const [result, setResult] = useState<SourceResult | null>(null)
  const { busy, error, run } = useAction()

  async function submit(e: FormEvent) {
    e.preventDefault()
    const r = await run(() => api.addSource(ws, title.trim(), text))
    if (r) {
      setResult(r)
      setTitle('')
      setText('')
      onAdded()
    }
  }

  const dropped = result ? Object.entries(result.dropped ?? {}).filter(([, n]) => n > 0) : []
  return (
    <form onSubmit={submit} className="stack" data-testid="source-form">
      <input
        data-testid="source-title"
        placeholder="Title (e.g. Launch plan)"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
      />
      <textarea
        data-testid="source-text"
        placeholder="Paste the document text"
        rows={4}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <button data-testid="source-submit" disabled={busy || !text.trim()}>
        {busy ? 'Adding…' : 'Add source'}
      </button>
      <ErrorNote error={error} testId="source-error" />
      {result && (
        <div
          className="result"
          data-testid="source-result"
          data-claims={result.claims.length}
          data-claim-ids={result.claims.map((c) => c.id).join(' ')}
        >
          {result.status === 'unchanged' ? 'Unchanged: same text as the latest version.' : `Source ${result.status}.`}{' '}
          {result.claims.length} claim{result.claims.length === 1 ? '' : 's'} kept with an exact quote
          {dropped.length > 0 && (
            <>; dropped: {dropped.map(([reason, n]) => `${n} ${reason.replaceAll('_', ' ')}`).join(', ')}</>
          )}
          .
          {result.failed_fragments?.length > 0 && (
            <span className="warn"> {result.failed_fragments.length} fragment(s) failed extraction.</span>
          )}
        </div>
      )}
    </form>
  )
}
