// A text with its erased spans drawn as markers: the reader sees that words were taken out
// there, and nothing of them.
import { ERASED_MARK, splitErased } from './words'

export function WithErased({ text }: { text: string }) {
  if (!text.includes(ERASED_MARK)) return <>{text}</>
  return (
    <>
      {splitErased(text).map((part, i) =>
        part.erased ? (
          <span key={i} className="erased-mark" data-testid="erased-mark" title="Words erased here">
            erased
          </span>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  )
}
