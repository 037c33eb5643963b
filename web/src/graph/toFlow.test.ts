import { describe, expect, it } from 'vitest'
import type { GraphDTO } from '../apiTypes'
import { productKind, toFlow } from './toFlow'

const dto: GraphDTO = {
  nodes: [
    { id: 's', type: 'source', label: 'Launch plan', status: null, data: {} },
    { id: 'c', type: 'claim', label: 'June 12', status: 'superseded', data: {} },
    { id: 'r', type: 'claim', label: 'July 15', status: 'proposed', data: {} },
    { id: 'd', type: 'decision', label: 'Plan', status: 'needs_review', data: {} },
  ],
  edges: [
    { id: 'e1', source: 's', target: 'c', type: 'SUPPORTS' },
    { id: 'e2', source: 'c', target: 'd', type: 'INFORMS' },
    { id: 'e3', source: 'r', target: 'c', type: 'REPLACES' },
    { id: 'e4', source: 'c', target: 'gone', type: 'INFORMS' },
  ],
}

describe('toFlow', () => {
  it('maps API types to node components, keeping the API type and status in data', () => {
    const { nodes } = toFlow(dto, 'product')
    expect(nodes.map((n) => n.type)).toEqual(['source', 'claim', 'claim', 'decision'])
    expect(nodes[1].data).toMatchObject({ apiType: 'claim', label: 'June 12', status: 'superseded', mark: null })
    const internal = toFlow({ ...dto, nodes: dto.nodes.map((n) => ({ ...n, type: 'SourceFragment' })) }, 'internal')
    expect(new Set(internal.nodes.map((n) => n.type))).toEqual(new Set(['stored']))
  })

  it('drops edges to nodes the response does not contain, and routes same-column edges between facing sides', () => {
    const { nodes, edges } = toFlow(dto, 'product')
    expect(edges.map((e) => e.id)).toEqual(['e1', 'e2', 'e3'])
    const replaces = edges.find((e) => e.id === 'e3')!
    const y = (id: string) => nodes.find((n) => n.id === id)!.position.y
    const handles = [replaces.sourceHandle, replaces.targetHandle]
    // r replaces c in the same column: the edge leaves r on the side that faces c.
    if (y('c') >= y('r')) expect(handles).toEqual(['bottom', 'top'])
    else expect(handles).toEqual(['top-out', 'bottom-in'])
    expect(y('c')).not.toBe(y('r'))
    const informs = edges.find((e) => e.id === 'e2')!
    expect([informs.sourceHandle, informs.targetHandle]).toEqual(['right', 'left'])
  })

  it('knows the product kind of internal labels too', () => {
    expect(productKind('Claim')).toBe('claim')
    expect(productKind('decision')).toBe('decision')
    expect(productKind('SourceFragment')).toBeNull()
  })
})
