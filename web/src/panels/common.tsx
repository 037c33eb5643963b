// Small pieces every panel uses.
import type { ReactNode } from 'react'
import type { ApiError } from '../api'
import { shortId } from '../claims'

export function ErrorNote({ error, testId = 'error' }: { error: ApiError | null; testId?: string }) {
  if (!error) return null
  return (
    <p className="error" role="alert" data-testid={testId} data-code={error.code}>
      {error.message} <code>{error.code}</code>
    </p>
  )
}

export function StatusBadge({ status }: { status: string | null | undefined }) {
  if (!status) return null
  return <span className={`badge badge-${status}`}>{status.replace('_', ' ')}</span>
}

/** The kinds a link can name; clicking selects that node in the graph. */
export type LinkKind = 'claim' | 'decision' | 'action' | 'source' | 'correction'
export type SelectById = (id: string, kind: LinkKind) => void

export function NodeLink({
  id,
  kind,
  onSelect,
  children,
}: {
  id: string
  kind: LinkKind
  onSelect: SelectById
  children?: ReactNode
}) {
  return (
    <button type="button" className="link" data-testid={`link-${kind}`} data-id={id} onClick={() => onSelect(id, kind)}>
      {children ?? shortId(id)}
    </button>
  )
}

export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="section" data-testid={testId}>
      <h3>{title}</h3>
      {children}
    </section>
  )
}
