import { memo } from 'react'
import type { NodeProps } from '@xyflow/react'
import type { CorrectionNode as CorrectionNodeType } from '../../types'
import { NodeCard } from './NodeCard'

// A correction's card is the narrowest: its kind is its heading in one word, so "Correction"
// and a status beside it never overrun the box.
const HEADING: Record<string, string> = {
  replace: 'Correction',
  retract: 'Retraction',
  supersede: 'Resolution',
}

function CorrectionNodeView({ id, data }: NodeProps<CorrectionNodeType>) {
  return <NodeCard id={id} kind="correction" heading={HEADING[data.status ?? ''] ?? 'Correction'} data={data} showStatus={false} />
}

export const CorrectionNode = memo(CorrectionNodeView)
