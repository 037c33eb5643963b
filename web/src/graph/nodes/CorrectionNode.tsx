import { memo } from 'react'
import type { NodeProps } from '@xyflow/react'
import type { CorrectionNode as CorrectionNodeType } from '../../types'
import { NodeCard } from './NodeCard'

function CorrectionNodeView({ id, data }: NodeProps<CorrectionNodeType>) {
  return <NodeCard id={id} kind="correction" heading="Correction" data={data} />
}

export const CorrectionNode = memo(CorrectionNodeView)
