import { describe, expect, it } from 'vitest'
import type { ClaimView, GraphDTO } from '../apiTypes'
import { claimAsGraph, withMore } from './drawMore'

const claim = {
  id: 'c1',
  statement: 'Crate 7 holds 28 valves.',
  status: 'proposed',
  confidence_kind: 'extracted',
  source_id: 's1',
  revision: 1,
  origin: { type: 'document', name: 'Depot', source_id: 's1', source_title: 'Depot', version: 1 },
  used_by: [{ decision_id: 'd1', title: 'Count the valves', status: 'draft', premise: 'p' }],
} as unknown as ClaimView

describe('drawing a claim the graph view did not draw', () => {
  it('draws it with its source and the decisions resting on it, keeping what is drawn', () => {
    const piece = claimAsGraph(claim)
    expect(piece.nodes.map((n) => [n.id, n.type])).toEqual([
      ['c1', 'claim'],
      ['s1', 'source'],
      ['d1', 'decision'],
    ])
    expect(piece.edges.map((e) => e.type)).toEqual(['SUPPORTS', 'INFORMS'])
    const drawn = {
      view: 'product',
      nodes: [{ id: 's1', type: 'source', label: 'Depot (drawn)', status: null, data: {} }],
      edges: [],
      truncated: true,
      totals: [],
    } as unknown as GraphDTO
    const both = withMore(drawn, [piece])!
    expect(both.nodes.map((n) => n.id)).toEqual(['s1', 'c1', 'd1'])
    expect(both.nodes[0].label).toBe('Depot (drawn)')
    expect(both.truncated).toBe(true)
    expect(withMore(drawn, [])).toBe(drawn)
  })
})
