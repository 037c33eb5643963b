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

/** How far a request that sends a body has got: its bytes going up, then the server at work. */
export type Progress = { phase: 'sending'; sent: number; total: number } | { phase: 'reading'; total: number }

/**
 * A request whose body is sent with its progress told (`fetch` cannot tell it): each step
 * of the upload in bytes, then "reading" once the whole body is with the server and only
 * its answer is awaited. Errors are the same ApiError as `request`'s.
 */
export function sendWithProgress<T>(
  method: string,
  path: string,
  body: FormData | string,
  onProgress: (p: Progress) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open(method, `/api${path}`)
    xhr.setRequestHeader('Accept', 'application/json')
    if (typeof body === 'string') xhr.setRequestHeader('Content-Type', 'application/json')
    const key = getApiKey()
    if (key) xhr.setRequestHeader('Authorization', `Bearer ${key}`)
    let total = typeof body === 'string' ? new Blob([body]).size : 0
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) total = e.total
      onProgress({ phase: 'sending', sent: e.loaded, total })
    }
    xhr.upload.onload = () => onProgress({ phase: 'reading', total })
    xhr.onerror = () => reject(new ApiError('network_error', 0, 'Could not reach the server.'))
    xhr.onload = () => {
      const response = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        statusText: xhr.statusText,
        headers: { 'Content-Type': xhr.getResponseHeader('Content-Type') ?? 'application/json' },
      })
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve((xhr.status === 204 ? undefined : JSON.parse(xhr.responseText)) as T)
        return
      }
      void toApiError(response).then((error) => {
        if (xhr.status === 401) unauthorizedListeners.forEach((l) => l())
        reject(error)
      })
    }
    onProgress({ phase: 'sending', sent: 0, total })
    xhr.send(body)
  })
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
  /** Pasted text, its upload's progress told (a large text takes a while to send and read). */
  addSourceWithProgress: (ws: string, title: string, text: string, onProgress: (p: Progress) => void) =>
    sendWithProgress<SourceResult>('POST', `${wsPath(ws)}/sources`, JSON.stringify({ title, text }), onProgress),
  /** A file (text, Markdown, HTML, PDF or DOCX), read to text by the server; its original is kept. */
  addFile: (ws: string, file: File, title: string, onProgress: (p: Progress) => void) => {
    const form = new FormData()
    form.append('file', file, file.name)
    if (title) form.append('title', title)
    return sendWithProgress<SourceResult>('POST', `${wsPath(ws)}/sources/files`, form, onProgress)
  },
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
