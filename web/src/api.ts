// Typed fetch for the afterhack API (docs/api.md). Every failure becomes an ApiError
// carrying the canonical `{"error": {"code", "message", "details"}}` body.
import type {
  Action,
  ClaimListItem,
  ClaimView,
  CorrectionApplied,
  CorrectionPreview,
  Decision,
  GraphDTO,
  GraphView,
  Run,
  RunView,
  SourceResult,
  SourceView,
  Workspace,
} from './apiTypes'
import type { DecisionRead, Timeline } from './apiTypes'
import type { Page } from './paging'

export class ApiError extends Error {
  readonly code: string
  readonly status: number
  readonly details: Record<string, unknown>

  constructor(code: string, status: number, message: string, details: Record<string, unknown> = {}) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.status = status
    this.details = details
  }
}

const KEY_STORAGE = 'afterhack.apiKey'

export function getApiKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_STORAGE)
  } catch {
    return null
  }
}

export function setApiKey(key: string | null): void {
  if (key) sessionStorage.setItem(KEY_STORAGE, key)
  else sessionStorage.removeItem(KEY_STORAGE)
}

type UnauthorizedListener = () => void
const unauthorizedListeners = new Set<UnauthorizedListener>()

/** Called whenever the API answers 401, so the app can ask for a key. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener)
  return () => unauthorizedListeners.delete(listener)
}

export async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown = null
  try {
    body = await response.json()
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): fall through to a generic error.
  }
  const err = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error
  if (err && typeof err.code === 'string') {
    const details = err.details && typeof err.details === 'object' ? (err.details as Record<string, unknown>) : {}
    return new ApiError(err.code, response.status, String(err.message ?? err.code), details)
  }
  return new ApiError('http_error', response.status, `HTTP ${response.status} ${response.statusText}`.trim())
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const key = getApiKey()
  if (key) headers.Authorization = `Bearer ${key}`
  let response: Response
  try {
    response = await fetch(`/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch (e) {
    throw new ApiError('network_error', 0, `Could not reach the server: ${(e as Error).message}`)
  }
  if (!response.ok) {
    const error = await toApiError(response)
    if (response.status === 401) unauthorizedListeners.forEach((l) => l())
    throw error
  }
  if (response.status === 204) return undefined as T
  return (await response.json()) as T
}

const enc = encodeURIComponent
const wsPath = (ws: string) => `/workspaces/${enc(ws)}`
/** A read as the memory held it at `asOf` (epoch ms), or now when null (docs/rules.md, rule 10). */
const at = (asOf: number | null, sep: '?' | '&') => (asOf === null ? '' : `${sep}as_of=${asOf}`)
/** The next page of a list: the cursor its previous page answered (null: the first page). */
const after = (cursor: string | null) => (cursor === null ? '' : `&cursor=${enc(cursor)}`)

export const api = {
  listWorkspaces: (cursor: string | null = null) =>
    request<Page<Workspace>>('GET', `/workspaces?limit=1000${after(cursor)}`),
  createWorkspace: (name: string) => request<Workspace>('POST', '/workspaces', { name }),
  getWorkspace: (ws: string) => request<Workspace>('GET', wsPath(ws)),

  addSource: (ws: string, title: string, text: string) =>
    request<SourceResult>('POST', `${wsPath(ws)}/sources`, { title, text }),
  getSource: (ws: string, id: string) => request<SourceView>('GET', `${wsPath(ws)}/sources/${enc(id)}`),

  listClaims: (ws: string, q = '', cursor: string | null = null) =>
    request<Page<ClaimListItem>>('GET', `${wsPath(ws)}/claims?limit=200${q ? `&q=${enc(q)}` : ''}${after(cursor)}`),
  /** The claims that best match these words, across the whole workspace (now, or at `asOf`). */
  findClaims: (ws: string, q: string, asOf: number | null = null, limit = 8) =>
    request<Page<ClaimListItem>>('GET', `${wsPath(ws)}/claims?limit=${limit}&q=${enc(q)}${at(asOf, '&')}`),
  getClaim: (ws: string, id: string, asOf: number | null = null) =>
    request<ClaimView>('GET', `${wsPath(ws)}/claims/${enc(id)}${at(asOf, '?')}`),

  runAgent: (ws: string, task: string, buildsOn: string[] = []) =>
    request<RunView>('POST', `${wsPath(ws)}/agent-runs`, buildsOn.length ? { task, builds_on: buildsOn } : { task }),
  listRuns: (ws: string, cursor: string | null = null, limit = 20) =>
    request<Page<Run>>('GET', `${wsPath(ws)}/agent-runs?limit=${limit}${after(cursor)}`),
  getRun: (ws: string, id: string) => request<RunView>('GET', `${wsPath(ws)}/agent-runs/${enc(id)}`),

  getDecision: (ws: string, id: string, asOf: number | null = null) =>
    request<DecisionRead>('GET', `${wsPath(ws)}/decisions/${enc(id)}${at(asOf, '?')}`),
  reviewDecision: (
    ws: string,
    id: string,
    body: { op: 'accept' | 'reject' | 'reconfirm'; revision: number; claim_ids?: string[]; note?: string },
  ) => request<Decision>('PATCH', `${wsPath(ws)}/decisions/${enc(id)}`, body),

  getAction: (ws: string, id: string, asOf: number | null = null) =>
    request<Action>('GET', `${wsPath(ws)}/actions/${enc(id)}${at(asOf, '?')}`),
  updateAction: (ws: string, id: string, op: 'approve' | 'release' | 'done' | 'cancel', revision: number) =>
    request<Action>('PATCH', `${wsPath(ws)}/actions/${enc(id)}`, { op, revision }),

  /** ``leave``: claims the preview listed as saying this in other words, left out. */
  previewCorrection: (
    ws: string,
    claimId: string,
    statement: string,
    kind: 'replace' | 'retract',
    leave: readonly string[] = [],
  ) =>
    request<CorrectionPreview>('POST', `${wsPath(ws)}/claims/${enc(claimId)}/corrections/preview`, {
      statement,
      kind,
      ...(leave.length ? { leave } : {}),
    }),
  applyCorrection: (
    ws: string,
    claimId: string,
    body: {
      statement: string
      kind: 'replace' | 'retract'
      reason?: string
      claim_revision: number
      impact_token: string
      leave?: string[]
    },
  ) => request<CorrectionApplied>('POST', `${wsPath(ws)}/claims/${enc(claimId)}/corrections`, body),
  getCorrection: (ws: string, id: string) =>
    request<Record<string, unknown>>('GET', `${wsPath(ws)}/corrections/${enc(id)}`),

  getGraph: (ws: string, view: GraphView, asOf: number | null = null) =>
    request<GraphDTO>('GET', `${wsPath(ws)}/graph?view=${view}${at(asOf, '&')}`),
  getTimeline: (ws: string) => request<Timeline>('GET', `${wsPath(ws)}/timeline`),
}
