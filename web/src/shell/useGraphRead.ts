// The workspace's graph as read from the server (now, or as of a moment), with what the
// search drew on top of it (claims the graph view's limit cut), and who is who in it.
import { useCallback, useMemo, useState } from 'react'
import { api } from '../api'
import type { GraphDTO, GraphView } from '../apiTypes'
import { claimAsGraph, withMore } from '../graph/drawMore'
import { buildNames, type Names } from '../names'
import { useRead, wsKey } from '../query'
import type { Async } from '../hooks'

export interface GraphRead {
  product: Async<GraphDTO>
  internal: Async<GraphDTO>
  /** The product graph with the claims drawn on top of it. */
  drawn: GraphDTO | null
  names: Names
  /** Reads a claim the graph view did not draw and draws it with what is around it. */
  drawClaim: (id: string) => Promise<void>
}

export function useGraphRead(ws: string, view: GraphView, asOf: number | null): GraphRead {
  // Moving in time keeps the graph drawn until the moment's arrives.
  const product = useRead(wsKey(ws, 'graph', 'product', asOf), () => api.getGraph(ws, 'product', asOf), { keep: true })
  const internal = useRead(
    view === 'internal' ? wsKey(ws, 'graph', 'internal', asOf) : null,
    () => api.getGraph(ws, 'internal', asOf),
    { keep: true },
  )
  const [more, setMore] = useState<GraphDTO[]>([])
  const drawn = useMemo(() => withMore(product.data, more), [product.data, more])
  const names = useMemo(() => buildNames(drawn), [drawn])
  const drawClaim = useCallback(
    (id: string) => api.getClaim(ws, id).then((claim) => setMore((m) => [...m, claimAsGraph(claim)])),
    [ws],
  )
  return { product, internal, drawn, names, drawClaim }
}
