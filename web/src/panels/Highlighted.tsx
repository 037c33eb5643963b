import type { Segment } from '../apiTypes'
import { WithErased } from '../erasures/Erased'

// The server splits the text around the quote (docs/api.md `segments`): it counts code points,
// JavaScript counts UTF-16 units, so offsets are never re-counted here.
export function Highlighted({ segments }: { segments: Segment[] }) {
  return (
    <span className="highlighted">
      {segments.map((s, i) =>
        s.highlight ? (
          <mark key={i} data-testid="evidence-quote">
            <WithErased text={s.text} />
          </mark>
        ) : (
          <span key={i}>
            <WithErased text={s.text} />
          </span>
        ),
      )}
    </span>
  )
}
