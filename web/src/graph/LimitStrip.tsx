// A strip under the canvas bar when the graph is not the whole workspace: how much of it is
// drawn (the view's limit cut it, or the reader narrowed it to one node), and the way to the
// rest.
import type { GraphDTO } from '../apiTypes'
import { cutWords } from './around'

interface Props {
  graph: GraphDTO | null
  /** The node the graph is narrowed to, with its label, or null. */
  around: { id: string; label: string; nodes: number } | null
  /** What "Only around it" would narrow to: the selection, if any. */
  selected: { id: string; label: string } | null
  onAround: (id: string | null) => void
}

export function LimitStrip({ graph, around, selected, onAround }: Props) {
  const cut = graph ? cutWords(graph.totals) : null
  if (around) {
    return (
      <div className="limit-strip" data-testid="graph-around" role="status">
        <span>
          Only what is around <b>“{around.label}”</b>: {around.nodes === 1 ? '1 node' : `${around.nodes} nodes`}
          {cut && <>, of a graph drawn in part ({cut})</>}.
        </span>
        <button type="button" className="link" data-testid="around-clear" onClick={() => onAround(null)}>
          Show everything drawn
        </button>
      </div>
    )
  }
  if (!cut) return null
  return (
    <div className="limit-strip" data-testid="graph-limit" role="status">
      <span>
        <b>Drawing {cut}</b>, the first added: the graph draws this much at once. To narrow it, find any claim by its
        words in the search box, or select a source or a decision and draw only what is around it.
      </span>
      <button
        type="button"
        className="secondary small"
        data-testid="around-selected"
        disabled={!selected}
        title={selected ? undefined : 'Select a source or a decision first'}
        onClick={() => selected && onAround(selected.id)}
      >
        {selected ? `Only around “${selected.label.length > 40 ? `${selected.label.slice(0, 39)}…` : selected.label}”` : 'Only around the selection'}
      </button>
    </div>
  )
}
