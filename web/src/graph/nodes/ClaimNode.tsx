import { memo } from 'react'
import type { NodeProps } from '@xyflow/react'
import type { ClaimNode as ClaimNodeType } from '../../types'
import { NodeCard } from './NodeCard'

function ClaimNodeView({ id, data }: NodeProps<ClaimNodeType>) {
  return <NodeCard id={id} kind="claim" heading="Claim" data={data} />
}

export const ClaimNode = memo(ClaimNodeView)
