// Times and timeline events in words, for the time control and the decision's then and now.
import type { TimelineEvent } from '../apiTypes'
import { when } from '../format'

export { when }

const quote = (s: string | null) => (s ? `“${s}”` : '')

/** What happened, in a few words: the time control's marks and its label. */
export function eventText(e: TimelineEvent): string {
  switch (e.kind) {
    case 'source_added':
      return `source added ${quote(e.label)}`
    case 'source_versioned':
      return `new version of ${quote(e.label)}`
    case 'run':
      return `agent run ${quote(e.label)}`
    case 'correction':
      return `correction ${quote(e.label)}`
    case 'conflict_raised':
      return `sources disagree: ${e.label ?? ''}`
    case 'conflict_resolved':
      return `conflict resolved: ${e.label ?? ''}`
    case 'conflict_dismissed':
      return `conflict dismissed: ${e.label ?? ''}`
  }
}

/** The index of the last event at or before `asOf` (the stop the slider shows), or the
 *  "now" stop (events.length) when `asOf` is null. */
export function stopOf(events: TimelineEvent[], asOf: number | null): number {
  if (asOf === null) return events.length
  let found = 0
  events.forEach((e, i) => {
    if (e.at <= asOf) found = i
  })
  return found
}
