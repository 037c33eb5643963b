// Lists the API pages by cursor (docs/api.md "Pages"): a list shows what it has loaded, how
// many there are in all, and a "more" button (MoreFooter) that appends the next page.
import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError } from './api'

export interface Page<T> {
  items: T[]
  /** The next page's cursor; null on the last page. */
  next_cursor: string | null
  /** How many the whole list holds; null where the server does not count (a search). */
  total: number | null
}

/** "Showing 20 of 45" while more can be loaded; null when everything is shown. */
export function showing(shown: number, total: number | null, more: boolean): string | null {
  if (!more && (total === null || shown >= total)) return null
  return total === null ? `Showing ${shown}, more to load` : `Showing ${shown} of ${total}`
}

export interface Paged<T> {
  items: T[]
  total: number | null
  more: boolean
  loading: boolean
  error: ApiError | null
  /** Appends the next page. */
  loadMore: () => void
  /** Starts again from the first page. */
  reload: () => void
}

function asApiError(e: unknown): ApiError {
  return e instanceof ApiError ? e : new ApiError('client_error', 0, String((e as Error)?.message ?? e))
}

function withNew<T extends { id: string }>(shown: T[], page: T[]): T[] {
  const seen = new Set(shown.map((it) => it.id))
  return [...shown, ...page.filter((it) => !seen.has(it.id))]
}

interface State<T> {
  /** The list the items belong to, and the load of its first page they started from. */
  key: string | null
  load: string | null
  items: T[]
  total: number | null
  cursor: string | null
  error: ApiError | null
  loadingMore: boolean
}

/**
 * The pages of a list loaded so far, for `key` (null: nothing to load). A new `version`
 * starts again from the first page and keeps showing the old items until it arrives; an
 * answer for an older load is ignored. Items are kept once by id, so a page that overlaps
 * what is shown adds only what is new. An answer without `next_cursor` and `total` (a server
 * from before cursors) is one page, uncounted.
 */
export function usePaged<T extends { id: string }>(
  key: string | null,
  load: (cursor: string | null) => Promise<Page<T>>,
  version: unknown = 0,
): Paged<T> {
  const [state, setState] = useState<State<T>>({
    key: null, load: null, items: [], total: null, cursor: null, error: null, loadingMore: false,
  })
  const [tick, setTick] = useState(0)
  // `load` is a fresh closure each render; only `key`, `version` and reload mean a new list.
  const latestLoad = useRef(load)
  useEffect(() => {
    latestLoad.current = load
  })
  const loadId = key === null ? null : `${key}\u0000${String(version)}\u0000${tick}`
  const currentLoad = useRef(loadId)
  useEffect(() => {
    currentLoad.current = loadId
    if (loadId === null) return
    latestLoad.current(null).then(
      (page) =>
        currentLoad.current === loadId &&
        setState({ key, load: loadId, items: page.items, total: page.total ?? null, cursor: page.next_cursor ?? null, error: null, loadingMore: false }),
      (e: unknown) =>
        currentLoad.current === loadId &&
        setState((s) => ({ ...s, key, load: loadId, items: s.key === key ? s.items : [], error: asApiError(e), loadingMore: false })),
    )
  }, [key, loadId])

  const fresh = state.load === loadId
  const loadMore = useCallback(() => {
    if (!fresh || state.cursor === null || state.loadingMore) return
    const cursor = state.cursor
    setState((s) => ({ ...s, loadingMore: true, error: null }))
    latestLoad.current(cursor).then(
      (page) =>
        currentLoad.current === loadId &&
        setState((s) => ({ ...s, items: withNew(s.items, page.items), total: page.total ?? null, cursor: page.next_cursor ?? null, loadingMore: false })),
      (e: unknown) => currentLoad.current === loadId && setState((s) => ({ ...s, error: asApiError(e), loadingMore: false })),
    )
  }, [fresh, state.cursor, state.loadingMore, loadId])
  const reload = useCallback(() => setTick((t) => t + 1), [])

  const same = key !== null && state.key === key
  return {
    items: same ? state.items : [],
    total: same ? state.total : null,
    more: fresh && state.cursor !== null,
    loading: key !== null && (!fresh || state.loadingMore),
    error: same ? state.error : null,
    loadMore,
    reload,
  }
}
