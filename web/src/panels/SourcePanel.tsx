import { api } from '../api'
import type { SourceView } from '../apiTypes'
import { useAsync } from '../hooks'
import { fileLine, placeText, transcript } from '../sources/places'
import { when } from '../time/when'
import { useWorkspace } from '../workspace'
import { ErrorNote } from './common'

export function SourcePanel({ ws, id }: { ws: string; id: string }) {
  const { asOf = null } = useWorkspace()
  const source = useAsync(id, () => api.getSource(ws, id))
  if (source.error) return <ErrorNote error={source.error} />
  const s = source.data
  if (!s) return <p className="muted">Loading the source…</p>
  if (s.kind === 'conversation') return <Transcript source={s} asOf={asOf} />
  // At a moment in the past, the versions it had then: a later one is not shown yet.
  const versions = s.versions.filter((v) => asOf === null || v.created_at <= asOf)
  const latest = [...versions].sort((a, b) => b.version - a.version)[0]
  const file = latest ? fileLine(latest) : null
  return (
    <div className="stack" data-testid="source-panel" data-kind={s.kind}>
      <h2>{s.title}</h2>
      <div className="muted">
        {s.origin_type}
        {s.origin_name && ` · ${s.origin_name}`} · version {latest?.version ?? s.latest_version} of {versions.length}
      </div>
      {file && (
        <div className="muted" data-testid="source-file">
          {file}
        </div>
      )}
      {latest?.fragments.map((f) => {
        const place = placeText(f)
        return (
          <blockquote key={f.id} className="fragment">
            {f.text}
            <footer className="muted">
              {place && <span data-testid="fragment-place">{place} · </span>}
              fragment {f.seq} · characters {f.start}–{f.end}
            </footer>
          </blockquote>
        )
      })}
    </div>
  )
}

/** A conversation as people read one: each message with who said it and when, in order. */
function Transcript({ source, asOf }: { source: SourceView; asOf: number | null }) {
  const messages = transcript(source, asOf)
  return (
    <div className="stack" data-testid="source-panel" data-kind="conversation">
      <h2>{source.title}</h2>
      <div className="muted">
        conversation · {messages.length} message{messages.length === 1 ? '' : 's'}
      </div>
      <ol className="transcript" data-testid="transcript">
        {messages.map((m) => (
          <li key={m.index} className="message" data-testid="transcript-message" data-speaker={m.speaker}>
            <div className="message-head">
              <span className="speaker">{m.speaker}</span>
              <time className="muted" dateTime={new Date(m.saidAt).toISOString()}>
                {when(m.saidAt)}
              </time>
            </div>
            <div className="message-text">{m.text}</div>
          </li>
        ))}
      </ol>
    </div>
  )
}
