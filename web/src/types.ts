// React Flow node and edge types for the graph canvas (typed unions, one type per kind).
import type { Edge, Node } from '@xyflow/react'
import type { Asked } from './asked'

/** The product view's node kinds, left to right along the chain of because. */
export type ProductKind = 'source' | 'correction' | 'claim' | 'decision' | 'action'

/** The kinds a link in a panel can name; following it selects that node in the graph. */
export type LinkKind = ProductKind

/** What a correction preview (or a conflict resolution's, or an erasure's) says will happen to a node. */
export type PreviewMark = 'target' | 'flagged' | 'held' | 'stays' | 'kept' | 'supersede' | 'erase'

export interface GraphNodeData extends Record<string, unknown> {
  /** The API's node type: a product kind, or a stored label in the internal view. */
  apiType: string
  label: string
  status: string | null
  /** Set only while a correction preview is shown. Emphasis from selection lives in the
   * node's className instead, so a click does not re-render every node component. */
  mark: PreviewMark | null
  /** Claims folded into this source (the first screen shows only what decisions use). */
  folded?: number
  /** The source's claims are shown although nothing uses them (the reader unfolded them). */
  expanded?: boolean
  /** A decision's: when it was made, and which of several from the same question it is. */
  asked?: Asked
  /** The API node's `data`, shown as properties in the internal view. */
  props?: Record<string, unknown>
}

export type SourceNode = Node<GraphNodeData, 'source'>
export type CorrectionNode = Node<GraphNodeData, 'correction'>
export type ClaimNode = Node<GraphNodeData, 'claim'>
export type DecisionNode = Node<GraphNodeData, 'decision'>
export type ActionNode = Node<GraphNodeData, 'action'>
/** Any stored node of the internal view that has no product kind (fragments, runs, audit…). */
export type StoredNode = Node<GraphNodeData, 'stored'>

export type AppNode = SourceNode | CorrectionNode | ClaimNode | DecisionNode | ActionNode | StoredNode
export type AppNodeType = NonNullable<AppNode['type']>

export interface GraphEdgeData extends Record<string, unknown> {
  apiType: string
  /** An open conflict's lane among the conflicts whose brackets overlap it (0 first), so
   *  two conflicts are drawn as two brackets with two marks, never one over the other. */
  lane?: number
  /** Where along its bracket the conflict's mark sits (a fraction), apart from other marks. */
  at?: number
}

export type AppEdge = Edge<GraphEdgeData>

/** Selecting a node opens the panel for its product kind (also from the internal view). */
export interface Selection {
  id: string
  kind: ProductKind | null
  /** The graph node, when the selection came from the canvas. */
  node?: AppNode
}
