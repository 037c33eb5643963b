import { describe, expect, it } from 'vitest'
import type { GraphDTO } from '../apiTypes'
import { around, cutWords } from './around'

const n = (id: string, type: string) => ({ id, type, label: id, status: null, data: {} })
const e = (source: string, target: string, type: string) => ({ id: `${type}:${source}->${target}`, source, target, type })

const graph: GraphDTO = {
  view: 'product',
  truncated: true,
  totals: [],
  nodes: [n('s1', 'source'), n('s2', 'source'), n('c1', 'claim'), n('c2', 'claim'), n('c3', 'claim'), n('r1', 'claim'), n('k1', 'correction'), n('d1', 'decision'), n('d2', 'decision'), n('a1', 'action')],
  edges: [
    e('s1', 'c1', 'SUPPORTS'), e('s1', 'c2', 'SUPPORTS'), e('s2', 'c3', 'SUPPORTS'),
    e('c1', 'd1', 'INFORMS'), e('c3', 'd2', 'INFORMS'), e('d1', 'a1', 'ENABLES'),
    e('k1', 'c2', 'CORRECTS'), e('k1', 'r1', 'SUPPORTS'), e('r1', 'c2', 'REPLACES'),
    e('c1', 'c3', 'CONFLICTS'),
  ],
}

const ids = (dto: GraphDTO) => dto.nodes.map((x) => x.id).sort()

describe('around', () => {
  it('narrows to a decision, the claims it rests on, their sources, its actions and the other side of a conflict', () => {
    expect(ids(around(graph, 'd1'))).toEqual(['a1', 'c1', 'c3', 'd1', 's1'])
  })

  it('narrows to a source, its claims, what uses them and their replacements', () => {
    expect(ids(around(graph, 's1'))).toEqual(['a1', 'c1', 'c2', 'c3', 'd1', 'r1', 's1'])
    const edges = around(graph, 's1').edges
    expect(edges.every((x) => ['a1', 'c1', 'c2', 'c3', 'd1', 'r1', 's1'].includes(x.source))).toBe(true)
  })

  it('leaves the graph whole for a node it does not hold', () => {
    expect(around(graph, 'nope')).toBe(graph)
  })
})

describe('cutWords', () => {
  it('says how much is drawn out of how much, only for the kinds the limit cut', () => {
    expect(cutWords([{ type: 'claim', drawn: 5000, total: 15855 }, { type: 'source', drawn: 40, total: 40 }])).toBe('5,000 of 15,855 claims')
    expect(
      cutWords([
        { type: 'claim', drawn: 5000, total: 15855 },
        { type: 'decision', drawn: 5000, total: 6010 },
      ]),
    ).toBe('5,000 of 15,855 claims and 5,000 of 6,010 decisions')
    expect(cutWords([{ type: 'claim', drawn: 5000, total: 5000 }])).toBeNull()
  })
})
