import { describe, expect, it } from 'vitest'
import type { TimelineEvent } from '../apiTypes'
import { eventText, stopOf } from './when'

const events: TimelineEvent[] = [
  { at: 100, kind: 'source_added', subject_id: 's', label: 'March memo' },
  { at: 200, kind: 'run', subject_id: 'r', label: 'Plan the launch' },
  { at: 300, kind: 'correction', subject_id: 'c', label: 'The venue is the Park Pavilion.' },
]

describe('the time control', () => {
  it('stops at the last event at or before the moment shown, or at now', () => {
    expect(stopOf(events, null)).toBe(3)
    expect(stopOf(events, 250)).toBe(1)
    expect(stopOf(events, 300)).toBe(2)
    expect(stopOf(events, 50)).toBe(0)
  })

  it('names each event in words', () => {
    expect(events.map(eventText)).toEqual([
      'source added “March memo”',
      'agent run “Plan the launch”',
      'correction “The venue is the Park Pavilion.”',
    ])
  })
})
