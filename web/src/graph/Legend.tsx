import { memo, useMemo } from 'react'
import type { AppNode } from '../types'
import { LEGEND, legendCounts, statusStyle } from './styles'

const KINDS: [string, string][] = [
  ['source', 'Sources'],
  ['correction', 'Corrections'],
  ['claim', 'Claims'],
  ['decision', 'Decisions'],
  ['action', 'Actions'],
]

function LegendView({ nodes }: { nodes: AppNode[] }) {
  const counts = useMemo(() => legendCounts(nodes.map((n) => n.data.status)), [nodes])
  const kinds = useMemo(() => {
    const byKind = new Map<string, number>()
    for (const n of nodes) byKind.set(n.type ?? '', (byKind.get(n.type ?? '') ?? 0) + 1)
    return byKind
  }, [nodes])
  return (
    <details className="legend" data-testid="legend" open>
      <summary>Legend</summary>
      <div className="legend-kinds">
        {KINDS.filter(([k]) => kinds.has(k)).map(([k, label]) => (
          <span key={k} className={`legend-kind gnode-${k}`}>
            {label} <b>{kinds.get(k)}</b>
          </span>
        ))}
        {kinds.has('stored') && (
          <span className="legend-kind">
            Stored nodes <b>{kinds.get('stored')}</b>
          </span>
        )}
      </div>
      <ul>
        {LEGEND.map((row) => (
          <li key={row.key} data-testid={`legend-${row.key}`}>
            <span className={`legend-swatch ${statusStyle(row.sample).className}`}>Aa</span>
            {row.label} <b>{counts[row.key]}</b>
          </li>
        ))}
        <li className="legend-edge down">downstream impact</li>
        <li className="legend-edge up">upstream provenance</li>
      </ul>
    </details>
  )
}

export const Legend = memo(LegendView)
