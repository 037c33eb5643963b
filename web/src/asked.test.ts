import { describe, expect, it } from 'vitest'
import type { GraphDTO } from './apiTypes'
import { askedTimes, askedWords } from './asked'
import { buildNames } from './names'

const Q = 'When is the launch, and when should the press release go out?'
const AT = Date.UTC(2026, 3, 14, 12, 20)
const decision = (id: string, label: string, at: number) => ({ id, type: 'decision', label, status: 'draft', data: { created_at: at, run_id: `run-${id}` } })
const graph: GraphDTO = {
  view: 'product',
  truncated: false,
  totals: [],
  nodes: [decision('d2', Q, AT + 60_000), decision('d1', Q, AT), decision('d3', 'Plan the launch event', AT + 5_000)],
  edges: [],
}

describe('decisions from the same question', () => {
  it('are numbered by when they were made, the question kept whole', () => {
    const asked = askedTimes(graph)
    expect(asked.get('d1')).toEqual({ at: AT, nth: 1, of: 2 })
    expect(asked.get('d2')).toEqual({ at: AT + 60_000, nth: 2, of: 2 })
    expect(asked.get('d3')).toEqual({ at: AT + 5_000, nth: 1, of: 1 })
    expect(buildNames(graph).askedOf('d2')?.nth).toBe(2)
    expect(buildNames(graph).get('d2')?.label).toBe(Q)
  })

  it('say when, and which one, in words', () => {
    const asked = askedTimes(graph)
    const now = AT + 3_600_000
    expect(askedWords(asked.get('d1')!, now, { timeZone: 'UTC' })).toBe('decided today at 12:20 · 1st of 2')
    expect(askedWords(asked.get('d2')!, now, { short: true, timeZone: 'UTC' })).toBe('today at 12:21 · 2nd of 2')
    expect(askedWords(asked.get('d3')!, now, { timeZone: 'UTC' })).toBe('decided today at 12:20')
  })
})
