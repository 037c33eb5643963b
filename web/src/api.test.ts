import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, api, onUnauthorized, setApiKey } from './api'

function reply(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

describe('api', () => {
  let fetchMock: ReturnType<typeof vi.fn>
  beforeEach(() => {
    fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    sessionStorage.clear()
  })
  afterEach(() => vi.unstubAllGlobals())

  it('throws ApiError with code, status and message from the canonical error body', async () => {
    fetchMock.mockResolvedValue(
      reply(409, { error: { code: 'stale_correction_preview', message: 'Preview again.', details: { seen: 1 } } }),
    )
    const err = await api.getWorkspace('w').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ code: 'stale_correction_preview', status: 409, message: 'Preview again.' })
    expect((err as ApiError).details).toEqual({ seen: 1 })
  })

  it('turns a body that is not the canonical shape into a generic http_error', async () => {
    fetchMock.mockResolvedValue(new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }))
    await expect(api.getWorkspace('w')).rejects.toMatchObject({ code: 'http_error', status: 502 })
  })

  it('sends Authorization only when a key was entered', async () => {
    fetchMock.mockImplementation(async () => reply(200, { items: [] }))
    await api.listWorkspaces()
    expect(fetchMock.mock.calls[0][1].headers.Authorization).toBeUndefined()
    setApiKey('k-123')
    await api.listWorkspaces()
    expect(fetchMock.mock.calls[1][1].headers.Authorization).toBe('Bearer k-123')
  })

  it('asks for a key when the API answers 401', async () => {
    fetchMock.mockResolvedValue(reply(401, { error: { code: 'unauthorized', message: 'Key needed.', details: {} } }))
    const asked = vi.fn()
    const stop = onUnauthorized(asked)
    await expect(api.listWorkspaces()).rejects.toMatchObject({ code: 'unauthorized', status: 401 })
    expect(asked).toHaveBeenCalledOnce()
    stop()
  })

  it('sends apply with the revisions the preview returned', async () => {
    fetchMock.mockResolvedValue(reply(201, { status: 'applied' }))
    await api.applyCorrection('w', 'c', { statement: 's', kind: 'replace', claim_revision: 3, impact_token: 'tok' })
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe('/api/workspaces/w/claims/c/corrections')
    expect(init.method).toBe('POST')
    expect(JSON.parse(init.body)).toEqual({ statement: 's', kind: 'replace', claim_revision: 3, impact_token: 'tok' })
  })
})
