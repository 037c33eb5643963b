// The erasures API (docs/api.md, "Erasures") over the app's typed fetch.
import { request } from '../api'
import type { Erasure, ErasureApplied, ErasureList, ErasurePreview, ErasureStatus, ErasureTarget } from '../apiTypes'

const enc = encodeURIComponent
const base = (ws: string) => `/workspaces/${enc(ws)}/erasures`

/** How many requests the tab lists at once (the badge says "N+" beyond). */
export const REQUESTS_LIMIT = 100

export const erasureApi = {
  preview: (ws: string, target: ErasureTarget) => request<ErasurePreview>('POST', `${base(ws)}/preview`, { target }),
  /** Applies exactly what was previewed: 409 stale_erasure_preview when anything moved. */
  apply: (ws: string, target: ErasureTarget, impactToken: string, reason: string) =>
    request<ErasureApplied>('POST', base(ws), {
      target,
      impact_token: impactToken,
      ...(reason ? { reason } : {}),
    }),
  list: (ws: string, status: ErasureStatus | 'all', cursor: string | null = null, limit = 50) =>
    request<ErasureList>('GET', `${base(ws)}?status=${status}&limit=${limit}${cursor === null ? '' : `&cursor=${enc(cursor)}`}`),
  get: (ws: string, id: string) => request<Erasure>('GET', `${base(ws)}/${enc(id)}`),
  /** A speaker's request declined: the claims it withheld are what they were before. */
  decline: (ws: string, id: string, reason: string) =>
    request<Erasure>('POST', `${base(ws)}/${enc(id)}/decline`, reason ? { reason } : {}),
}
