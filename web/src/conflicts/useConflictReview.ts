// The state a workspace keeps for its conflicts: the open ones (reloaded with the graph), the
// resolution being previewed (drawn on the graph) and the conflict the reader was sent to.
import { useCallback, useMemo, useRef, useState } from 'react'
import { useAsync } from '../hooks'
import type { PreviewMark } from '../types'
import { conflictApi, CONFLICTS_LIMIT } from './api'
import type { ResolutionPreview } from './types'
import { marksFromResolution } from './words'

export interface ConflictFocus {
  id: string
  seq: number
}

export function useConflictReview(ws: string, version: string) {
  // When the list was read: dates are said relative to it ("today at 14:20").
  const list = useAsync(
    `${ws}:conflicts`,
    () => conflictApi.list(ws, 'open').then((r) => ({ items: r.items, readAt: Date.now() })),
    version,
  )
  const [preview, setPreview] = useState<ResolutionPreview | null>(null)
  const [focus, setFocus] = useState<ConflictFocus | null>(null)
  const seq = useRef(0)
  const focusOn = useCallback((id: string) => {
    seq.current += 1
    setFocus({ id, seq: seq.current })
  }, [])
  const marks: ReadonlyMap<string, PreviewMark> = useMemo(() => marksFromResolution(preview), [preview])
  const open = list.data?.items.length ?? 0
  const badge = open === 0 ? undefined : open >= CONFLICTS_LIMIT ? `${CONFLICTS_LIMIT}+` : String(open)
  return { list, preview, setPreview, marks, focus, focusOn, badge }
}

export type ConflictReview = ReturnType<typeof useConflictReview>
