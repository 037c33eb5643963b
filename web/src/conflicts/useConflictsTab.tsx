// Everything a workspace view needs for its conflicts, in one hook: the open ones (reloaded
// with the graph), the tab that lists them, the resolution being previewed (its marks for the
// graph, its strip over the canvas), and a way for any panel to open one conflict.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { GraphDTO } from '../apiTypes'
import { useAsync } from '../hooks'
import type { PanelTab } from '../shell/SidePanel'
import type { PreviewMark } from '../types'
import { conflictApi, CONFLICTS_LIMIT } from './api'
import type { ConflictsPanelProps } from './ConflictsPanel'
import { ResolutionStrip } from './ResolutionStrip'
import type { ResolutionApplied, ResolutionPreview } from './types'
import { marksFromResolution, touchedByResolution } from './words'

export const CONFLICTS_TAB = 'conflicts'

export interface ConflictFocus {
  id: string
  seq: number
}

export interface ConflictsWiring {
  ws: string
  /** Moves whenever the workspace changed: the open conflicts are read again with the graph. */
  version: string
  /** The moment the graph shows (epoch ms), or null for now: the tab lists what was open then. */
  asOf: number | null
  /** The product graph as last read: the camera aims at a resolution once it is read again. */
  graph: GraphDTO | null
  bringIntoView: (ids: string[]) => void
  /** Unfold these nodes (claims a resolution touched). */
  reveal: (ids: string[]) => void
  /** Read the workspace again after a resolution. */
  refresh: () => void
  /** A resolution's preview is shown: any other preview and the selection give way to it. */
  onPreviewShown: () => void
  /** Show the conflicts tab (unfolded). */
  openTab: () => void
}

export interface ConflictsTab {
  /** The tab, less its content: `<ConflictsPanel {...panel} onSelect={…} />`. */
  tab: Omit<PanelTab, 'content'>
  panel: Omit<ConflictsPanelProps, 'onSelect'>
  /** The resolution being previewed, if any; its marks for the graph. */
  preview: ResolutionPreview | null
  marks: ReadonlyMap<string, PreviewMark>
  clearPreview: () => void
  /** The strip over the canvas while a resolution is previewed. */
  notice: ReactNode
  /** Opens the tab on one conflict (its edge on the graph, a decision's reason). */
  openConflict: (id: string) => void
}

export function useConflictsTab(w: ConflictsWiring): ConflictsTab {
  const { ws, version, asOf, graph, bringIntoView, reveal, refresh, onPreviewShown, openTab } = w
  // When the list was read: dates are said relative to it ("today at 14:20"). A moment in the
  // past lists the conflicts open then, as the graph draws them.
  const list = useAsync(
    `${ws}:conflicts`,
    () => conflictApi.list(ws, 'open', asOf).then((r) => ({ items: r.items, readAt: Date.now() })),
    `${version}:${asOf ?? 'now'}`,
  )
  const [preview, setPreview] = useState<ResolutionPreview | null>(null)
  const marks = useMemo(() => marksFromResolution(preview), [preview])
  const clearPreview = useCallback(() => setPreview(null), [])

  const [focus, setFocus] = useState<ConflictFocus | null>(null)
  const seq = useRef(0)
  const openConflict = useCallback(
    (id: string) => {
      seq.current += 1
      setFocus({ id, seq: seq.current })
      openTab()
    },
    [openTab],
  )

  const showPreview = useCallback(
    (p: ResolutionPreview | null) => {
      setPreview(p)
      if (!p) return
      onPreviewShown()
      bringIntoView(touchedByResolution(p))
    },
    [onPreviewShown, bringIntoView],
  )

  // A resolution adds its correction to the graph, which moves every column: what it touched
  // is brought into view once the graph has been read again, not before.
  const focusAfterReload = useRef<string[] | null>(null)
  useEffect(() => {
    const ids = focusAfterReload.current
    if (!ids || !graph) return
    focusAfterReload.current = null
    bringIntoView(ids)
  }, [graph, bringIntoView])
  const onResolved = useCallback(
    (_: ResolutionApplied, was: ResolutionPreview) => {
      reveal(touchedByResolution(was))
      focusAfterReload.current = touchedByResolution(was)
      refresh()
    },
    [reveal, refresh],
  )

  const open = list.data?.items.length ?? 0
  const tab = {
    id: CONFLICTS_TAB,
    label: 'Conflicts',
    badge: open === 0 ? undefined : open >= CONFLICTS_LIMIT ? `${CONFLICTS_LIMIT}+` : String(open),
    testId: 'conflicts-panel',
  }
  const panel = { ws, asOf, list, preview, onPreview: showPreview, onResolved, focus }
  const notice = preview && <ResolutionStrip preview={preview} onBack={openTab} onDismiss={clearPreview} />
  return { tab, panel, preview, marks, clearPreview, notice, openConflict }
}
