import { api } from '../api'
import { useAsync } from '../hooks'
import { useWorkspace } from '../workspace'
import { ErrorNote } from './common'

export function SourcePanel({ ws, id }: { ws: string; id: string }) {
  const { asOf = null } = useWorkspace()
  const source = useAsync(id, () => api.getSource(ws, id))
  if (source.error) return <ErrorNote error={source.error} />
  const s = source.data
  if (!s) return <p className="muted">Loading the source…</p>
  // At a moment in the past, the versions it had then: a later one is not shown yet.
  const versions = s.versions.filter((v) => asOf === null || v.created_at <= asOf)
  const latest = [...versions].sort((a, b) => b.version - a.version)[0]
  return (
    <div className="stack" data-testid="source-panel">
      <h2>{s.title}</h2>
      <div className="muted">
        {s.origin_type}
        {s.origin_name && ` · ${s.origin_name}`} · version {latest?.version ?? s.latest_version} of {versions.length}
      </div>
      {latest?.fragments.map((f) => (
        <blockquote key={f.id} className="fragment">
          {f.text}
          <footer className="muted">
            fragment {f.seq} · characters {f.start}–{f.end}
          </footer>
        </blockquote>
      ))}
    </div>
  )
}
