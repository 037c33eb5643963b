import { describe, expect, it } from 'vitest'
import { legendCounts, statusStyle } from './styles'

describe('statusStyle', () => {
  it('strikes through and dashes a superseded node', () => {
    const s = statusStyle('superseded')
    expect(s).toMatchObject({ struck: true, dashed: true })
    expect(s.className).toContain('is-struck')
    expect(s.className).toContain('is-dashed')
  })

  it('colours needs_review amber and held grey', () => {
    expect(statusStyle('needs_review').tone).toBe('amber')
    expect(statusStyle('held').tone).toBe('grey')
  })

  it('mutes rejected and cancelled', () => {
    expect(statusStyle('rejected').tone).toBe('muted')
    expect(statusStyle('cancelled').tone).toBe('muted')
  })

  it('dashes a withheld claim and an erased one, each in its own tone', () => {
    expect(statusStyle('withheld')).toMatchObject({ tone: 'withheld', dashed: true, struck: false })
    expect(statusStyle('erased')).toMatchObject({ tone: 'erased', dashed: true, struck: false })
    expect(statusStyle('erased').className).toBe('tone-erased is-dashed')
  })

  it('draws current, accepted and unknown statuses normally', () => {
    for (const status of ['proposed', 'accepted', 'draft', 'approved', 'done', null, undefined, 'something_new']) {
      expect(statusStyle(status)).toEqual({ tone: 'normal', struck: false, dashed: false, className: 'tone-normal' })
    }
  })
})

describe('legendCounts', () => {
  it('counts nodes per legend row: unknown statuses as current, no status not at all', () => {
    expect(
      legendCounts(['accepted', 'proposed', 'new_one', null, 'needs_review', 'held', 'held', 'superseded', 'cancelled', 'rejected']),
    ).toEqual({ current: 3, needs_review: 1, held: 2, superseded: 1, rejected: 2, withheld: 0, erased: 0 })
    expect(legendCounts(['erased', 'withheld', 'erased'])).toMatchObject({ current: 0, withheld: 1, erased: 2 })
  })
})
