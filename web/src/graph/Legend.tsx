// Docked above the canvas, never over a node: the kinds with their counts always, the
// status looks and edge colours on demand.
import { memo, useMemo } from 'react'
import type { AppNode } from '../types'
import { LEGEND, legendCounts, statusStyle } from './styles'

const KINDS: [string, string, string][] = [
  ['source', 'source', 'sources'],
  ['correction', 'correction', 'corrections'],
  ['claim', 'claim', 'claims'],
  ['decision', 'decision', 'decisions'],
  ['action', 'action', 'actions'],
  ['stored', 'stored node', 'stored nodes'],
]

function LegendView({ nodes, hiddenClaims }: { nodes: AppNode[]; hiddenClaims: number }) {
  const counts = useMemo(() => legendCounts(nodes.map((n) => n.data.status)), [nodes])
  const kinds = useMemo(() => {
    const byKind = new Map<string, number>()
    for (const n of nodes) byKind.set(n.type ?? '', (byKind.get(n.type ?? '') ?? 0) + 1)
    return byKind
  }, [nodes])
  // The kinds with their counts: in the summary line on a wide window, inside on a narrow one.
  const kindList = KINDS.filter(([k]) => kinds.has(k)).map(([k, one, many]) => (
    <span key={k} className={`legend-kind gnode-${k}`}>
      {kinds.get(k)} {kinds.get(k) === 1 ? one : many}
      {k === 'claim' && hiddenClaims > 0 && <span className="muted"> (+{hiddenClaims} folded)</span>}
    </span>
  ))
  return (
    <details className="legend" data-testid="legend">
      <summary>
        <span className="legend-title">Legend</span>
        {kindList}
      </summary>
      <ul className="legend-rows">
        <li className="legend-kinds">{kindList}</li>
        {LEGEND.map((row) => (
          <li key={row.key} data-testid={`legend-${row.key}`}>
            <span className={`legend-swatch ${statusStyle(row.sample).className}`}>Aa</span>
            {row.label} <b>{counts[row.key]}</b>
          </li>
        ))}
        <li className="legend-edge down">what rests on the selection</li>
        <li className="legend-edge up">what the selection rests on</li>
        <li className="legend-edge conflict" data-testid="legend-conflict">
          sources disagree (an open conflict)
        </li>
      </ul>
    </details>
  )
}

export const Legend = memo(LegendView)
