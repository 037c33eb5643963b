// The strip under the canvas bar while a resolution is previewed: what it does, in one line,
// with a way back to the conflict and a way out.
import { useWorkspace } from '../workspace'
import type { ResolutionPreview } from './types'
import { stripText } from './words'

interface Props {
  preview: ResolutionPreview
  onBack: () => void
  onDismiss: () => void
}

export function ResolutionStrip({ preview, onBack, onDismiss }: Props) {
  const { names } = useWorkspace()
  return (
    <div className="preview-strip" data-testid="resolution-banner" role="status">
      <span data-testid="resolution-banner-text">{stripText(preview, names)}</span>
      <span className="row">
        <button type="button" className="link" onClick={onBack}>
          back to the conflict
        </button>
        <button type="button" className="link" onClick={onDismiss}>
          close the preview
        </button>
      </span>
    </div>
  )
}
