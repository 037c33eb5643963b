import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Run } from './apiTypes'
import { RunsList } from './panels/RunsList'
import { showing } from './paging'
import { newQueryClient, wsKey } from './query'
import { withQueries } from './testQueries'

function reply(body: unknown) {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
}

const run = (i: number): Run => ({
  id: `run-${i}`,
  task: `Task ${i}`,
  status: 'completed',
  model: 'offline',
  created_at: 1000 - i,
  decision_ids: [],
})
const runs = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => run(from + k))

let fetchMock: ReturnType<typeof vi.fn>
beforeEach(() => {
  fetchMock = vi.fn()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const urls = () => fetchMock.mock.calls.map((c) => String(c[0]))
const listed = () => screen.getByTestId('runs-list').querySelectorAll('li').length

describe('showing', () => {
  it('counts what is shown against the total while more can be loaded, and is silent when all is shown', () => {
    expect(showing(20, 45, true)).toBe('Showing 20 of 45')
    expect(showing(20, null, true)).toBe('Showing 20, more to load')
    expect(showing(45, 45, false)).toBeNull()
    expect(showing(3, null, false)).toBeNull()
    // Items were added since the count: the count still says there are more.
    expect(showing(40, 41, false)).toBe('Showing 40 of 41')
  })
})

describe('a paged list (agent runs)', () => {
  it('shows 20 of 45, loads the next page after the cursor on "more", and stops at the last', async () => {
    fetchMock
      .mockResolvedValueOnce(reply({ items: runs(0, 20), next_cursor: 'c1', total: 45 }))
      .mockResolvedValueOnce(reply({ items: runs(20, 40), next_cursor: 'c/2+', total: 45 }))
      .mockResolvedValueOnce(reply({ items: runs(40, 45), next_cursor: null, total: 45 }))
    render(withQueries(<RunsList ws="w1" onOpen={() => {}} />))
    await screen.findByTestId('runs-list')
    expect(listed()).toBe(20)
    expect(screen.getByTestId('runs-more-count').textContent).toBe('Showing 20 of 45')
    expect(urls()).toEqual(['/api/workspaces/w1/agent-runs?limit=20'])

    fireEvent.click(screen.getByTestId('runs-more-button'))
    await waitFor(() => expect(listed()).toBe(40))
    expect(screen.getByTestId('runs-more-count').textContent).toBe('Showing 40 of 45')
    expect(urls()[1]).toBe('/api/workspaces/w1/agent-runs?limit=20&cursor=c1')

    fireEvent.click(screen.getByTestId('runs-more-button'))
    await waitFor(() => expect(listed()).toBe(45))
    // The cursor is sent as the server gave it, escaped for the URL.
    expect(urls()[2]).toBe('/api/workspaces/w1/agent-runs?limit=20&cursor=c%2F2%2B')
    expect(screen.queryByTestId('runs-more')).toBeNull()
    const tasks = [...screen.getByTestId('runs-list').querySelectorAll('li button')].map((b) => b.textContent)
    expect(tasks).toEqual(runs(0, 45).map((r) => r.task))
  })

  it('shows an item once when a page repeats one already shown', async () => {
    fetchMock
      .mockResolvedValueOnce(reply({ items: runs(0, 2), next_cursor: 'c1', total: 3 }))
      .mockResolvedValueOnce(reply({ items: runs(1, 3), next_cursor: null, total: 3 }))
    render(withQueries(<RunsList ws="w1" onOpen={() => {}} />))
    await screen.findByTestId('runs-list')
    fireEvent.click(screen.getByTestId('runs-more-button'))
    await waitFor(() => expect(listed()).toBe(3))
    expect(screen.queryByTestId('runs-more')).toBeNull()
  })

  it('starts again from the first page when the list is refreshed', async () => {
    fetchMock
      .mockResolvedValueOnce(reply({ items: runs(0, 20), next_cursor: 'c1', total: 45 }))
      .mockResolvedValueOnce(reply({ items: runs(20, 40), next_cursor: 'c2', total: 45 }))
      .mockResolvedValueOnce(reply({ items: [run(99), ...runs(0, 19)], next_cursor: 'd1', total: 46 }))
    const client = newQueryClient()
    render(withQueries(<RunsList ws="w1" onOpen={() => {}} />, client))
    await screen.findByTestId('runs-list')
    fireEvent.click(screen.getByTestId('runs-more-button'))
    await waitFor(() => expect(listed()).toBe(40))
    // A change made in the workspace reads everything of it again.
    await act(() => client.invalidateQueries({ queryKey: wsKey('w1') }))
    await waitFor(() => expect(screen.getByTestId('runs-more-count').textContent).toBe('Showing 20 of 46'))
    expect(urls()[2]).toBe('/api/workspaces/w1/agent-runs?limit=20')
    expect(screen.getByTestId('runs-list').querySelector('li button')?.textContent).toBe('Task 99')
  })

  it('says nothing about more when the list fits one page', async () => {
    fetchMock.mockResolvedValueOnce(reply({ items: runs(0, 3), next_cursor: null, total: 3 }))
    render(withQueries(<RunsList ws="w1" onOpen={() => {}} />))
    await screen.findByTestId('runs-list')
    expect(listed()).toBe(3)
    expect(screen.queryByTestId('runs-more')).toBeNull()
  })
})

describe('an answer from before cursors', () => {
  it('is one page without a count, and offers no more', async () => {
    fetchMock.mockResolvedValueOnce(reply({ items: runs(0, 2) }))
    render(withQueries(<RunsList ws="w1" onOpen={() => {}} />))
    await screen.findByTestId('runs-list')
    expect(listed()).toBe(2)
    expect(screen.queryByTestId('runs-more')).toBeNull()
  })
})
