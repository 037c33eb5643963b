// Module-level, so React Flow sees the same object on every render (a new one remounts nodes).
import type { NodeTypes } from '@xyflow/react'
import { ActionNode } from './nodes/ActionNode'
import { ClaimNode } from './nodes/ClaimNode'
import { CorrectionNode } from './nodes/CorrectionNode'
import { DecisionNode } from './nodes/DecisionNode'
import { SourceNode } from './nodes/SourceNode'
import { StoredNode } from './nodes/StoredNode'

export const nodeTypes = {
  source: SourceNode,
  correction: CorrectionNode,
  claim: ClaimNode,
  decision: DecisionNode,
  action: ActionNode,
  stored: StoredNode,
} satisfies NodeTypes
