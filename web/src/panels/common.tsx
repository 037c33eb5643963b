// Small pieces every panel uses.
import type { ReactNode } from 'react'
import { api, type ApiError } from '../api'
import { useAsync } from '../hooks'
import type { Phrase } from '../reasons'
import type { LinkKind } from '../types'
import { useWorkspace } from '../workspace'

export type { LinkKind }
export type SelectById = (id: string, kind: LinkKind) => void

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
  return <span className={`badge badge-${status}`}>{status.replaceAll('_', ' ')}</span>
}

async function loadName(ws: string, id: string, kind: LinkKind): Promise<string> {
  switch (kind) {
    case 'claim':
      return (await api.getClaim(ws, id)).statement
    case 'decision':
      return (await api.getDecision(ws, id)).title
    case 'action':
      return (await api.getAction(ws, id)).description
    case 'source':
      return (await api.getSource(ws, id)).title ?? 'an untitled source'
    case 'correction': {
      const c = await api.getCorrection(ws, id)
      return typeof c.statement === 'string' ? c.statement : 'a correction'
    }
  }
}

const KIND_WORD: Record<LinkKind, string> = {
  claim: 'a claim',
  decision: 'a decision',
  action: 'an action',
  source: 'a source',
  correction: 'a correction',
}

// A node the graph does not hold (a large workspace's graph is capped): ask the API for its
// name instead of showing its id.
function LazyName({ id, kind }: { id: string; kind: LinkKind }) {
  const { ws } = useWorkspace()
  const name = useAsync(ws ? `name:${kind}:${id}` : null, () => loadName(ws, id, kind))
  if (name.data) return <>{name.data}</>
  if (name.error) return <>{KIND_WORD[kind]} that is no longer there</>
  return <>…</>
}

/** A node by its name; clicking selects it in the graph. The id stays in data-id only. */
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
  const { ws, names } = useWorkspace()
  const label = children ?? names.get(id)?.label ?? <LazyName id={id} kind={kind} />
  // An anchor, not a button: a long statement wraps like the sentence around it.
  return (
    <a
      className="link"
      href={`#ws=${encodeURIComponent(ws)}`}
      role="button"
      data-testid={`link-${kind}`}
      data-id={id}
      onClick={(e) => {
        e.preventDefault()
        onSelect(id, kind)
      }}
    >
      {label}
    </a>
  )
}

/** A sentence from reasons.ts, its references drawn as links. */
export function PhraseView({ phrase, onSelect }: { phrase: Phrase; onSelect: SelectById }) {
  return (
    <>
      {phrase.map((part, i) =>
        typeof part === 'string' ? (
          <span key={i}>{part}</span>
        ) : (
          <NodeLink key={i} id={part.id} kind={part.kind} onSelect={onSelect}>
            {part.text ?? undefined}
          </NodeLink>
        ),
      )}
    </>
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
