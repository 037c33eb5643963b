// The conflicts API (docs/api.md, "Conflicts") over the app's typed fetch.
import { request } from '../api'
import type { ConflictList } from '../apiTypes'
import type { Choice, Conflict, ConflictStatus, ResolutionApplied, ResolutionPreview } from './types'

const enc = encodeURIComponent
const base = (ws: string) => `/workspaces/${enc(ws)}/conflicts`

/** How many open conflicts the panel lists at most (the badge says "N+" beyond). */
export const CONFLICTS_LIMIT = 200

export const conflictApi = {
  /** The conflicts with this status now, or at `asOf` (epoch ms) each with its status then. */
  list: (ws: string, status: ConflictStatus | 'all' = 'open', asOf: number | null = null) =>
    request<ConflictList>(
      'GET',
      `${base(ws)}?status=${status}&limit=${CONFLICTS_LIMIT}${asOf === null ? '' : `&as_of=${asOf}`}`,
    ),
  get: (ws: string, id: string) => request<Conflict>('GET', `${base(ws)}/${enc(id)}`),
  preview: (ws: string, id: string, choice: Choice) =>
    request<ResolutionPreview>('POST', `${base(ws)}/${enc(id)}/preview`, choice),
  /** Applies exactly what was previewed: 409 stale_correction_preview when anything moved. */
  resolve: (ws: string, preview: ResolutionPreview, reason?: string) =>
    request<ResolutionApplied>('POST', `${base(ws)}/${enc(preview.conflict.id)}/resolve`, {
      ...(preview.resolution === 'keep' && preview.keep ? { keep: preview.keep } : { dismiss: true }),
      ...(reason ? { reason } : {}),
      conflict_revision: preview.revisions.conflict_revision,
      impact_token: preview.revisions.impact_token,
    }),
}
