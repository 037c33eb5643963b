import { memo } from 'react'
import type { NodeProps } from '@xyflow/react'
import type { SourceNode as SourceNodeType } from '../../types'
import { NodeCard } from './NodeCard'

function SourceNodeView({ id, data }: NodeProps<SourceNodeType>) {
  return <NodeCard id={id} kind="source" heading="Source" data={data} />
}

export const SourceNode = memo(SourceNodeView)
