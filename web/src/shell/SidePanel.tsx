// The side of the screen: one panel with tabs. Docked beside the graph on a wide window,
// under it on a narrow one, where it can fold away to give the graph the whole height.
// Tabs are a list, so a new panel (conflicts, a time control) is one more entry.
import type { ReactNode } from 'react'

export interface PanelTab {
  id: string
  label: string
  /** A count or a word shown next to the label (e.g. open conflicts). */
  badge?: ReactNode
  /** Extra data-testid on the tab's body, for tests that look inside it. */
  testId?: string
  content: ReactNode
}

interface Props {
  tabs: PanelTab[]
  active: string
  onActivate: (id: string) => void
  folded: boolean
  onFold: (folded: boolean) => void
}

export function SidePanel({ tabs, active, onActivate, folded, onFold }: Props) {
  return (
    <aside className={folded ? 'side folded' : 'side'} data-testid="side-panel" data-folded={folded}>
      <div className="tabs" role="tablist" aria-label="Panels">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={t.id === active}
            aria-controls={`tabpanel-${t.id}`}
            className={t.id === active ? 'tab on' : 'tab'}
            data-testid={`tab-${t.id}`}
            onClick={() => {
              onActivate(t.id)
              onFold(false)
            }}
          >
            {t.label}
            {t.badge != null && <span className="tab-badge">{t.badge}</span>}
          </button>
        ))}
        <button
          type="button"
          className="fold-toggle"
          data-testid="panel-fold"
          aria-expanded={!folded}
          title={folded ? 'Show the panel' : 'Fold the panel away: the graph takes the whole height'}
          onClick={() => onFold(!folded)}
        >
          {folded ? '▴ Show' : '▾ Fold'}
        </button>
      </div>
      {tabs.map((t) => (
        <div
          key={t.id}
          role="tabpanel"
          id={`tabpanel-${t.id}`}
          aria-labelledby={`tab-${t.id}`}
          className="tab-body"
          data-testid={t.testId}
          hidden={t.id !== active || folded}
        >
          {t.content}
        </div>
      ))}
    </aside>
  )
}
