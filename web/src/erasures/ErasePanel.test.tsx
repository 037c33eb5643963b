import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import type { QueryClient } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { buildNames } from '../names'
import { SourcePanel } from '../panels/SourcePanel'
import { newQueryClient } from '../query'
import { withQueries } from '../testQueries'
import { WorkspaceCtx } from '../workspace'
import { EraseAction } from './EraseAction'
import { clearRefusals } from './refused'
import { AT, IDS, PHONE, chatGraph, conversation, messageApplied, messagePreview, record } from './testErasure'

type Route = (method: string, path: string, body: unknown) => Response | undefined

function reply(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}
const refusal = (code: string, status: number, details: Record<string, unknown> = {}) =>
  reply(status, { error: { code, message: `${code} said by the server`, details } })

let fetchMock: ReturnType<typeof vi.fn>
let calls: { method: string; path: string; body: unknown }[]
function serve(route: Route) {
  fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET'
    const path = String(url).replace(/^\/api/, '')
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, path, body })
    const answer = route(method, path, body)
    if (!answer) throw new Error(`unexpected ${method} ${path}`)
    return answer
  })
}
const sent = (method: string, suffix: string) => calls.filter((c) => c.method === method && c.path.endsWith(suffix))

beforeEach(() => {
  fetchMock = vi.fn()
  calls = []
  vi.stubGlobal('fetch', fetchMock)
  Element.prototype.scrollIntoView = vi.fn()
  clearRefusals()
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const TARGET = { source_id: IDS.chat, message_index: 0 }

function renderAction(client: QueryClient = newQueryClient()) {
  return render(
    withQueries(
      <WorkspaceCtx.Provider value={{ ws: 'w1', names: buildNames(chatGraph()), asOf: null }}>
        <EraseAction ws="w1" target={TARGET} label="Erase" what="message 1, by Ana" onSelect={() => {}} />
      </WorkspaceCtx.Provider>,
      client,
    ),
  )
}

describe('erasing a message', () => {
  it('previews at once what goes and what is repaired, then applies with the token and the reason', async () => {
    serve((method, path) => {
      if (method === 'POST' && path.endsWith('/erasures/preview')) return reply(200, messagePreview())
      if (method === 'POST' && path.endsWith('/erasures')) return reply(201, messageApplied())
      return undefined
    })
    const client = newQueryClient()
    const invalidated = vi.spyOn(client, 'invalidateQueries')
    renderAction(client)
    fireEvent.click(screen.getByTestId('erase-offer'))
    await screen.findByTestId('erase-preview')
    expect(sent('POST', '/erasures/preview')[0].body).toEqual({ target: TARGET })
    expect(screen.getByTestId('erase-summary').textContent).toBe('Erases 1 message and 1 claim; 1 decision will need review.')
    expect(screen.getByTestId('erase-goes-message').textContent).toBe('Message 1 by Ana in Team chat')
    expect(screen.getByTestId('erase-goes-claim').getAttribute('data-id')).toBe(IDS.phone)
    expect(screen.getByTestId('preview-flagged').getAttribute('data-id')).toBe(IDS.decision)
    expect(sent('POST', '/erasures')).toEqual([])

    fireEvent.change(screen.getByTestId('erase-reason'), { target: { value: '  Said by mistake ' } })
    fireEvent.click(screen.getByTestId('erase-apply'))
    const outcome = await screen.findByTestId('erase-outcome')
    expect(sent('POST', '/erasures')[0].body).toEqual({ target: TARGET, impact_token: 'era_1', reason: 'Said by mistake' })
    expect(outcome.getAttribute('data-status')).toBe('applied')
    expect(screen.getByTestId('erase-outcome-summary').textContent).toBe('Erased 1 message and 1 claim; 1 decision needs review.')
    expect(screen.getByTestId('erasure-disk').getAttribute('data-disk')).toBe('pending')
    // The outcome speaks of what was repaired by what stands there now: never the erased words.
    expect(outcome.textContent).not.toContain(PHONE)
    expect(invalidated).toHaveBeenCalledWith({ queryKey: ['ws', 'w1'] })
  })

  it('refuses a stale preview: nothing is applied, the reader is told, and the next preview is what applies', async () => {
    let previews = 0
    let applies = 0
    serve((method, path) => {
      if (path.endsWith('/erasures/preview')) return reply(200, messagePreview(`era_${++previews}`))
      if (method === 'POST' && path.endsWith('/erasures')) {
        applies += 1
        return applies === 1 ? refusal('stale_erasure_preview', 409) : reply(201, messageApplied())
      }
      return undefined
    })
    renderAction()
    fireEvent.click(screen.getByTestId('erase-offer'))
    await screen.findByTestId('erase-preview')
    fireEvent.click(screen.getByTestId('erase-apply'))
    await screen.findByTestId('erase-stale')
    expect(screen.queryByTestId('erase-preview')).toBeNull()
    expect(screen.queryByTestId('erase-error')).toBeNull()
    fireEvent.click(screen.getByTestId('erase-preview-again'))
    await screen.findByTestId('erase-preview')
    expect(screen.queryByTestId('erase-stale')).toBeNull()
    fireEvent.click(screen.getByTestId('erase-apply'))
    await screen.findByTestId('erase-outcome')
    expect(sent('POST', '/erasures').map((c) => (c.body as { impact_token: string }).impact_token)).toEqual(['era_1', 'era_2'])
  })

  it('says when the same erasure was applied already, with its record', async () => {
    serve((method, path) => {
      if (path.endsWith('/erasures/preview')) return reply(200, messagePreview())
      if (method === 'POST' && path.endsWith('/erasures')) return reply(200, messageApplied('already_applied'))
      return undefined
    })
    renderAction()
    fireEvent.click(screen.getByTestId('erase-offer'))
    await screen.findByTestId('erase-preview')
    fireEvent.click(screen.getByTestId('erase-apply'))
    const outcome = await screen.findByTestId('erase-outcome')
    expect(outcome.getAttribute('data-status')).toBe('already_applied')
    expect(screen.getByTestId('erase-outcome-summary').textContent).toMatch(/^This was erased already\. Erased 1 message/)
    expect(screen.getByTestId('erasure-record')).toBeTruthy()
  })

  it('tells a key that may not erase why, in words, and stops offering it', async () => {
    serve((_, path) =>
      path.endsWith('/erasures/preview') ? refusal('forbidden', 403, { role: 'agent', permission: 'erase' }) : undefined,
    )
    renderAction()
    fireEvent.click(screen.getByTestId('erase-offer'))
    const said = await screen.findByTestId('erase-forbidden')
    expect(said.textContent).toBe('This key is an agent’s: erasing needs a reviewer’s or an admin’s key.')
    expect(screen.queryByTestId('erase-preview')).toBeNull()
    expect(screen.queryByTestId('erase-error')).toBeNull()
    fireEvent.click(screen.getByTestId('erase-cancel'))
    expect(screen.queryByTestId('erase-offer')).toBeNull()
    expect(screen.getByTestId('erase-refused').textContent).toContain('reviewer’s or an admin’s key')
  })

  it('says there is nothing left to erase, and shows no error', async () => {
    serve((_, path) => (path.endsWith('/erasures/preview') ? refusal('nothing_to_erase', 422) : undefined))
    renderAction()
    fireEvent.click(screen.getByTestId('erase-offer'))
    await screen.findByTestId('erase-nothing')
    expect(screen.queryByTestId('erase-error')).toBeNull()
    expect(screen.queryByTestId('erase-apply')).toBeNull()
  })

  it('offers nothing in the past', () => {
    render(
      withQueries(
        <WorkspaceCtx.Provider value={{ ws: 'w1', names: buildNames(chatGraph()), asOf: AT }}>
          <EraseAction ws="w1" target={TARGET} label="Erase" what="message 1" onSelect={() => {}} />
        </WorkspaceCtx.Provider>,
      ),
    )
    expect(screen.queryByTestId('erase-offer')).toBeNull()
  })
})

describe('a transcript with an erased message', () => {
  it('shows the marker where the words were, who erased them and when, and offers to erase the others', async () => {
    const chat = conversation(IDS.chat, 'Team chat', [
      ['Ana', '[erased]'],
      ['Ben', 'The launch is planned for June 12.'],
      ['Ana', 'Call me on [erased] after six.'],
    ])
    serve((_, path) => {
      if (path.endsWith(`/sources/${IDS.chat}`)) return reply(200, chat)
      if (path.includes('/erasures?status=applied')) {
        return reply(200, { items: [record({ target: { ...record().target, source_id: IDS.chat } })], next_cursor: null, total: 1 })
      }
      return undefined
    })
    render(
      withQueries(
        <WorkspaceCtx.Provider value={{ ws: 'w1', names: buildNames(chatGraph()), asOf: null }}>
          <SourcePanel ws="w1" id={IDS.chat} onSelect={() => {}} />
        </WorkspaceCtx.Provider>,
      ),
    )
    await screen.findByTestId('transcript')
    const note = await screen.findByTestId('message-erased')
    expect(note.textContent).toMatch(/^Erased on .+, by admin\.$/)
    const messages = screen.getAllByTestId('transcript-message')
    expect(messages[0].querySelector('[data-testid="erased-mark"]')?.textContent).toBe('erased')
    expect(messages[2].querySelector('.message-text')?.textContent).toBe('Call me on erased after six.')
    // Only the message in whole; the one with words left, and Ben's, can still be erased.
    expect(messages.map((m) => m.querySelector('[data-testid="erase-offer"]') !== null)).toEqual([false, true, true])
    expect(messages[2].querySelector('[data-testid="message-erased"]')).toBeNull()
  })
})
