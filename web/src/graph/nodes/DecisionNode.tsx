import { memo } from 'react'
import type { NodeProps } from '@xyflow/react'
import type { DecisionNode as DecisionNodeType } from '../../types'
import { NodeCard } from './NodeCard'

function DecisionNodeView({ id, data }: NodeProps<DecisionNodeType>) {
  return <NodeCard id={id} kind="decision" heading="Decision" data={data} />
}

export const DecisionNode = memo(DecisionNodeView)
