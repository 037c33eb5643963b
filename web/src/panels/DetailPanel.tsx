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
  refreshKey: number
  preview: PreviewState | null
  onPreview: (preview: PreviewState | null) => void
  onChanged: () => void
  onSelect: SelectById
}

export function DetailPanel({ ws, selection, refreshKey, preview, onPreview, onChanged, onSelect }: Props) {
  if (!selection) {
    return (
      <div className="muted hint" data-testid="detail-empty">
        Select a node: a claim shows its evidence and can be corrected; a decision or an action can be
        reviewed. Selecting highlights what rests on it (red) and what it rests on (blue).
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
          refreshKey={refreshKey}
          preview={preview}
          onPreview={onPreview}
          onChanged={onChanged}
          onSelect={onSelect}
        />
      )
    case 'decision':
      return <DecisionPanel key={id} ws={ws} id={id} refreshKey={refreshKey} onChanged={onChanged} onSelect={onSelect} />
    case 'action':
      return <ActionPanel key={id} ws={ws} id={id} refreshKey={refreshKey} onChanged={onChanged} onSelect={onSelect} />
    case 'source':
      return <SourcePanel key={id} ws={ws} id={id} />
    case 'correction':
      return <CorrectionInfo key={id} ws={ws} id={id} />
    default:
      return <StoredInfo selection={selection} />
  }
}

function StoredInfo({ selection }: { selection: Selection }) {
  const data = selection.node?.data
  return (
    <div className="stack" data-testid="stored-info">
      <h2>{data?.apiType ?? 'Node'}</h2>
      <div>{data?.label}</div>
      <code className="muted">{selection.id}</code>
      {data?.props && <pre className="props">{JSON.stringify(data.props, null, 2)}</pre>}
    </div>
  )
}
