import { describe, expect, it } from 'vitest'
import type { CorrectionPreview } from '../apiTypes'
import type { AppEdge, AppNode } from '../types'
import { decorateEdges, decorateNodes, marksFromPreview } from './decorate'
import { buildFlowIndex, traceImpact } from './impact'

const n = (id: string, type: 'claim' | 'decision' | 'action'): AppNode => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { apiType: type, label: id, status: null, mark: null },
})
const nodes = [n('c', 'claim'), n('d', 'decision'), n('a', 'action'), n('other', 'claim')]
const edges: AppEdge[] = [
  { id: 'cd', source: 'c', target: 'd', data: { apiType: 'INFORMS' } },
  { id: 'da', source: 'd', target: 'a', data: { apiType: 'ENABLES' } },
]

const preview: CorrectionPreview = {
  claim: { id: 'c', statement: 'x', status: 'accepted', revision: 1 },
  kind: 'replace',
  also_states_this: [],
  statement: 'y',
  flag: [{ decision_id: 'd', title: 'D', status: 'draft', reasons: [] }],
  hold: [{ action_id: 'a', description: 'A', status: 'proposed', decision_ids: ['d'] }],
  stay: [{ decision_id: 'd2', title: 'D2', supported_by: [] }],
  revisions: {
    claim_revision: 1,
    impact_token: 't',
    impact: { decisions: {}, actions: {}, claims: {}, upstream: {}, twins: {}, in_other_words: {} },
  },
}

describe('marksFromPreview', () => {
  it('marks the claim, flagged decisions, held actions and decisions that stay supported', () => {
    expect(Object.fromEntries(marksFromPreview(preview))).toEqual({ c: 'target', d: 'flagged', a: 'held', d2: 'stays' })
    expect(marksFromPreview(null).size).toBe(0)
  })

  it('marks what the replacement supersedes with it, but not a claim left out', () => {
    const also = (claim_id: string, in_other_words: boolean, left_out: boolean) => ({
      claim_id, status: 'proposed' as const, revision: 1, statement: 's', evidence_quote: 's',
      source_id: null, source_title: null, in_other_words, left_out,
      value_read: in_other_words ? { kind: 'date' as const, value: 'June 12', in_claim: 'June 12', in_other: 'June 12' } : null,
    })
    const withOthers = { ...preview, also_states_this: [also('t', false, false), also('o', true, false), also('l', true, true)] }
    const marks = marksFromPreview(withOthers)
    expect([marks.get('t'), marks.get('o'), marks.get('l')]).toEqual(['supersede', 'supersede', undefined])
    expect(marksFromPreview({ ...withOthers, kind: 'retract' }).get('o')).toBeUndefined()
  })
})

describe('decorateNodes / decorateEdges', () => {
  it('returns the very same node objects when nothing is selected or previewed', () => {
    const out = decorateNodes(nodes, null, new Map())
    out.forEach((node, i) => expect(node).toBe(nodes[i]))
  })

  it('classes only the impact path and leaves every other node object untouched', () => {
    const impact = traceImpact(buildFlowIndex(edges.map((e) => ({ ...e, type: e.data!.apiType }))), 'c')
    const out = decorateNodes(nodes, impact, new Map())
    expect(out.map((x) => x.className)).toEqual(['is-selected', 'is-downstream', 'is-downstream', undefined])
    expect(out[3]).toBe(nodes[3])
    out.forEach((node, i) => expect(node.data).toBe(nodes[i].data))
    const drawn = decorateEdges(edges, impact)
    expect(drawn.every((e) => e.animated)).toBe(true)
  })

  it('puts preview marks into node data', () => {
    const out = decorateNodes(nodes, null, marksFromPreview(preview))
    expect(out.map((x) => x.data.mark)).toEqual(['target', 'flagged', 'held', null])
    expect(out[3]).toBe(nodes[3])
  })
})
