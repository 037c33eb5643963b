// An erasure record as the API keeps it, read again while its files on disk are being
// rewritten, so "pending" turns to "clean" where the reader looks, without a reload.
import { useQuery } from '@tanstack/react-query'
import type { Erasure } from '../apiTypes'
import { wsKey } from '../query'
import { erasureApi } from './api'

/** How long to wait before reading a pending record again: longer each time, up to 20 s. */
export function nextLook(looks: number): number {
  return Math.min(2000 * 1.5 ** looks, 20_000)
}

export function useErasureRecord(ws: string, initial: Erasure): Erasure {
  const q = useQuery({
    queryKey: wsKey(ws, 'erasure', initial.id),
    queryFn: () => erasureApi.get(ws, initial.id),
    initialData: initial,
    refetchInterval: (query) =>
      query.state.data?.disk === 'pending' ? nextLook(query.state.dataUpdateCount) : false,
  })
  return q.data
}
