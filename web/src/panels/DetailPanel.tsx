import type { CorrectionApplied, CorrectionPreview } from '../apiTypes'
import type { Selection } from '../types'
import { ActionPanel } from './ActionPanel'
import { ClaimPanel } from './ClaimPanel'
import type { SelectById } from './common'
import { CorrectionInfo } from './CorrectionInfo'
import type { PreviewState } from './CorrectionPanel'
import { DecisionPanel } from './DecisionPanel'
import { SourcePanel } from './SourcePanel'

interface Props {
  ws: string
  selection: Selection | null
  preview: PreviewState | null
  onPreview: (preview: PreviewState | null) => void
  onApplied: (applied: CorrectionApplied, preview: CorrectionPreview) => void
  onChanged: () => void
  onSelect: SelectById
}

export function DetailPanel({ ws, selection, preview, onPreview, onApplied, onChanged, onSelect }: Props) {
  if (!selection) {
    return (
      <div className="muted hint" data-testid="detail-empty">
        <p>Select a node in the graph, or find one with the search box.</p>
        <ul>
          <li>A claim shows the words it was read from, and can be corrected.</li>
          <li>A decision or an action can be reviewed.</li>
          <li>Selecting highlights what rests on it (red) and what it rests on (blue).</li>
        </ul>
      </div>
    )
  }
  const { id, kind } = selection
  // Keyed by id: a different node is a fresh panel, with no half-typed correction carried over.
  switch (kind) {
    case 'claim':
      return (
        <ClaimPanel
          key={id}
          ws={ws}
          id={id}
          preview={preview}
          onPreview={onPreview}
          onApplied={onApplied}
          onSelect={onSelect}
        />
      )
    case 'decision':
      return <DecisionPanel key={id} ws={ws} id={id} onChanged={onChanged} onSelect={onSelect} />
    case 'action':
      return <ActionPanel key={id} ws={ws} id={id} onChanged={onChanged} onSelect={onSelect} />
    case 'source':
      return <SourcePanel key={id} ws={ws} id={id} onSelect={onSelect} />
    case 'correction':
      return <CorrectionInfo key={id} ws={ws} id={id} onSelect={onSelect} />
    default:
      return <StoredInfo selection={selection} />
  }
}

function propText(value: unknown): string {
  if (value == null) return '—'
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? '' : 's'}`
  return 'structured value'
}

// A stored node of the internal view: its label and its properties as a table.
function StoredInfo({ selection }: { selection: Selection }) {
  const data = selection.node?.data
  const props = Object.entries(data?.props ?? {})
  return (
    <div className="stack" data-testid="stored-info">
      <h2>{data?.apiType ?? 'Node'}</h2>
      <div>{data?.label}</div>
      {props.length > 0 && (
        <dl className="facts props">
          {props.map(([k, v]) => (
            <div key={k} className="fact">
              <dt>{k.replaceAll('_', ' ')}</dt>
              <dd>{propText(v)}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  )
}
