// Pure: where the camera starts. Never so far out that node text is smaller than people
// read (11 px): a graph that does not fit at that zoom opens on its decisions, and the rest
// is a pan away.

/** The smallest text inside a node, in CSS px at zoom 1 (App.css `.gnode-head`). */
export const NODE_MIN_FONT_PX = 12
/** The smallest rendered text size the first screen allows. */
export const READABLE_PX = 11
/** A hair above READABLE_PX / NODE_MIN_FONT_PX, so rounding never lands below 11 px. */
export const READABLE_ZOOM = 0.95
export const MAX_FIRST_ZOOM = 1
const PAD = 16

export interface Box {
  position: { x: number; y: number }
  width?: number
  height?: number
  data: { apiType: string }
}

export interface Viewport {
  x: number
  y: number
  zoom: number
}

interface Bounds {
  left: number
  top: number
  right: number
  bottom: number
}

function bounds(nodes: readonly Box[]): Bounds {
  const b = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity }
  for (const n of nodes) {
    b.left = Math.min(b.left, n.position.x)
    b.top = Math.min(b.top, n.position.y)
    b.right = Math.max(b.right, n.position.x + (n.width ?? 0))
    b.bottom = Math.max(b.bottom, n.position.y + (n.height ?? 0))
  }
  return b
}

const FOCUS_KINDS = new Set(['claim', 'decision', 'action'])
const KEY_KINDS = new Set(['decision', 'action'])
/** Room kept above and below the band of decisions, in graph units. */
const MARGIN = 24

/**
 * The first viewport for laid-out nodes in a pane of this size. Fits everything when that
 * keeps text readable; otherwise opens at the readable zoom on what matters: the band of the
 * graph with the most decisions and actions, with the claims beside them.
 */
export function firstViewport(nodes: readonly Box[], pane: { width: number; height: number }): Viewport {
  if (nodes.length === 0 || pane.width <= 0 || pane.height <= 0) return { x: 0, y: 0, zoom: 1 }
  const all = bounds(nodes)
  const innerW = Math.max(1, pane.width - 2 * PAD)
  const innerH = Math.max(1, pane.height - 2 * PAD)
  const fit = Math.min(innerW / (all.right - all.left), innerH / (all.bottom - all.top))
  if (fit >= READABLE_ZOOM) {
    const zoom = Math.min(MAX_FIRST_ZOOM, fit)
    return centred(all, pane, zoom)
  }
  const zoom = READABLE_ZOOM
  const viewW = innerW / zoom
  const viewH = innerH / zoom
  // Product kinds and the internal view's labels alike ('decision', 'Decision').
  const kind = (n: Box) => n.data.apiType.toLowerCase()
  const focusNodes = nodes.filter((n) => FOCUS_KINDS.has(kind(n)))
  const focus = focusNodes.length > 0 ? bounds(focusNodes) : all
  const key = nodes.filter((n) => KEY_KINDS.has(kind(n)))

  // Vertically: the band that shows the most decisions and actions, centred on them.
  let top: number
  let band: Box[] = []
  if (all.bottom - all.top <= viewH) top = (all.top + all.bottom) / 2 - viewH / 2
  else if (key.length === 0) top = focus.top
  else {
    band = densestBand(key, viewH - 2 * MARGIN)
    const b = bounds(band)
    top = (b.top + b.bottom) / 2 - viewH / 2
  }

  // Horizontally: everything if it fits; else whole columns, never a box cut at the edge:
  // the claims, decisions and actions, with as many columns to their left (then right) as
  // the width leaves; else centred on the band's first decision.
  let left: number
  const decisions = (band.length ? band : key).filter((n) => kind(n) === 'decision')
  const first = decisions.length ? decisions.reduce((a, b) => (b.position.y < a.position.y ? b : a)) : null
  const shown = all.right - all.left <= viewW ? null : wholeColumns(nodes, focus, viewW, PAD / zoom)
  if (all.right - all.left <= viewW) left = (all.left + all.right) / 2 - viewW / 2
  else if (shown) left = shown
  else if (!first) left = Math.min(focus.left, focus.right - viewW)
  else left = first.position.x + (first.width ?? 0) / 2 - viewW / 2
  return { x: PAD - left * zoom, y: PAD - top * zoom, zoom }
}

interface Column {
  left: number
  right: number
}

/** The graph's columns, left to right: node boxes that overlap horizontally share one. */
function columnsOf(nodes: readonly Box[]): Column[] {
  const spans = nodes.map((n) => ({ left: n.position.x, right: n.position.x + (n.width ?? 0) })).sort((a, b) => a.left - b.left)
  const out: Column[] = []
  for (const s of spans) {
    const last = out[out.length - 1]
    if (last && s.left < last.right) last.right = Math.max(last.right, s.right)
    else out.push({ ...s })
  }
  return out
}

/**
 * Where the view's left edge goes so that the columns holding `focus` are whole in a view
 * `viewW` wide, with as many whole columns beside them as fit (left first: where claims come
 * from), and no column beyond them cut at either edge, nor in the `pad` the view keeps
 * outside it on each side. Null when the focus does not fit.
 */
function wholeColumns(nodes: readonly Box[], focus: Bounds, viewW: number, pad: number): number | null {
  const cols = columnsOf(nodes)
  let i = cols.findIndex((c) => c.right > focus.left)
  let j = cols.length - 1 - [...cols].reverse().findIndex((c) => c.left < focus.right)
  if (i < 0 || j < i) return null
  const width = (a: number, b: number) => cols[b].right - cols[a].left
  if (width(i, j) > viewW) return null
  while (i > 0 && width(i - 1, j) <= viewW) i -= 1
  while (j < cols.length - 1 && width(i, j + 1) <= viewW) j += 1
  // Any left edge in [lo, hi] shows columns i..j whole and nothing of their neighbours.
  const lo = Math.max(cols[j].right - viewW, i > 0 ? cols[i - 1].right + pad : -Infinity)
  const hi = Math.min(cols[i].left, j < cols.length - 1 ? cols[j + 1].left - viewW - pad : Infinity)
  const centred = (cols[i].left + cols[j].right) / 2 - viewW / 2
  if (lo <= hi) return Math.min(hi, Math.max(lo, centred))
  return Math.min(cols[i].left, Math.max(cols[j].right - viewW, centred))
}

/** The longest run of nodes (sorted by top) that fits in `height`; two pointers, O(n log n). */
function densestBand(nodes: readonly Box[], height: number): Box[] {
  const sorted = [...nodes].sort((a, b) => a.position.y - b.position.y)
  let best = [0, 1]
  let end = 0
  for (let start = 0; start < sorted.length; start++) {
    end = Math.max(end, start + 1)
    const limit = sorted[start].position.y + height
    while (end < sorted.length && sorted[end].position.y + (sorted[end].height ?? 0) <= limit) end += 1
    if (end - start > best[1] - best[0]) best = [start, end]
  }
  return sorted.slice(best[0], best[1])
}

function centred(b: Bounds, pane: { width: number; height: number }, zoom: number): Viewport {
  const cx = (b.left + b.right) / 2
  const cy = (b.top + b.bottom) / 2
  return { x: pane.width / 2 - cx * zoom, y: pane.height / 2 - cy * zoom, zoom }
}
