import { describe, expect, it } from 'vitest'
import { IDS, LAUNCH } from '../testWorld'
import { FOUND_WORDS, searchNodes, withFound } from './search'

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

describe('withFound', () => {
  const claim = (id: string, statement: string, match: 'words' | 'meaning' | 'both' | 'neighbour') => ({
    id,
    statement,
    status: 'proposed' as const,
    confidence: 1,
    confidence_kind: 'quote_match' as const,
    source_id: 's',
    revision: 1,
    created_at: 1,
    found_by: { match, text: match === 'words' || match === 'both', vector_distance: null, neighbour_of: null },
  })

  it('says how each hit was found: the drawn ones by their words unless the server says more, then what only the server found', () => {
    const drawn = searchNodes(LAUNCH, 'launch')
    const june = drawn.find((h) => h.id === IDS.june)!
    const hits = withFound(drawn, [claim(IDS.june, june.label, 'both'), claim('far', 'The venue holds 300 guests.', 'meaning'), claim('next', 'Catering is booked.', 'neighbour')])
    expect(hits.slice(0, drawn.length).map((h) => h.id)).toEqual(drawn.map((h) => h.id))
    expect(hits.find((h) => h.id === IDS.june)!.how).toBe('both')
    expect(hits.filter((h) => h.id !== IDS.june && drawn.some((d) => d.id === h.id)).every((h) => h.how === 'words')).toBe(true)
    expect(hits.slice(drawn.length).map((h) => [h.id, h.kind, h.how])).toEqual([
      ['far', 'claim', 'meaning'],
      ['next', 'claim', 'neighbour'],
    ])
    expect(hits.map((h) => FOUND_WORDS[h.how]).every((w) => w.length > 0)).toBe(true)
  })
})
