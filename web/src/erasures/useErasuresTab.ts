// What a workspace view needs for erasures, in one hook: the requests to forget that wait for
// a reviewer (read with everything else of the workspace, their number on the tab), and a way
// for any panel to open the tab on one request or erasure.
import { useCallback, useRef, useState } from 'react'
import type { Async } from '../hooks'
import type { ErasureList } from '../apiTypes'
import { useRead, wsKey } from '../query'
import type { PanelTab } from '../shell/SidePanel'
import { erasureApi, REQUESTS_LIMIT } from './api'

export const ERASURES_TAB = 'erasures'

export interface ErasureFocus {
  id: string
  seq: number
}

export interface ErasuresTab {
  /** The tab, less its content. */
  tab: Omit<PanelTab, 'content'>
  /** The requests waiting, as last read. */
  requests: Async<ErasureList>
  /** Whether the workspace has anything to list: a request waiting, or anything erased. A
   *  workspace that never erased anything keeps its tabs as they were. */
  shown: boolean
  focus: ErasureFocus | null
  /** Opens the tab on one request or erasure. */
  openErasure: (id: string) => void
}

export function useErasuresTab(ws: string, openTab: () => void): ErasuresTab {
  const requests = useRead(wsKey(ws, 'erasures', 'requested'), () => erasureApi.list(ws, 'requested', null, REQUESTS_LIMIT))
  const any = useRead(wsKey(ws, 'erasures', 'any'), () => erasureApi.list(ws, 'all', null, 1))
  const [focus, setFocus] = useState<ErasureFocus | null>(null)
  const seq = useRef(0)
  const openErasure = useCallback(
    (id: string) => {
      seq.current += 1
      setFocus({ id, seq: seq.current })
      openTab()
    },
    [openTab],
  )
  const waiting = requests.data?.total ?? requests.data?.items.length ?? 0
  const tab = {
    id: ERASURES_TAB,
    label: 'Erasures',
    badge: waiting === 0 ? undefined : waiting > REQUESTS_LIMIT ? `${REQUESTS_LIMIT}+` : String(waiting),
    testId: 'erasures-panel',
  }
  const shown = waiting > 0 || (any.data?.items.length ?? 0) > 0 || focus !== null
  return { tab, requests, shown, focus, openErasure }
}
