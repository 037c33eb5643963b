import { describe, expect, it } from 'vitest'
import { buildFlowIndex, traceImpact, type FlowEdge } from './impact'

const e = (id: string, source: string, target: string, type: string): FlowEdge => ({ id, source, target, type })

// s1 ─SUPPORTS─▶ c1 ─INFORMS─▶ d1 ─ENABLES─▶ a1
// s2 ─SUPPORTS─▶ c2 ─INFORMS─▶ d2 ─ENABLES─▶ a2
//                    d1 ⇄ d2 (INFORMS both ways: a cycle)
// k ─CORRECTS─▶ c1, c3 ─REPLACES─▶ c1 (lineage, not a reason)
const edges = [
  e('e1', 's1', 'c1', 'SUPPORTS'),
  e('e2', 'c1', 'd1', 'INFORMS'),
  e('e3', 'd1', 'a1', 'ENABLES'),
  e('e4', 's2', 'c2', 'SUPPORTS'),
  e('e5', 'c2', 'd2', 'INFORMS'),
  e('e6', 'd2', 'a2', 'ENABLES'),
  e('e7', 'd1', 'd2', 'INFORMS'),
  e('e8', 'd2', 'd1', 'INFORMS'),
  e('e9', 'k', 'c1', 'CORRECTS'),
  e('e10', 'c3', 'c1', 'REPLACES'),
]
const index = buildFlowIndex(edges)

describe('traceImpact', () => {
  it('finds everything downstream of a claim, through a cycle, and stops', () => {
    const impact = traceImpact(index, 'c1')
    expect([...impact.downstream].sort()).toEqual(['a1', 'a2', 'd1', 'd2'])
    expect([...impact.downstreamEdges].sort()).toEqual(['e2', 'e3', 'e6', 'e7', 'e8'])
  })

  it('finds the upstream provenance of a claim in a second set', () => {
    const impact = traceImpact(index, 'c1')
    expect([...impact.upstream].sort()).toEqual(['k', 's1'])
    expect([...impact.upstreamEdges].sort()).toEqual(['e1', 'e9'])
  })

  it('never lists the selected node itself, even when a cycle leads back to it', () => {
    const impact = traceImpact(index, 'd1')
    expect(impact.downstream.has('d1')).toBe(false)
    expect(impact.upstream.has('d1')).toBe(false)
    expect([...impact.downstream].sort()).toEqual(['a1', 'a2', 'd2'])
    // Upstream of d1 runs through the cycle into d2's own support.
    expect([...impact.upstream].sort()).toEqual(['c1', 'c2', 'd2', 'k', 's1', 's2'])
  })

  it('does not treat a replacement as a reason for the claim it replaces', () => {
    const impact = traceImpact(index, 'c3')
    expect(impact.downstream.size).toBe(0)
    expect(impact.upstream.size).toBe(0)
  })

  it('follows stored edges of the internal view in the direction of because', () => {
    const internal = buildFlowIndex([
      e('i1', 'claim', 'frag', 'SUPPORTED_BY'),
      e('i2', 'dec', 'claim', 'USED_CLAIM'),
      e('i3', 'act', 'dec', 'REQUIRES'),
      e('i4', 'ver', 'frag', 'HAS_FRAGMENT'),
    ])
    const impact = traceImpact(internal, 'frag')
    expect([...impact.downstream].sort()).toEqual(['act', 'claim', 'dec'])
    expect([...impact.upstream]).toEqual(['ver'])
  })

  it('handles a node with no edges', () => {
    const impact = traceImpact(index, 'nowhere')
    expect(impact.downstream.size + impact.upstream.size).toBe(0)
  })
})
