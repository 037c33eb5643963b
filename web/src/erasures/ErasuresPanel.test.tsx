import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Erasure, ErasureList } from '../apiTypes'
import type { Async } from '../hooks'
import { buildNames } from '../names'
import { withQueries } from '../testQueries'
import { WorkspaceCtx } from '../workspace'
import { ErasuresPanel } from './ErasuresPanel'
import { clearRefusals } from './refused'
import { AT, IDS, NONE, chatGraph, conversation, record } from './testErasure'

function reply(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}
const page = (items: Erasure[]): ErasureList => ({ items, next_cursor: null, total: items.length })
const listed = (items: Erasure[]): Async<ErasureList> => ({ data: page(items), error: null, loading: false, reload: () => {} })

const REQUEST = record({
  id: IDS.request,
  status: 'requested',
  target: { kind: 'request', source_id: IDS.notes, version_id: null, message_index: 1, claim_id: null, request_id: null },
  reason: null,
  requested_by: 'Ana',
  requested_at: AT,
  applied_by: null,
  applied_at: null,
  counts: null,
  claim_ids: [IDS.address],
  flagged: [],
  disk: null,
})
const NOTES = conversation(IDS.notes, 'Ana’s notes', [
  ['Ana', 'My home address is Rua das Flores 27, Porto.'],
  ['Ana', 'Please forget my home address.'],
])
const REQUEST_PREVIEW = {
  target: { kind: 'request', source_id: null, version_id: null, message_index: null, claim_id: null, request_id: IDS.request },
  goes: {
    versions: [{ source_id: IDS.notes, version_id: 'ver-1', version: 1, spans: 1, file: false }],
    messages: [{ source_id: IDS.notes, message_index: 0, speaker: 'Ana' }],
    claims: [{ id: IDS.address, statement: 'My home address is Rua das Flores 27, Porto.', status: 'withheld', source_id: IDS.notes, used_by: 0 }],
    corrections: [],
    records: 0,
  },
  counts: { ...NONE, messages: 1, spans: 1, claims: 1 },
  flag: [],
  hold: [],
  stay: [],
  closes: [],
  impact_token: 'era_req',
}
const APPLIED_REQUEST = { ...REQUEST, status: 'applied' as const, applied_by: 'admin', applied_at: AT, counts: { ...NONE, messages: 1, spans: 1, claims: 1 }, disk: 'pending' as const }

let calls: { method: string; path: string; body: unknown }[]
let diskClean = false
beforeEach(() => {
  calls = []
  diskClean = false
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET'
      const path = String(url).replace(/^\/api/, '')
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      calls.push({ method, path, body })
      if (path.endsWith(`/sources/${IDS.notes}`)) return reply(200, NOTES)
      if (path.includes('/erasures?status=applied')) return reply(200, page([record({ id: 'era-old', target: { ...record().target, source_id: IDS.chat } })]))
      if (path.endsWith('/erasures/era-old')) return reply(200, record({ id: 'era-old', disk: diskClean ? 'clean' : 'pending', disk_clean_at: diskClean ? AT : null }))
      if (path.endsWith('/erasures/preview')) return reply(200, REQUEST_PREVIEW)
      if (method === 'POST' && path.endsWith('/erasures')) return reply(201, { status: 'applied', erasure: APPLIED_REQUEST })
      if (path.endsWith(`/erasures/${IDS.request}/decline`)) {
        return reply(200, { ...REQUEST, status: 'declined', declined_by: 'admin', declined_at: AT })
      }
      throw new Error(`unexpected ${method} ${path}`)
    }),
  )
  Element.prototype.scrollIntoView = vi.fn()
  clearRefusals()
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function panel(requests: Async<ErasureList>) {
  return withQueries(
    <WorkspaceCtx.Provider value={{ ws: 'w1', names: buildNames(chatGraph()), asOf: null }}>
      <ErasuresPanel ws="w1" requests={requests} focus={null} onSelect={() => {}} />
    </WorkspaceCtx.Provider>,
  )
}

describe('requests to forget', () => {
  it('lists each with who asked, what they said, and the claims it would erase, withheld meanwhile', async () => {
    render(panel(listed([REQUEST])))
    const card = screen.getByTestId('erasure-request')
    expect(card.getAttribute('data-status')).toBe('requested')
    expect(card.textContent).toContain('Ana asked to forget on ')
    expect((await within(card).findByTestId('request-message')).textContent).toBe('“Please forget my home address.”')
    const named = within(card).getAllByTestId('request-claim')
    expect(named.map((n) => n.getAttribute('data-id'))).toEqual([IDS.address])
    expect(named[0].textContent).toBe('My home address is Rua das Flores 27, Porto.')
    expect(card.textContent).toContain('It would erase 1 claim, withheld until a reviewer decides')
    expect(screen.getByTestId('requests-list').getAttribute('data-waiting')).toBe('1')
  })

  it('applies one on review: the preview of the request, then the outcome, kept in view once it no longer waits', async () => {
    const { rerender } = render(panel(listed([REQUEST])))
    const card = screen.getByTestId('erasure-request')
    fireEvent.click(within(card).getByTestId('erase-offer'))
    await within(card).findByTestId('erase-preview')
    expect(calls.find((c) => c.path.endsWith('/erasures/preview'))?.body).toEqual({ target: { request_id: IDS.request } })
    expect(within(card).queryByTestId('request-decline')).toBeNull()
    fireEvent.click(within(card).getByTestId('erase-apply'))
    await within(card).findByTestId('erase-outcome')
    expect(calls.find((c) => c.method === 'POST' && c.path.endsWith('/erasures'))?.body).toEqual({
      target: { request_id: IDS.request },
      impact_token: 'era_req',
    })
    expect(within(card).getByTestId('erasure-record').textContent).toContain('What Ana asked to forget')
    // The list is read again without it: the card stays, with its outcome, until done.
    rerender(panel(listed([])))
    const kept = screen.getByTestId('erasure-request')
    expect(kept.getAttribute('data-status')).toBe('decided')
    expect(kept.textContent).toContain('It named 1 claim')
    expect(within(kept).getByTestId('erase-outcome')).toBeTruthy()
    fireEvent.click(within(kept).getByTestId('erase-done'))
    expect(screen.queryByTestId('erasure-request')).toBeNull()
    expect(screen.getByTestId('requests-empty')).toBeTruthy()
  })

  it('declines one with a reason, and says the claims are back', async () => {
    render(panel(listed([REQUEST])))
    const card = screen.getByTestId('erasure-request')
    fireEvent.click(within(card).getByTestId('request-decline'))
    expect(within(card).queryByTestId('erase-offer')).toBeNull()
    fireEvent.change(within(card).getByTestId('request-decline-reason'), { target: { value: 'Not personal data' } })
    fireEvent.click(within(card).getByTestId('request-decline-apply'))
    const declined = await within(card).findByTestId('request-declined')
    expect(calls.find((c) => c.path.endsWith('/decline'))).toMatchObject({ method: 'POST', body: { reason: 'Not personal data' } })
    expect(declined.textContent).toMatch(/^Declined on .+, by admin: the claims are back\./)
    expect(card.getAttribute('data-status')).toBe('declined')
  })
})

describe('what was erased', () => {
  it('lists each record with where its files on disk stand, read again until they are clean', async () => {
    render(panel(listed([])))
    const disk = await screen.findByTestId('erasure-disk')
    expect(disk.getAttribute('data-disk')).toBe('pending')
    expect(disk.textContent).toMatch(/^On disk: being rewritten/)
    expect(screen.getByTestId('erasures-list').textContent).toContain('Message 1 of “Team chat”')
    act(() => {
      diskClean = true
    })
    await waitFor(() => expect(screen.getByTestId('erasure-disk').getAttribute('data-disk')).toBe('clean'), { timeout: 8000 })
    expect(screen.getByTestId('erasure-disk').textContent).toMatch(/^On disk: clean since /)
  })
})
