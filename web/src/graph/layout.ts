// Pure left-to-right layout in fixed columns, one per kind (Sources and corrections →
// Claims → Decisions → Actions), so the chain of because always reads the same way.
//
// The columns are known up front, so a general layered layout (dagre) spends its time on
// work that is not needed here: it ranks, inserts a dummy node on every long edge and runs
// crossing minimisation over all of them. This one orders each column by the barycentre of
// its neighbours (a few sweeps each way), then places every column as close as it can to
// the nodes it is joined to without overlaps (least squares under a minimum gap, solved
// exactly by pooling adjacent violators). Linear per sweep, so thousands of nodes lay out
// while a frame is drawn (docs/decisions/0017-ui-column-layout.md; the widths that fit a
// laptop's canvas: docs/decisions/0023-first-screen-fits.md).

/** The default node box (the internal view's, and the widest product kinds'). */
export const NODE_WIDTH = 220
export const NODE_HEIGHT = 76
export const RANK_SEP = 48
export const NODE_SEP = 16

/** A decision's box: a line more than the others, for when it was made. */
export const DECISION_HEIGHT = 94

// Product kinds are as wide as their words need, so the whole chain fits a laptop's canvas
// at a readable zoom: a claim or a decision holds a sentence on two lines; a source or a
// correction a title on one; an action a short line.
const PRODUCT_SIZE: Record<string, { width: number; height: number }> = {
  source: { width: 160, height: NODE_HEIGHT },
  correction: { width: 160, height: NODE_HEIGHT },
  claim: { width: 210, height: NODE_HEIGHT },
  decision: { width: 210, height: DECISION_HEIGHT },
  action: { width: 170, height: NODE_HEIGHT },
}

/** A node's box in graph units, by its API type (the internal view's labels get the default). */
export function nodeSize(apiType: string): { width: number; height: number } {
  return PRODUCT_SIZE[apiType] ?? { width: NODE_WIDTH, height: NODE_HEIGHT }
}

const ORDER_SWEEPS = 4
const PLACE_SWEEPS = 3

// Product kinds, left to right. A correction shares the sources' column: both are where a
// claim comes from, a document or a reviewer, and the barycentre order puts each beside
// the claims it touches.
const PRODUCT_RANK: Record<string, number> = {
  source: 0,
  correction: 0,
  claim: 2,
  decision: 3,
  action: 4,
}

// Stored labels of the internal view, in the same spirit: origins, then evidence, then what
// was concluded from it.
const INTERNAL_RANK: Record<string, number> = {
  Workspace: 0,
  Source: 1,
  Correction: 1,
  SourceVersion: 2,
  SourceFragment: 3,
  Claim: 4,
  AgentRun: 5,
  Handoff: 6,
  Decision: 6,
  Action: 7,
  AuditEvent: 8,
}

const UNKNOWN_RANK = 9

/** The column a node type belongs to (product kinds and internal labels alike). */
export function rankOf(apiType: string): number {
  return PRODUCT_RANK[apiType] ?? INTERNAL_RANK[apiType] ?? UNKNOWN_RANK
}

export interface LayoutNode {
  id: string
  data: { apiType: string }
}

export interface LayoutEdge {
  source: string
  target: string
}

export type Positioned<N> = N & { position: { x: number; y: number } }

/**
 * Least-squares positions for `want` (in column order) with at least `step` between
 * neighbours. With z_i = y_i - i·step the gap becomes "z is non-decreasing", an isotonic
 * regression that pooling adjacent violators solves exactly in one pass.
 */
export function placeColumn(want: readonly number[], step = NODE_HEIGHT + NODE_SEP): number[] {
  const STEP = step
  const means: number[] = []
  const sizes: number[] = []
  for (let i = 0; i < want.length; i++) {
    let mean = want[i] - i * STEP
    let size = 1
    while (means.length > 0 && means[means.length - 1] > mean) {
      const m = means.pop()!
      const s = sizes.pop()!
      mean = (m * s + mean * size) / (s + size)
      size += s
    }
    means.push(mean)
    sizes.push(size)
  }
  const out: number[] = []
  for (let b = 0; b < means.length; b++) {
    for (let k = 0; k < sizes[b]; k++) out.push(means[b] + out.length * STEP)
  }
  return out
}

/**
 * Positions nodes left to right, one column per kind present. Edges between nodes of the
 * same kind (decision → decision, replacement → old claim) keep the two close in their
 * column; edges that run against the kind order count the same as forward ones. Returns
 * new node objects with top-left positions, as React Flow expects.
 */
export function layoutGraph<N extends LayoutNode>(nodes: N[], edges: LayoutEdge[]): Positioned<N>[] {
  if (nodes.length === 0) return []
  // Only the kinds present get a column, so a workspace without corrections has no gap.
  const present = [...new Set(nodes.map((n) => rankOf(n.data.apiType)))].sort((a, b) => a - b)
  const columnOfRank = new Map(present.map((rank, index) => [rank, index]))
  const index = new Map(nodes.map((n, i) => [n.id, i]))
  const col = nodes.map((n) => columnOfRank.get(rankOf(n.data.apiType))!)
  const columns: number[][] = present.map(() => [])
  nodes.forEach((_, i) => columns[col[i]].push(i))

  // Neighbours to the left, to the right and in the same column, by node index.
  const left: number[][] = nodes.map(() => [])
  const right: number[][] = nodes.map(() => [])
  const same: number[][] = nodes.map(() => [])
  for (const e of edges) {
    const a = index.get(e.source)
    const b = index.get(e.target)
    if (a === undefined || b === undefined || a === b) continue
    if (col[a] === col[b]) {
      same[a].push(b)
      same[b].push(a)
    } else if (col[a] < col[b]) {
      right[a].push(b)
      left[b].push(a)
    } else {
      right[b].push(a)
      left[a].push(b)
    }
  }

  // Ordering: each node's place is a fraction of its column, so columns of different
  // lengths compare.
  const frac = new Float64Array(nodes.length)
  const setFractions = (members: number[]) => {
    members.forEach((v, i) => (frac[v] = (i + 0.5) / members.length))
  }
  columns.forEach(setFractions)
  const reorder = (c: number, side: number[][]) => {
    const key = new Float64Array(nodes.length)
    for (const v of columns[c]) {
      let sum = 0
      let n = 0
      for (const u of side[v]) {
        sum += frac[u]
        n += 1
      }
      for (const u of same[v]) {
        sum += frac[u]
        n += 1
      }
      key[v] = n > 0 ? sum / n : frac[v]
    }
    columns[c] = [...columns[c]].sort((a, b) => key[a] - key[b] || frac[a] - frac[b])
    setFractions(columns[c])
  }
  for (let sweep = 0; sweep < ORDER_SWEEPS; sweep++) {
    for (let c = 1; c < columns.length; c++) reorder(c, left)
    for (let c = columns.length - 2; c >= 0; c--) reorder(c, right)
  }

  // Each column is as wide and its rows as tall as its largest kind.
  const size = nodes.map((n) => nodeSize(n.data.apiType))
  const widths = columns.map((members) => Math.max(...members.map((v) => size[v].width)))
  const steps = columns.map((members) => Math.max(...members.map((v) => size[v].height)) + NODE_SEP)
  const columnX: number[] = []
  widths.forEach((_, c) => columnX.push(c === 0 ? 0 : columnX[c - 1] + widths[c - 1] + RANK_SEP))

  // Placement: start stacked, then pull each column towards what it is joined to.
  const y = new Float64Array(nodes.length)
  columns.forEach((members, c) => members.forEach((v, i) => (y[v] = i * steps[c])))
  const place = (c: number, side: number[][]) => {
    const want = columns[c].map((v) => {
      let sum = 0
      let n = 0
      for (const u of side[v]) {
        sum += y[u]
        n += 1
      }
      return n > 0 ? sum / n : y[v]
    })
    placeColumn(want, steps[c]).forEach((value, i) => (y[columns[c][i]] = value))
  }
  // A last pass pulls every column towards both sides at once, so a claim sits between its
  // source and the decisions that use it, not against either.
  const both = nodes.map((_, v) => [...left[v], ...right[v]])
  for (let sweep = 0; sweep < PLACE_SWEEPS; sweep++) {
    for (let c = 1; c < columns.length; c++) place(c, left)
    for (let c = columns.length - 2; c >= 0; c--) place(c, right)
  }
  for (let c = 0; c < columns.length; c++) place(c, both)

  let top = Infinity
  for (let v = 0; v < nodes.length; v++) top = Math.min(top, y[v])
  return nodes.map((n, v) => ({
    ...n,
    position: { x: columnX[col[v]], y: Math.round(y[v] - top) },
  }))
}
