// The strip under the canvas bar while a resolution is previewed: what it does, in one line,
// with a way back to the conflict and a way out.
import { useWorkspace } from '../workspace'
import type { ResolutionPreview } from './types'
import { resolutionSummary } from './words'

interface Props {
  preview: ResolutionPreview
  onBack: () => void
  onDismiss: () => void
}

export function ResolutionStrip({ preview, onBack, onDismiss }: Props) {
  const { names } = useWorkspace()
  return (
    <div className="preview-strip" data-testid="resolution-banner" role="status">
      <span>
        <b>Previewing {preview.resolution === 'keep' ? 'a resolution' : 'a dismissal'}:</b>{' '}
        {resolutionSummary(preview, names, 'preview')}
      </span>
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
