import { describe, expect, it } from 'vitest'
import { marksFromErasure } from './marks'
import { IDS, messagePreview } from './testErasure'

describe('an erasure preview on the graph', () => {
  it('marks the claims that go, and the decisions and actions as a correction does', () => {
    const preview = messagePreview()
    preview.hold = [{ action_id: 'act-1', description: 'Call Ana', status: 'approved', decision_ids: [IDS.decision] }]
    preview.stay = [{ decision_id: 'dec-2', title: 'Plan', supported_by: [] }]
    expect([...marksFromErasure(preview)]).toEqual([
      [IDS.phone, 'erase'],
      ['dec-2', 'stays'],
      [IDS.decision, 'flagged'],
      ['act-1', 'held'],
    ])
    expect(marksFromErasure(null).size).toBe(0)
  })
})
