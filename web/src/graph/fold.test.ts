import { describe, expect, it } from 'vitest'
import { IDS, LAUNCH } from '../testWorld'
import { foldableClaims, foldGraph } from './fold'

const none = new Set<string>()
const ids = (dto: { nodes: { id: string }[] }) => new Set(dto.nodes.map((n) => n.id))

describe('foldGraph', () => {
  it('shows decisions, actions, the claims they rest on and the replacement beside its old claim', () => {
    const folded = foldGraph(LAUNCH, { expanded: none, showAll: false, keep: none })
    const shown = ids(folded.dto)
    for (const id of [IDS.june, IDS.venue, IDS.support, IDS.july, IDS.fix, IDS.event, IDS.book, IDS.plan, IDS.ops]) {
      expect(shown.has(id), id).toBe(true)
    }
    // Nothing uses the backup claim: it folds into its source, which says how many.
    expect(shown.has(IDS.backup)).toBe(false)
    expect(folded.hidden.get(IDS.ops)).toBe(1)
    expect(folded.hiddenTotal).toBe(1)
    expect(folded.dto.edges.some((e) => e.source === IDS.backup || e.target === IDS.backup)).toBe(false)
  })

  it('unfolds a source on demand, a kept node alone, or everything', () => {
    expect(ids(foldGraph(LAUNCH, { expanded: new Set([IDS.ops]), showAll: false, keep: none }).dto).has(IDS.backup)).toBe(true)
    const kept = foldGraph(LAUNCH, { expanded: none, showAll: false, keep: new Set([IDS.backup]) })
    expect(ids(kept.dto).has(IDS.backup)).toBe(true)
    expect(kept.hiddenTotal).toBe(0)
    expect(foldGraph(LAUNCH, { expanded: none, showAll: true, keep: none }).dto).toBe(LAUNCH)
  })

  it('folds nothing in a workspace with no decision yet: its claims are all there is to see', () => {
    const early = { ...LAUNCH, nodes: LAUNCH.nodes.filter((n) => n.type === 'source' || n.type === 'claim') }
    const folded = foldGraph(early, { expanded: none, showAll: false, keep: none })
    expect(folded.active).toBe(false)
    expect(folded.dto).toBe(early)
  })

  it('knows which claims would fold, before anything is kept', () => {
    expect(foldableClaims(LAUNCH, none)).toEqual(new Set([IDS.backup]))
    expect(foldableClaims(LAUNCH, new Set([IDS.ops]))).toEqual(new Set())
  })

  it('never folds a claim in an open conflict: both sides stay in sight, the other unused ones fold', () => {
    const hourly = 'c1a2b3c4-0000-4000-8000-00000000000b'
    const quarterly = 'c1a2b3c4-0000-4000-8000-00000000000c'
    const world = {
      ...LAUNCH,
      nodes: [
        ...LAUNCH.nodes,
        { id: hourly, type: 'claim', label: 'The database is backed up every hour.', status: 'proposed', data: {} },
        { id: quarterly, type: 'claim', label: 'Restores are tested every quarter.', status: 'proposed', data: {} },
      ],
      edges: [
        ...LAUNCH.edges,
        { id: `SUPPORTS:${IDS.ops}->${hourly}`, source: IDS.ops, target: hourly, type: 'SUPPORTS' },
        { id: `SUPPORTS:${IDS.ops}->${quarterly}`, source: IDS.ops, target: quarterly, type: 'SUPPORTS' },
        { id: 'CONFLICTS:k1', source: IDS.backup, target: hourly, type: 'CONFLICTS' },
      ],
    }
    expect(foldableClaims(world, none)).toEqual(new Set([quarterly]))
    const folded = foldGraph(world, { expanded: none, showAll: false, keep: none })
    expect(ids(folded.dto).has(IDS.backup) && ids(folded.dto).has(hourly)).toBe(true)
    expect(folded.dto.edges.map((e) => e.id)).toContain('CONFLICTS:k1')
    expect(folded.hidden.get(IDS.ops)).toBe(1)
  })
})
