import { describe, expect, it } from 'vitest'
import { DECISION_HEIGHT, NODE_HEIGHT, NODE_SEP, RANK_SEP, layoutGraph, nodeSize, placeColumn, rankOf } from './layout'

const node = (id: string, apiType: string) => ({ id, data: { apiType } })
const edge = (source: string, target: string) => ({ source, target })
/** Where the column after these kinds' columns starts. */
const after = (...kinds: string[]) => kinds.reduce((x, k) => x + nodeSize(k).width + RANK_SEP, 0)

describe('layoutGraph', () => {
  it('shifts dagre centre positions to the top-left corner', () => {
    const [only] = layoutGraph([node('s', 'source')], [])
    // dagre puts the centre at (width/2, height/2); React Flow wants the corner.
    expect(only.position).toEqual({ x: 0, y: 0 })
  })

  it('puts one column per kind, left to right: sources with corrections, claims, decisions, actions', () => {
    const nodes = [
      node('a1', 'action'),
      node('d1', 'decision'),
      node('c1', 'claim'),
      node('c2', 'claim'),
      node('k1', 'correction'),
      node('s1', 'source'),
    ]
    const edges = [edge('s1', 'c1'), edge('k1', 'c2'), edge('c1', 'd1'), edge('c2', 'd1'), edge('d1', 'a1')]
    const x = Object.fromEntries(layoutGraph(nodes, edges).map((n) => [n.id, n.position.x]))
    expect(x.s1).toBe(0)
    expect(x.k1).toBe(0)
    expect(x.c1).toBe(after('source'))
    expect(x.c2).toBe(after('source'))
    expect(x.d1).toBe(after('source', 'claim'))
    expect(x.a1).toBe(after('source', 'claim', 'decision'))
  })

  it('fits the chain of a small workspace in a laptop canvas at a readable zoom', () => {
    // A canvas of 896 px (1280 less the side panel), 16 px each side, text at 0.95.
    const chain = after('source', 'claim', 'decision') + nodeSize('action').width
    expect(chain * 0.95 + 32).toBeLessThanOrEqual(896)
    for (const kind of ['claim', 'decision']) expect(nodeSize(kind).width).toBeGreaterThanOrEqual(200)
  })

  it('keeps the kind order even for a node with no edges and for edges that run backwards', () => {
    // Internal view: Claim -[:SUPPORTED_BY]-> SourceFragment points right to left.
    const nodes = [node('c', 'Claim'), node('f', 'SourceFragment'), node('lonely', 'Action'), node('s', 'Source')]
    const x = Object.fromEntries(layoutGraph(nodes, [edge('c', 'f')]).map((n) => [n.id, n.position.x]))
    expect(x.s).toBeLessThan(x.f)
    expect(x.f).toBeLessThan(x.c)
    expect(x.c).toBeLessThan(x.lonely)
  })

  it('leaves no empty column for a kind that is absent', () => {
    const out = layoutGraph([node('s', 'source'), node('c', 'claim')], [edge('s', 'c')])
    expect(out.find((n) => n.id === 'c')!.position.x).toBe(after('source'))
  })

  it('stacks same-kind nodes without overlap, including ones joined by a same-kind edge', () => {
    const nodes = [node('c', 'claim'), node('d1', 'decision'), node('d2', 'decision'), node('d3', 'decision')]
    const edges = [edge('c', 'd1'), edge('c', 'd2'), edge('d1', 'd2'), edge('d2', 'd3')]
    const ds = layoutGraph(nodes, edges)
      .filter((n) => n.data.apiType === 'decision')
      .map((n) => n.position)
    expect(new Set(ds.map((p) => p.x)).size).toBe(1)
    const ys = ds.map((p) => p.y).sort((a, b) => a - b)
    for (let i = 1; i < ys.length; i++) expect(ys[i] - ys[i - 1]).toBeGreaterThanOrEqual(DECISION_HEIGHT)
  })

  it('ranks product kinds and internal labels in the same order', () => {
    expect(rankOf('source')).toBe(rankOf('correction'))
    expect(rankOf('correction')).toBeLessThan(rankOf('claim'))
    expect(rankOf('claim')).toBeLessThan(rankOf('decision'))
    expect(rankOf('decision')).toBeLessThan(rankOf('action'))
    expect(rankOf('SourceFragment')).toBeLessThan(rankOf('Claim'))
    expect(rankOf('Decision')).toBeLessThan(rankOf('Action'))
  })

  it('returns new objects and leaves the input alone', () => {
    const input = [node('s', 'source')]
    const out = layoutGraph(input, [])
    expect(out[0]).not.toBe(input[0])
    expect('position' in input[0]).toBe(false)
  })
})

describe('placeColumn', () => {
  const STEP = NODE_HEIGHT + NODE_SEP
  it('keeps wanted positions that leave room, and spreads the ones that do not as little as it can', () => {
    expect(placeColumn([0, 500])).toEqual([0, 500])
    // Two nodes wanting the same place share the overlap evenly.
    expect(placeColumn([100, 100])).toEqual([100 - STEP / 2, 100 + STEP / 2])
    const out = placeColumn([0, 10, 20, 400])
    for (let i = 1; i < out.length; i++) expect(out[i] - out[i - 1]).toBeGreaterThanOrEqual(STEP - 1e-9)
    expect(out[3]).toBe(400)
  })
})

describe('layoutGraph ordering', () => {
  it('puts each claim beside the decision it informs, so edges do not cross', () => {
    const nodes = [node('c1', 'claim'), node('c2', 'claim'), node('c3', 'claim'), node('d3', 'decision'), node('d1', 'decision'), node('d2', 'decision')]
    const edges = [edge('c1', 'd1'), edge('c2', 'd2'), edge('c3', 'd3')]
    const y = Object.fromEntries(layoutGraph(nodes, edges).map((n) => [n.id, n.position.y]))
    expect(y.c1).toBe(y.d1)
    expect(y.c2).toBe(y.d2)
    expect(y.c3).toBe(y.d3)
  })

  it('lays out a couple of thousand nodes without overlap in any column', () => {
    const nodes = []
    const edges = []
    for (let i = 0; i < 50; i++) nodes.push(node(`s${i}`, 'source'))
    for (let i = 0; i < 1000; i++) {
      nodes.push(node(`c${i}`, 'claim'))
      edges.push(edge(`s${(i * 7) % 50}`, `c${i}`))
    }
    for (let i = 0; i < 500; i++) {
      nodes.push(node(`d${i}`, 'decision'))
      for (const k of [i, (i * 3 + 1) % 1000, (i * 11 + 5) % 1000]) edges.push(edge(`c${k}`, `d${i}`))
    }
    const out = layoutGraph(nodes, edges)
    const byColumn = new Map<number, number[]>()
    for (const n of out) byColumn.set(n.position.x, [...(byColumn.get(n.position.x) ?? []), n.position.y])
    expect(byColumn.size).toBe(3)
    for (const ys of byColumn.values()) {
      ys.sort((a, b) => a - b)
      for (let i = 1; i < ys.length; i++) expect(ys[i] - ys[i - 1]).toBeGreaterThanOrEqual(NODE_HEIGHT)
    }
  })
})
