// Server state through one query cache (TanStack Query): every read of a workspace is keyed
// under ['ws', id, …], and a change made in the UI invalidates them all at once, so each
// panel reads again what it shows without a counter handed down from the workspace.
import { keepPreviousData, QueryClient, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { ApiError } from './api'
import type { Async } from './hooks'

export function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // A read is fresh until something in the UI changes the workspace (then it is
      // invalidated); an error is shown, not tried again behind the reader's back.
      queries: { staleTime: Infinity, retry: false, refetchOnWindowFocus: false },
    },
  })
}

/** The key of a read of workspace `ws`: everything under it is read again after a change. */
export const wsKey = (ws: string, ...rest: unknown[]): readonly unknown[] => ['ws', ws, ...rest]

function asApiError(e: unknown): ApiError {
  return e instanceof ApiError ? e : new ApiError('client_error', 0, String((e as Error)?.message ?? e))
}

/**
 * A read through the cache (null: nothing to read). Read again after a change, it keeps
 * showing the old answer until the new one arrives; with `keep`, so does a new key (moving in
 * time shows the graph it was until the moment's arrives).
 */
export function useRead<T>(key: readonly unknown[] | null, load: () => Promise<T>, { keep = false } = {}): Async<T> {
  const q = useQuery({
    queryKey: key ?? ['nothing'],
    queryFn: load,
    enabled: key !== null,
    placeholderData: keep ? keepPreviousData : undefined,
  })
  return {
    data: key === null ? null : (q.data ?? null),
    error: key === null || !q.error ? null : asApiError(q.error),
    loading: key !== null && q.isPending,
    reload: () => void q.refetch(),
  }
}

/** Reads every read of the workspace again (after a change made here). */
export function useWorkspaceChanged(ws: string): () => void {
  const client = useQueryClient()
  return useCallback(() => void client.invalidateQueries({ queryKey: wsKey(ws) }), [client, ws])
}

/**
 * When the workspace's reads were last invalidated: a stamp for what keeps its own state
 * (a paged list, the conflicts tab) and starts again from it after a change.
 */
export function useChangeStamp(ws: string): number {
  // 0 until the first change: nothing is read for it, and a first page is not read twice.
  const q = useQuery({ queryKey: wsKey(ws, 'changed'), queryFn: () => (stamps += 1), initialData: 0 })
  return q.data
}
let stamps = 0
