// Find a node by its words and bring it into view (folded claims too: picking one unfolds it).
import { useId, useMemo, useState, type KeyboardEvent } from 'react'
import type { GraphDTO } from '../apiTypes'
import { searchNodes, type SearchHit } from './search'

export type { SearchHit }

export function NodeSearch({ graph, onPick }: { graph: GraphDTO | null; onPick: (hit: SearchHit) => void }) {
  const [query, setQuery] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const listId = useId()
  const hits = useMemo(() => searchNodes(graph, query), [graph, query])

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
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
