import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError } from './api'

export interface Async<T> {
  data: T | null
  error: ApiError | null
  loading: boolean
  reload: () => void
}

function asApiError(e: unknown): ApiError {
  return e instanceof ApiError ? e : new ApiError('client_error', 0, String((e as Error)?.message ?? e))
}

/**
 * Runs `load` whenever `key` changes (null = nothing to load); a stale answer is ignored.
 * A new `version` reloads the same key and keeps showing the old data until the new arrives,
 * so forms inside a panel are not reset by a refresh elsewhere.
 */
export function useAsync<T>(key: string | null, load: () => Promise<T>, version: unknown = 0): Async<T> {
  const [state, setState] = useState<{ key: string | null; data: T | null; error: ApiError | null }>({
    key: null,
    data: null,
    error: null,
  })
  const [tick, setTick] = useState(0)
  // `load` is a fresh closure each render; only `key` and `version` say it means something new.
  const latestLoad = useRef(load)
  useEffect(() => {
    latestLoad.current = load
  })
  useEffect(() => {
    if (key === null) return
    let live = true
    latestLoad.current().then(
      (data) => live && setState({ key, data, error: null }),
      (e: unknown) => live && setState({ key, data: null, error: asApiError(e) }),
    )
    return () => {
      live = false
    }
  }, [key, tick, version])
  const reload = useCallback(() => setTick((t) => t + 1), [])
  const current = state.key === key
  return {
    data: current ? state.data : null,
    error: current ? state.error : null,
    loading: key !== null && !current,
    reload,
  }
}

/** Runs one user action at a time and keeps its error for display. */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const run = useCallback(
    async <T,>(fn: () => Promise<T>, onError?: (e: ApiError) => void): Promise<T | undefined> => {
    setBusy(true)
    setError(null)
    try {
      return await fn()
    } catch (e) {
      const error = asApiError(e)
      setError(error)
      onError?.(error)
      return undefined
    } finally {
      setBusy(false)
    }
  },
  [],
  )
  return { busy, error, setError, run }
}

/** The time a component first rendered, for dates said relative to it ("today at 14:20"). */
export function useNow(): number {
  const [now] = useState(() => Date.now())
  return now
}

/** Whether a CSS media query matches, kept up to date as the window changes. */
export function useMedia(query: string): boolean {
  const [matches, setMatches] = useState(() => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches)
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return
    const list = window.matchMedia(query)
    const onChange = () => setMatches(list.matches)
    onChange()
    list.addEventListener('change', onChange)
    return () => list.removeEventListener('change', onChange)
  }, [query])
  return matches
}
