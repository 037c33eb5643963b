import { memo } from 'react'
import type { NodeProps } from '@xyflow/react'
import type { StoredNode as StoredNodeType } from '../../types'
import { NodeCard } from './NodeCard'

// The internal view shows every stored label; its heading is the label itself.
function StoredNodeView({ id, data }: NodeProps<StoredNodeType>) {
  return <NodeCard id={id} kind="stored" heading={data.apiType} data={data} />
}

export const StoredNode = memo(StoredNodeView)
