import { describe, expect, it } from 'vitest'
import { IDS, LAUNCH } from '../testWorld'
import { searchNodes } from './search'

describe('searchNodes', () => {
  it('finds nodes whose label holds every word typed, any case, earliest match first', () => {
    const hits = searchNodes(LAUNCH, 'launch PLANNED')
    expect(new Set(hits.map((h) => h.id))).toEqual(new Set([IDS.july, IDS.june, IDS.fix]))
    expect(searchNodes(LAUNCH, 'launch').map((h) => h.label).slice(0, 2)).toEqual(['Launch plan', 'The launch venue is the Berlin Congress Hall.'])
    expect(searchNodes(LAUNCH, 'venue')[0]).toMatchObject({ kind: 'decision', label: 'Book the venue' })
  })

  it('finds nothing for nothing typed, and stops at the limit', () => {
    expect(searchNodes(LAUNCH, '   ')).toEqual([])
    expect(searchNodes(LAUNCH, 'the', 2)).toHaveLength(2)
  })
})
