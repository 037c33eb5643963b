import { describe, expect, it } from 'vitest'
import { NODE_HEIGHT, NODE_WIDTH, RANK_SEP, layoutGraph, nodeSize } from './layout'
import { firstViewport, NODE_MIN_FONT_PX, READABLE_PX, READABLE_ZOOM } from './viewport'

const box = (apiType: string, col: number, row: number) => ({
  data: { apiType },
  width: NODE_WIDTH,
  height: NODE_HEIGHT,
  position: { x: col * (NODE_WIDTH + RANK_SEP), y: row * (NODE_HEIGHT + 16) },
})

function columns(rows: number) {
  const nodes = []
  for (let r = 0; r < rows; r++) {
    nodes.push(box('source', 0, r), box('claim', 1, r), box('decision', 2, r), box('action', 3, r))
  }
  return nodes
}

/** Where a graph point lands on screen. */
const onScreen = (v: { x: number; y: number; zoom: number }, x: number, y: number) => ({ x: x * v.zoom + v.x, y: y * v.zoom + v.y })

describe('firstViewport', () => {
  it('never opens so far out that the smallest node text is under 11 px', () => {
    expect(NODE_MIN_FONT_PX * READABLE_ZOOM).toBeGreaterThanOrEqual(READABLE_PX)
    for (const rows of [1, 5, 40, 400]) {
      for (const pane of [{ width: 1280, height: 700 }, { width: 390, height: 300 }]) {
        expect(firstViewport(columns(rows), pane).zoom).toBeGreaterThanOrEqual(READABLE_ZOOM)
      }
    }
  })

  it('fits and centres a graph that fits at a readable zoom, never above 100 %', () => {
    const v = firstViewport(columns(1), { width: 1400, height: 600 })
    expect(v.zoom).toBe(1)
    const left = onScreen(v, 0, 0)
    const right = onScreen(v, 3 * (NODE_WIDTH + RANK_SEP) + NODE_WIDTH, NODE_HEIGHT)
    expect(left.x).toBeCloseTo(1400 - right.x)
    expect(left.y).toBeCloseTo(600 - right.y)
  })

  it('opens a tall graph on its claims, decisions and actions, side by side', () => {
    const pane = { width: 900, height: 600 }
    const v = firstViewport(columns(40), pane)
    const actionsRight = onScreen(v, 3 * (NODE_WIDTH + RANK_SEP) + NODE_WIDTH, 0)
    const claimsLeft = onScreen(v, 1 * (NODE_WIDTH + RANK_SEP), 0)
    expect(actionsRight.x).toBeLessThanOrEqual(pane.width)
    expect(claimsLeft.x).toBeGreaterThanOrEqual(0)
  })

  it('opens on the band with the most decisions, not on the top of a long claim column', () => {
    const nodes = []
    for (let r = 0; r < 60; r++) nodes.push(box('claim', 1, r))
    for (const r of [2, 30, 31, 32, 33, 34]) nodes.push(box('decision', 2, r))
    const pane = { width: 900, height: 600 }
    const v = firstViewport(nodes, pane)
    for (const r of [30, 34]) {
      const top = onScreen(v, 0, r * (NODE_HEIGHT + 16))
      const bottom = onScreen(v, 0, r * (NODE_HEIGHT + 16) + NODE_HEIGHT)
      expect(top.y).toBeGreaterThanOrEqual(0)
      expect(bottom.y).toBeLessThanOrEqual(pane.height)
    }
  })

  it('centres a phone on the first decision when the columns do not fit', () => {
    const nodes = columns(10)
    const v = firstViewport(nodes, { width: 390, height: 400 })
    const first = onScreen(v, 2 * (NODE_WIDTH + RANK_SEP) + NODE_WIDTH / 2, 0)
    expect(first.x).toBeCloseTo(195)
    expect(first.y).toBeGreaterThanOrEqual(0)
  })

  it('never cuts a node at the left or right edge where the claims, decisions and actions fit', () => {
    // Sources, a correction, claims, decisions, an action: laid out as the UI does.
    const kinds = ['source', 'source', 'source', 'correction', 'claim', 'claim', 'claim', 'claim', 'claim', 'decision', 'decision', 'decision', 'action']
    const nodes = kinds.map((apiType, i) => ({ id: `n${i}`, data: { apiType } }))
    const edges = [
      ['n0', 'n4'], ['n1', 'n5'], ['n2', 'n6'], ['n3', 'n7'], ['n0', 'n8'],
      ['n4', 'n9'], ['n5', 'n10'], ['n6', 'n11'], ['n7', 'n9'], ['n8', 'n10'], ['n9', 'n12'],
    ].map(([source, target]) => ({ source, target }))
    const boxes = layoutGraph(nodes, edges).map((n) => ({ ...n, ...nodeSize(n.data.apiType) }))
    for (const pane of [{ width: 896, height: 640 }, { width: 800, height: 520 }, { width: 720, height: 500 }]) {
      const v = firstViewport(boxes, pane)
      const seen = boxes.filter((b) => {
        const l = onScreen(v, b.position.x, 0).x
        const r = onScreen(v, b.position.x + b.width, 0).x
        expect(r <= 0.5 || l >= pane.width - 0.5 || (l >= -0.5 && r <= pane.width + 0.5)).toBe(true)
        return l >= -0.5 && r <= pane.width + 0.5
      })
      // The decisions are always among what is seen.
      expect(seen.filter((b) => b.data.apiType === 'decision')).toHaveLength(3)
      if (pane.width === 896) {
        // A laptop's canvas holds the whole chain, every node whole, at a readable zoom.
        expect(seen).toHaveLength(boxes.length)
        expect(v.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM)
        for (const b of boxes) {
          expect(onScreen(v, 0, b.position.y).y).toBeGreaterThanOrEqual(0)
          expect(onScreen(v, 0, b.position.y + b.height).y).toBeLessThanOrEqual(pane.height)
        }
      }
    }
  })
})
