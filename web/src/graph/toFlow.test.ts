import { describe, expect, it } from 'vitest'
import type { GraphDTO } from '../apiTypes'
import { productKind, toFlow } from './toFlow'

const dto: GraphDTO = {
  view: 'product',
  truncated: false,
  totals: [],
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

  it('draws an open conflict as a bracket between the two claims’ left sides, without an arrowhead, the two side by side', () => {
    const world: GraphDTO = {
      view: 'product',
      truncated: false,
      totals: [],
      nodes: [
        { id: 'm', type: 'source', label: 'March memo', status: null, data: {} },
        { id: 'a', type: 'source', label: 'April memo', status: null, data: {} },
        ...['c12', 'x1', 'x2', 'c19'].map((id) => ({ id, type: 'claim', label: id, status: 'proposed', data: {} })),
        { id: 'd', type: 'decision', label: 'Plan', status: 'draft', data: {} },
      ],
      edges: [
        { id: 'e1', source: 'm', target: 'c12', type: 'SUPPORTS' },
        { id: 'e2', source: 'm', target: 'x1', type: 'SUPPORTS' },
        { id: 'e3', source: 'a', target: 'x2', type: 'SUPPORTS' },
        { id: 'e4', source: 'a', target: 'c19', type: 'SUPPORTS' },
        { id: 'e5', source: 'c12', target: 'd', type: 'INFORMS' },
        { id: 'CONFLICTS:k', source: 'c12', target: 'c19', type: 'CONFLICTS' },
      ],
    }
    const { nodes, edges } = toFlow(world, 'product')
    const conflict = edges.find((e) => e.id === 'CONFLICTS:k')!
    expect(conflict).toMatchObject({ type: 'conflict', sourceHandle: 'left-out', targetHandle: 'left', markerEnd: undefined })
    expect('markerEnd' in conflict).toBe(true) // set, so the canvas's default arrowhead does not apply
    expect(edges.find((e) => e.id === 'e5')!.type).toBeUndefined()
    // The layout pulls the two sides together: nothing stands between them in their column.
    const y = new Map(nodes.map((n) => [n.id, n.position.y]))
    const [lo, hi] = [y.get('c12')!, y.get('c19')!].sort((p, q) => p - q)
    const between = ['x1', 'x2'].filter((id) => y.get(id)! > lo && y.get(id)! < hi)
    expect(between).toEqual([])
  })
})
