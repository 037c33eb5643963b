// The shared body of every graph node: kind, status, label, a preview marker, and for a
// source the claims folded into it.
import { Handle, Position } from '@xyflow/react'
import { useContext, type MouseEvent } from 'react'
import { useNow } from '../../hooks'
import { askedWords } from '../../asked'
import type { GraphNodeData, PreviewMark } from '../../types'
import { ToggleFoldCtx } from '../foldContext'
import { statusStyle } from '../styles'

const MARK_TEXT: Record<PreviewMark, string> = {
  target: 'being corrected',
  flagged: 'will be flagged',
  held: 'will be held',
  stays: 'stays supported',
  kept: 'kept',
  supersede: 'will be superseded',
  erase: 'will be erased',
}

interface Props {
  id: string
  kind: string
  heading: string
  data: GraphNodeData
  /** Whether the status is written beside the heading (a correction's heading says it). */
  showStatus?: boolean
}

function FoldPill({ id, folded, expanded }: { id: string; folded: number; expanded: boolean }) {
  const toggle = useContext(ToggleFoldCtx)
  if (folded === 0 && !expanded) return null
  const onClick = (e: MouseEvent) => {
    e.stopPropagation()
    toggle(id)
  }
  return (
    <button
      type="button"
      className="fold-pill nodrag nopan"
      data-testid={folded > 0 ? 'unfold-claims' : 'fold-claims'}
      data-count={folded}
      onClick={onClick}
      title={folded > 0 ? `Show the ${folded} claim${folded === 1 ? '' : 's'} read from here that no decision uses` : 'Fold the unused claims back'}
      aria-label={folded > 0 ? `Show ${folded} unused claim${folded === 1 ? '' : 's'}` : 'Fold the unused claims back'}
    >
      {folded > 0 ? `+${folded} unused` : 'fold unused'}
    </button>
  )
}

export function NodeCard({ id, kind, heading, data, showStatus = true }: Props) {
  const now = useNow()
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
      <Handle type="target" id="bottom-in" position={Position.Bottom} isConnectable={false} />
      <div className="gnode-head">
        <span className="gnode-kind">{heading}</span>
        {data.mark ? (
          <span className={`marker marker-${data.mark}`} data-testid={`marker-${data.mark}`}>
            {MARK_TEXT[data.mark]}
          </span>
        ) : (
          showStatus && data.status && <span className="gnode-status">{data.status.replaceAll('_', ' ')}</span>
        )}
      </div>
      <div className="gnode-label">{data.label}</div>
      {data.asked && (
        <div className="gnode-foot" data-testid="decision-asked">
          {askedWords(data.asked, now, { short: true })}
        </div>
      )}
      {(kind === 'source' || kind === 'correction') && (
        <FoldPill id={id} folded={data.folded ?? 0} expanded={Boolean(data.expanded)} />
      )}
      <Handle type="source" id="right" position={Position.Right} isConnectable={false} />
      <Handle type="source" id="bottom" position={Position.Bottom} isConnectable={false} />
      <Handle type="source" id="top-out" position={Position.Top} isConnectable={false} />
      <Handle type="source" id="left-out" position={Position.Left} isConnectable={false} />
    </div>
  )
}
