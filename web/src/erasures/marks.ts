// Pure: what an erasure's preview says will happen to the nodes on the graph, the same marks a
// correction's preview puts there (flagged, held, stays), the claims that go marked as going.
import type { ErasurePreview } from '../apiTypes'
import type { PreviewMark } from '../types'

export function marksFromErasure(preview: ErasurePreview | null): Map<string, PreviewMark> {
  const marks = new Map<string, PreviewMark>()
  if (!preview) return marks
  for (const c of preview.goes.claims) marks.set(c.id, 'erase')
  for (const s of preview.stay) marks.set(s.decision_id, 'stays')
  for (const f of preview.flag) marks.set(f.decision_id, 'flagged')
  for (const h of preview.hold) marks.set(h.action_id, 'held')
  return marks
}
