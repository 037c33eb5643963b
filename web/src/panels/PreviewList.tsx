import { heldBecausePhrase, impactSummary, previewFlagPhrases, stillSupportedPhrase, type ImpactPreview } from '../reasons'
import { useWorkspace } from '../workspace'
import { NodeLink, PhraseView, type SelectById } from './common'

interface Props {
  /** A correction's preview, or a conflict resolution's (the same flag, hold and stay). */
  preview: ImpactPreview
  onSelect: SelectById
  /** 'past' once applied: the same lists, said as what happened. */
  tense?: 'preview' | 'past'
  /** The one-line summary, when the caller says it better (a resolution); null for none. */
  summary?: string | null
}

// What apply will do (or did), in words: flagged and why, held and why, what stays and on what.
export function PreviewList({ preview, onSelect, tense = 'preview', summary }: Props) {
  const { names } = useWorkspace()
  const flagged = new Set(preview.flag.map((f) => f.decision_id))
  const nothing = preview.flag.length + preview.hold.length + preview.stay.length === 0
  return (
    <div className="preview" data-testid="preview-panel" data-tense={tense}>
      {summary !== null && (
        <p className={nothing ? 'nothing' : 'summary'} data-testid={nothing ? 'preview-nothing' : 'preview-summary'}>
          {summary ?? impactSummary(preview, tense)}
        </p>
      )}
      {preview.flag.length > 0 && (
        <>
          <h4 className="flag">{tense === 'preview' ? 'Will be flagged for review' : 'Flagged for review'}</h4>
          <ul>
            {preview.flag.map((f) => (
              <li key={f.decision_id} data-testid="preview-flagged" data-id={f.decision_id}>
                <NodeLink id={f.decision_id} kind="decision" onSelect={onSelect}>
                  {f.title}
                </NodeLink>
                <ul className="reasons">
                  {previewFlagPhrases(f, preview, names, tense).map((phrase, i) => (
                    <li key={i} data-testid="reason">
                      <PhraseView phrase={phrase} onSelect={onSelect} />
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </>
      )}
      {preview.hold.length > 0 && (
        <>
          <h4 className="hold">{tense === 'preview' ? 'Will be held' : 'Held'}</h4>
          <ul>
            {preview.hold.map((h) => (
              <li key={h.action_id} data-testid="preview-held" data-id={h.action_id}>
                <NodeLink id={h.action_id} kind="action" onSelect={onSelect}>
                  {h.description}
                </NodeLink>
                <ul className="reasons">
                  <li data-testid="reason">
                    <PhraseView
                      phrase={heldBecausePhrase(h.decision_ids, names, tense, (id) => flagged.has(id))}
                      onSelect={onSelect}
                    />
                  </li>
                </ul>
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
                    <li key={i} data-testid="reason">
                      <PhraseView phrase={stillSupportedPhrase(p, names)} onSelect={onSelect} />
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
