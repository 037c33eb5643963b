import type { CorrectionPreview, FlagReason } from '../apiTypes'
import { shortId } from '../claims'
import { NodeLink, type SelectById } from './common'

function reasonText(reason: FlagReason, preview: CorrectionPreview): string {
  if (reason.type === 'premise_lost') {
    const premise = reason.premise ? `premise “${reason.premise}”` : 'its only premise'
    return `${premise} loses its last current claim`
  }
  const upstream = preview.flag.find((f) => f.decision_id === reason.decision_id)
  return `it depends on “${upstream?.title ?? shortId(reason.decision_id)}”, which falls`
}

// What apply will do, in the words of the preview: flagged, held, and what stays and why.
export function PreviewList({ preview, onSelect }: { preview: CorrectionPreview; onSelect: SelectById }) {
  const nothing = preview.flag.length + preview.hold.length + preview.stay.length === 0
  return (
    <div className="preview" data-testid="preview-panel">
      {nothing && <p className="muted">No decision uses this claim: nothing else changes.</p>}
      {preview.flag.length > 0 && (
        <>
          <h4 className="flag">Will be flagged for review</h4>
          <ul>
            {preview.flag.map((f) => (
              <li key={f.decision_id} data-testid="preview-flagged" data-id={f.decision_id}>
                <NodeLink id={f.decision_id} kind="decision" onSelect={onSelect}>
                  {f.title}
                </NodeLink>
                <ul className="reasons">
                  {f.reasons.map((r, i) => (
                    <li key={i}>because {reasonText(r, preview)}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </>
      )}
      {preview.hold.length > 0 && (
        <>
          <h4 className="hold">Will be held</h4>
          <ul>
            {preview.hold.map((h) => (
              <li key={h.action_id} data-testid="preview-held" data-id={h.action_id}>
                <NodeLink id={h.action_id} kind="action" onSelect={onSelect}>
                  {h.description}
                </NodeLink>{' '}
                <span className="muted">({h.status} now; it requires a flagged decision)</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {preview.stay.length > 0 && (
        <>
          <h4 className="stay">Stays supported</h4>
          <ul>
            {preview.stay.map((s) => (
              <li key={s.decision_id} data-testid="preview-stays" data-id={s.decision_id}>
                <NodeLink id={s.decision_id} kind="decision" onSelect={onSelect}>
                  {s.title}
                </NodeLink>
                <ul className="reasons">
                  {s.supported_by.map((p, i) => (
                    <li key={i}>
                      {p.premise ? `“${p.premise}”` : 'its claims'} still held by{' '}
                      {p.claim_ids.map((id) => (
                        <NodeLink key={id} id={id} kind="claim" onSelect={onSelect} />
                      ))}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
