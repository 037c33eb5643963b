import { describe, expect, it } from 'vitest'
import type { GraphDTO } from './apiTypes'
import { buildNames } from './names'

const claim = (id: string, label: string, status = 'proposed') => ({ id, type: 'claim', label, status, data: {} })

describe('names', () => {
  it('follows a chain of replacements to the claim that holds now', () => {
    const dto = {
      view: 'product',
      nodes: [claim('c12', 'June 12', 'superseded'), claim('c19', 'June 19', 'superseded'), claim('c26', 'June 26')],
      edges: [
        { id: 'r1', source: 'c19', target: 'c12', type: 'REPLACES' },
        { id: 'r2', source: 'c26', target: 'c19', type: 'REPLACES' },
      ],
    } as unknown as GraphDTO
    const names = buildNames(dto)
    expect(names.currentReplacementOf('c12')).toBe('c26')
    expect(names.currentReplacementOf('c19')).toBe('c26')
    expect(names.currentReplacementOf('c26')).toBeUndefined()
  })

  it('lists the open conflicts a claim is in, from either side', () => {
    const dto = {
      view: 'product',
      nodes: [claim('a', '40,000'), claim('b', '45,000'), claim('c', '50,000')],
      edges: [
        { id: 'CONFLICTS:k1', source: 'a', target: 'b', type: 'CONFLICTS', data: { conflict_id: 'k1', kind: 'amount', reason: 'r', status: 'open' } },
        { id: 'CONFLICTS:k2', source: 'a', target: 'c', type: 'CONFLICTS', data: { conflict_id: 'k2', kind: 'amount', reason: 'r', status: 'open' } },
        { id: 'CONFLICTS:k3', source: 'b', target: 'c', type: 'CONFLICTS', data: { conflict_id: 'k3', kind: 'amount', reason: 'r', status: 'resolved' } },
      ],
    } as unknown as GraphDTO
    const names = buildNames(dto)
    expect(names.openConflictsOf('a').map((k) => [k.conflictId, k.otherId])).toEqual([['k1', 'b'], ['k2', 'c']])
    expect(names.openConflictsOf('c').map((k) => k.otherId)).toEqual(['a'])
  })
})
