// An open conflict on the graph: a dashed bracket joining the two claims on the side their
// sources come from, in the gap between the columns (never across another node), with a
// "≠" that opens the conflict for review.
import { EdgeLabelRenderer, type EdgeProps } from '@xyflow/react'
import type { MouseEvent } from 'react'
import type { AppEdge } from '../types'
import { useOpenConflict } from './nav'
import { bracketPath, conflictOfEdge } from './words'

export function ConflictEdge({ id, data, sourceX, sourceY, targetX, targetY }: EdgeProps<AppEdge>) {
  const open = useOpenConflict()
  const conflictId = conflictOfEdge(id, data?.apiType)
  const { path, apexX, apexY } = bracketPath(sourceX, sourceY, targetX, targetY, data?.lane ?? 0, data?.at ?? 0.5)
  const onClick = (e: MouseEvent) => {
    e.stopPropagation()
    if (conflictId) open?.(conflictId)
  }
  return (
    <>
      <path d={path} className="react-flow__edge-path" fill="none" />
      <path d={path} className="conflict-edge-hit" fill="none" onClick={onClick} />
      <EdgeLabelRenderer>
        <button
          type="button"
          className="conflict-chip nodrag nopan"
          data-testid="conflict-edge"
          data-id={conflictId ?? ''}
          data-lane={data?.lane ?? 0}
          title="These claims disagree: open the conflict"
          aria-label="These claims disagree: open the conflict"
          style={{ transform: `translate(-50%, -50%) translate(${apexX}px, ${apexY}px)` }}
          onClick={onClick}
        >
          ≠
        </button>
      </EdgeLabelRenderer>
    </>
  )
}
