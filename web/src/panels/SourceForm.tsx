// Add a source: pasted text, or a file picked or dropped (every kind the API reads). While it
// goes up a bar says how many bytes are sent of how many; then that the server is reading it;
// then what it kept, dropped (and why) and raised, the same for a file as for a text.
import { useRef, useState, type DragEvent, type FormEvent } from 'react'
import { api, type Progress } from '../api'
import type { SourceResult } from '../apiTypes'
import { bytesInWords, plural } from '../format'
import { useAction } from '../hooks'
import { kindInWords } from '../conflicts/words'
import { ErrorNote } from './common'

/** The kinds of file the API reads (docs/api.md, "Files"): the picker offers them. */
export const FILE_KINDS = '.txt,.text,.md,.markdown,.html,.htm,.pdf,.docx,text/plain,text/markdown,text/html,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document'

const stem = (name: string) => name.replace(/\.[^.]+$/, '') || name

export function SourceForm({ ws, onAdded }: { ws: string; onAdded: () => void }) {
  const [title, setTitle] = useState('')
  const [text, setText] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [over, setOver] = useState(false)
  const [progress, setProgress] = useState<Progress | null>(null)
  const [result, setResult] = useState<SourceResult | null>(null)
  const picker = useRef<HTMLInputElement>(null)
  const { busy, error, run } = useAction()

  async function submit(e?: FormEvent, dropped?: File) {
    e?.preventDefault()
    const sending = dropped ?? file
    setResult(null)
    const r = await run(() =>
      sending
        ? api.addFile(ws, sending, title.trim() || stem(sending.name), setProgress)
        : api.addSourceWithProgress(ws, title.trim(), text, setProgress),
    )
    setProgress(null)
    if (r) {
      setResult(r)
      setTitle('')
      setText('')
      setFile(null)
      if (picker.current) picker.current.value = ''
      onAdded()
    }
  }

  function onDrop(e: DragEvent) {
    e.preventDefault()
    setOver(false)
    if (busy) return
    const dropped = e.dataTransfer.files?.[0]
    if (dropped) {
      setFile(dropped)
      void submit(undefined, dropped)
      return
    }
    const words = e.dataTransfer.getData('text/plain')
    if (words) setText(words)
  }

  return (
    <form
      onSubmit={submit}
      className={over ? 'stack source-form drop-over' : 'stack source-form'}
      data-testid="source-form"
      onDragOver={(e) => {
        e.preventDefault()
        if (!over) setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <input
        data-testid="source-title"
        placeholder={file ? `Title (default: ${stem(file.name)})` : 'Title (e.g. Launch plan)'}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
      />
      {file ? (
        <div className="file-chosen" data-testid="source-file-chosen">
          <span>
            {file.name} · {bytesInWords(file.size)}
          </span>
          <button
            type="button"
            className="link"
            disabled={busy}
            onClick={() => {
              setFile(null)
              if (picker.current) picker.current.value = ''
            }}
          >
            paste text instead
          </button>
        </div>
      ) : (
        <textarea
          data-testid="source-text"
          placeholder="Paste the document text, or drop a file here"
          rows={4}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      )}
      <div className="drop-zone" data-testid="source-drop">
        <label className="file-pick">
          <input
            ref={picker}
            type="file"
            accept={FILE_KINDS}
            data-testid="source-file-input"
            disabled={busy}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
          <span className="secondary button-like">Choose a file…</span>
        </label>
        <span className="muted">or drop one here: text, Markdown, HTML, PDF or Word (DOCX)</span>
      </div>
      <button data-testid="source-submit" disabled={busy || (!file && !text.trim())}>
        {busy ? 'Adding…' : file ? 'Add this file' : 'Add source'}
      </button>
      {progress && <UploadProgress progress={progress} what={file?.name ?? 'the text'} />}
      <ErrorNote error={error} testId="source-error" />
      {result && <SourceOutcome result={result} />}
    </form>
  )
}

/** The bytes sent of how many, then that the server is reading what it got. */
function UploadProgress({ progress, what }: { progress: Progress; what: string }) {
  if (progress.phase === 'reading') {
    return (
      <div className="upload" data-testid="source-progress" data-phase="reading" role="status">
        <progress aria-label="Reading" />
        <span>
          Sent {bytesInWords(progress.total)}. Reading {what}: finding claims and their quotes…
        </span>
      </div>
    )
  }
  const { sent, total } = progress
  return (
    <div className="upload" data-testid="source-progress" data-phase="sending" data-sent={sent} data-total={total} role="status">
      <progress max={total || 1} value={sent} aria-label="Sending" />
      <span>
        Sending {what}: {bytesInWords(sent)} of {bytesInWords(total)}
      </span>
    </div>
  )
}

/** What an ingest did, in words: the same for a file as for a pasted text. */
function SourceOutcome({ result }: { result: SourceResult }) {
  const dropped = Object.entries(result.dropped ?? {}).filter(([, n]) => n > 0)
  const conflicts = 'conflicts' in result ? result.conflicts : []
  const open = conflicts.filter((k) => k.status === 'open')
  const file = result.source.kind === 'file'
  return (
    <div
      className="result"
      data-testid="source-result"
      data-claims={result.claims.length}
      data-claim-ids={result.claims.map((c) => c.id).join(' ')}
      data-source-id={result.source.id}
      data-kind={result.source.kind}
      data-conflicts={conflicts.length}
    >
      <p>
        {result.status === 'unchanged'
          ? 'Unchanged: same text as the latest version.'
          : `${file ? 'File' : 'Source'} “${result.source.title}” ${result.status}.`}{' '}
        {result.claims.length === 0
          ? 'No claims kept.'
          : `${plural(result.claims.length, 'claim')} kept, each with an exact quote.`}
      </p>
      {dropped.length > 0 && (
        <p data-testid="source-dropped">
          Dropped: {dropped.map(([reason, n]) => `${n} ${reason.replaceAll('_', ' ')}`).join(', ')}.
        </p>
      )}
      {open.length > 0 && (
        <p className="warn" data-testid="source-conflicts">
          {plural(open.length, 'conflict')} raised: the sources disagree ({open.map((k) => kindInWords(k.kind).toLowerCase()).join('; ')}).
          The Conflicts tab shows both sides.
        </p>
      )}
      {result.failed_fragments?.length > 0 && (
        <p className="warn">{plural(result.failed_fragments.length, 'fragment')} could not be read by the model.</p>
      )}
    </div>
  )
}
