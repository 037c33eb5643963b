// The shared body of every graph node: kind, status, label, and a preview marker.
import { Handle, Position } from '@xyflow/react'
import type { GraphNodeData, PreviewMark } from '../../types'
import { statusStyle } from '../styles'

const MARK_TEXT: Record<PreviewMark, string> = {
  target: 'being corrected',
  flagged: 'will be flagged',
  held: 'will be held',
  stays: 'stays supported',
}

interface Props {
  id: string
  kind: string
  heading: string
  data: GraphNodeData
}

export function NodeCard({ id, kind, heading, data }: Props) {
  const look = statusStyle(data.status)
  const classes = ['gnode', `gnode-${kind}`, look.className]
  if (data.mark) classes.push(`mark-${data.mark}`)
  return (
    <div
      className={classes.join(' ')}
      data-testid={`node-${kind}`}
      data-node-id={id}
      data-status={data.status ?? ''}
      data-mark={data.mark ?? ''}
      title={data.label}
    >
      <Handle type="target" id="left" position={Position.Left} isConnectable={false} />
      <Handle type="target" id="top" position={Position.Top} isConnectable={false} />
      <div className="gnode-head">
        <span className="gnode-kind">{heading}</span>
        {data.status && <span className="gnode-status">{data.status.replace('_', ' ')}</span>}
      </div>
      <div className="gnode-label">{data.label}</div>
      {data.mark && (
        <span className={`marker marker-${data.mark}`} data-testid={`marker-${data.mark}`}>
          {MARK_TEXT[data.mark]}
        </span>
      )}
      <Handle type="source" id="right" position={Position.Right} isConnectable={false} />
      <Handle type="source" id="bottom" position={Position.Bottom} isConnectable={false} />
    </div>
  )
}
