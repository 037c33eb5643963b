// Find a node by its words and bring it into view (folded claims too: picking one unfolds it).
// Claims are also looked for by the server's search (words and meaning, across the whole
// workspace); each hit says how it was found, and one the graph does not draw is read and
// drawn with what is around it (its source, the decisions resting on it), then brought into view.
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react'
import { api } from '../api'
import type { ClaimListItem, GraphDTO } from '../apiTypes'
import { useNow } from '../hooks'
import { askedWords } from '../asked'
import { useWorkspace } from '../workspace'
import { FOUND_WORDS, searchNodes, withFound, type SearchHit } from './search'

export type { SearchHit }

/** How long typing pauses before the whole workspace is searched. */
const SERVER_DELAY_MS = 250

interface Props {
  graph: GraphDTO | null
  onPick: (hit: SearchHit) => void
}

export function NodeSearch({ graph, onPick }: Props) {
  const [query, setQuery] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const listId = useId()
  const { ws, names, asOf = null } = useWorkspace()
  const now = useNow()
  const drawn = useMemo(() => searchNodes(graph, query), [graph, query])
  const [found, setFound] = useState<{ query: string; claims: ClaimListItem[] }>({ query: '', claims: [] })
  useEffect(() => {
    const q = query.trim()
    if (q.length < 2) return
    let live = true
    const timer = setTimeout(() => {
      api.findClaims(ws, q, asOf).then(
        (page) => live && setFound({ query: q, claims: page.items }),
        () => live && setFound({ query: q, claims: [] }),
      )
    }, SERVER_DELAY_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [query, ws, asOf])
  const inGraph = useMemo(() => new Set(graph?.nodes.map((n) => n.id) ?? []), [graph])
  const hits = useMemo(
    () => (found.query === query.trim() ? withFound(drawn, found.claims) : drawn),
    [found, query, drawn],
  )

  function pick(hit: SearchHit) {
    onPick(hit)
    setOpen(false)
    setQuery('')
  }

  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      setActive((a) => Math.min(a + 1, hits.length - 1))
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      setActive((a) => Math.max(a - 1, 0))
    } else if (e.key === 'Enter' && hits[active]) {
      e.preventDefault()
      pick(hits[active])
    } else if (e.key === 'Escape') {
      setOpen(false)
    }
  }

  const showList = open && query.trim() !== ''
  return (
    <div className="node-search" role="search">
      <input
        type="search"
        data-testid="node-search"
        placeholder="Find a claim, decision, source…"
        aria-label="Find a node"
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value)
          setActive(0)
          setOpen(true)
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKey}
      />
      {showList && (
        <ul className="search-hits" id={listId} role="listbox" data-testid="search-hits">
          {hits.length === 0 && <li className="muted">Nothing matches.</li>}
          {hits.map((h, i) => (
            <li key={h.id} role="option" aria-selected={i === active}>
              <button
                type="button"
                className={i === active ? 'hit active' : 'hit'}
                data-testid="search-hit"
                data-id={h.id}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(h)}
              >
                <span className={`hit-kind gnode-${h.kind}`}>{h.kind}</span> {h.label}
                <span className="muted hit-how" data-testid="search-hit-how" data-how={h.how}>
                  {' '}
                  · {FOUND_WORDS[h.how]}
                </span>
                {h.kind === 'decision' && names.askedOf(h.id) && (
                  <span className="hit-when"> · {askedWords(names.askedOf(h.id)!, now)}</span>
                )}
                {!inGraph.has(h.id) && (
                  <span className="muted" data-testid="search-hit-undrawn">
                    {' '}
                    · not drawn yet: drawn with what is around it
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
