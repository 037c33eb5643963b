import { api } from '../api'
import type { Erasure, SourceView } from '../apiTypes'
import { erasureApi } from '../erasures/api'
import { EraseAction } from '../erasures/EraseAction'
import { WithErased } from '../erasures/Erased'
import { ERASED_MARK, erasedOn, messageErasure } from '../erasures/words'
import { useRead, wsKey } from '../query'
import { fileLine, placeText, transcript } from '../sources/places'
import { when } from '../time/when'
import { useWorkspace } from '../workspace'
import { ErrorNote, type SelectById } from './common'

export function SourcePanel({ ws, id, onSelect }: { ws: string; id: string; onSelect: SelectById }) {
  const { asOf = null } = useWorkspace()
  // Through the cache: an erasure (or any change) reads the source again.
  const source = useRead(wsKey(ws, 'source', id), () => api.getSource(ws, id))
  if (source.error) return <ErrorNote error={source.error} />
  const s = source.data
  if (!s) return <p className="muted">Loading the source…</p>
  if (s.kind === 'conversation') return <Transcript ws={ws} source={s} asOf={asOf} onSelect={onSelect} />
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
            <WithErased text={f.text} />
            <footer className="muted">
              {place && <span data-testid="fragment-place">{place} · </span>}
              fragment {f.seq} · characters {f.start}–{f.end}
            </footer>
          </blockquote>
        )
      })}
      <EraseAction ws={ws} target={{ source_id: s.id }} label="Erase this source…" what="this source, every version" onSelect={onSelect} />
    </div>
  )
}

/** A conversation as people read one: each message with who said it and when, in order. */
function Transcript({ ws, source, asOf, onSelect }: { ws: string; source: SourceView; asOf: number | null; onSelect: SelectById }) {
  const messages = transcript(source, asOf)
  // Which erasure took a message whole, read only when a message shows the marker.
  const marked = messages.some((m) => m.text.includes(ERASED_MARK))
  const records = useRead(marked ? wsKey(ws, 'erasures', 'applied') : null, () => erasureApi.list(ws, 'applied', null, 200))
  const applied: Erasure[] = records.data?.items ?? []
  return (
    <div className="stack" data-testid="source-panel" data-kind="conversation">
      <h2>{source.title}</h2>
      <div className="muted">
        conversation · {messages.length} message{messages.length === 1 ? '' : 's'}
      </div>
      <ol className="transcript" data-testid="transcript">
        {messages.map((m) => {
          const erased = messageErasure(applied, source.id, m.index)
          return (
            <li key={m.index} className="message" data-testid="transcript-message" data-speaker={m.speaker} data-index={m.index}>
              <div className="message-head">
                <span className="speaker">{m.speaker}</span>
                <time className="muted" dateTime={new Date(m.saidAt).toISOString()}>
                  {when(m.saidAt)}
                </time>
              </div>
              <div className="message-text">
                <WithErased text={m.text} />
              </div>
              {erased && (
                <div className="muted small" data-testid="message-erased">
                  {erasedOn(erased.applied_at, erased.applied_by)}
                </div>
              )}
              <EraseAction
                ws={ws}
                target={{ source_id: source.id, message_index: m.index }}
                label="Erase"
                what={`message ${m.index + 1}, by ${m.speaker}`}
                onSelect={onSelect}
                offered={m.text.trim() !== ERASED_MARK}
                sayRefusal={false}
                className="link small message-erase"
              />
            </li>
          )
        })}
      </ol>
      <EraseAction
        ws={ws}
        target={{ source_id: source.id }}
        label="Erase this conversation…"
        what="this conversation, every message"
        onSelect={onSelect}
      />
    </div>
  )
}
