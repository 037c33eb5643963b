// React Flow edge components by type; edges without a type are drawn as React Flow's bezier.
import type { EdgeTypes } from '@xyflow/react'
import { ConflictEdge } from '../conflicts/ConflictEdge'

export const edgeTypes: EdgeTypes = { conflict: ConflictEdge }
