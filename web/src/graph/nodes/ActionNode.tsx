import { memo } from 'react'
import type { NodeProps } from '@xyflow/react'
import type { ActionNode as ActionNodeType } from '../../types'
import { NodeCard } from './NodeCard'

function ActionNodeView({ id, data }: NodeProps<ActionNodeType>) {
  return <NodeCard id={id} kind="action" heading="Action" data={data} />
}

export const ActionNode = memo(ActionNodeView)
