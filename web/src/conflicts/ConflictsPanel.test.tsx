import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Async } from '../hooks'
import { buildNames } from '../names'
import { WorkspaceCtx } from '../workspace'
import { ConflictCard, SideCard } from './ConflictCard'
import { ConflictsPanel } from './ConflictsPanel'
import { claimsOf } from './words'
import { CONFLICT, DISMISS, JUNE_12, JUNE_19, KEEP_JUNE_19, MEMO, claimView, supersedeCorrection, twoMemos } from './testConflict'
import type { Choice, Conflict, ResolutionApplied, ResolutionPreview } from './types'

const BARE_ID = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8}\b/
const READ_AT = Date.UTC(2026, 3, 14, 18, 0)

function reply(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

const listed = (items: Conflict[]): Async<{ items: Conflict[]; readAt: number }> => ({
  data: { items, readAt: READ_AT },
  error: null,
  loading: false,
  reload: () => {},
})

function Harness({ onResolved }: { onResolved: (r: ResolutionApplied, p: ResolutionPreview) => void }) {
  const [preview, setPreview] = useState<ResolutionPreview | null>(null)
  return (
    <WorkspaceCtx.Provider value={{ ws: 'w1', names: buildNames(twoMemos()) }}>
      <div data-testid="previewing">{preview ? preview.resolution : 'none'}</div>
      <ConflictsPanel
        ws="w1"
        asOf={null}
        list={listed([CONFLICT])}
        preview={preview}
        onPreview={setPreview}
        onResolved={onResolved}
        onSelect={() => {}}
        focus={null}
      />
    </WorkspaceCtx.Provider>
  )
}

let fetchMock: ReturnType<typeof vi.fn>
beforeEach(() => {
  fetchMock = vi.fn()
  vi.stubGlobal('fetch', fetchMock)
  // jsdom lays nothing out: the panel's "bring this into view" has nothing to do.
  Element.prototype.scrollIntoView = vi.fn()
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body))

describe("a side a reviewer wrote", () => {
  it('comes from the reviewer’s correction, linked as a correction, not as a source', () => {
    const side = { ...claimsOf(CONFLICT)[0], source_id: null, source_title: null, correction_id: 'corr-0001', version: null, source_added_at: null }
    render(
      <WorkspaceCtx.Provider value={{ ws: 'w1', names: buildNames(twoMemos()) }}>
        <SideCard side={side} now={READ_AT} newer={false} onSelect={() => {}} />
      </WorkspaceCtx.Provider>,
    )
    const origin = screen.getByTestId('conflict-origin')
    expect(origin.textContent).toContain('Workspace reviewer correction')
    expect(origin.textContent).not.toContain('A source no longer in the workspace')
    expect(origin.querySelector('[data-testid="link-correction"]')?.getAttribute('data-id')).toBe('corr-0001')
    expect(origin.querySelector('[data-testid="link-source"]')).toBeNull()
  })
})

describe('a dispute over one fact', () => {
  it('shows each value as a side with its claims, and keeping a value keeps its current claim', () => {
    const [june12, june19] = claimsOf(CONFLICT)
    const restated = { ...june12, id: 'c2a2b3c4-0000-4000-8000-0000000000a1', statement: 'Marketing confirmed June 12.', status: 'superseded' as const }
    const june26 = { ...june19, id: 'c2a2b3c4-0000-4000-8000-0000000000a2', statement: 'The launch is on June 26.', source_added_at: june19.created_at + 1 }
    const dispute = {
      ...CONFLICT,
      n_sides: 3,
      n_claims: 4,
      sides: [
        { side: june26.id, value: 'June 26', newest_at: june26.source_added_at, claims: [{ ...june26, side: june26.id }] },
        { side: june19.id, value: 'June 19', newest_at: june19.created_at, claims: [{ ...june19, side: june19.id }] },
        { side: june12.id, value: 'June 12', newest_at: june12.created_at, claims: [{ ...restated, side: june12.id }, { ...june12, side: june12.id }] },
      ],
    }
    const chosen: Choice[] = []
    render(
      <WorkspaceCtx.Provider value={{ ws: 'w1', names: buildNames(twoMemos()) }}>
        <ConflictCard conflict={dispute} now={READ_AT} focused={false} busy={null} onChoose={(_, c) => chosen.push(c)} onSelect={() => {}} />
      </WorkspaceCtx.Provider>,
    )
    expect(screen.getByText('Three dates for one thing')).toBeTruthy()
    expect(screen.getAllByTestId('conflict-value-head').map((h) => h.textContent)).toEqual(['June 26', 'June 19', 'June 12'])
    expect(screen.getAllByTestId('conflict-side').map((s) => s.getAttribute('data-claim-id'))).toEqual([june26.id, june19.id, restated.id, june12.id])
    const keeps = screen.getAllByTestId('conflict-keep')
    expect(keeps.map((k) => k.getAttribute('data-claim-id'))).toEqual([june26.id, june19.id, june12.id])
    fireEvent.click(keeps[2])
    expect(chosen).toEqual([{ keep: june12.id }])
    expect(screen.getByTestId('conflict-dismiss').textContent).toBe('Dismiss: all can be true')
  })
})

describe('the conflicts panel', () => {
  it('lists each conflict with both quotes side by side, their sources and dates in words, never an id', () => {
    const { container } = render(<Harness onResolved={() => {}} />)
    const sides = screen.getAllByTestId('conflict-side')
    expect(sides.map((s) => s.getAttribute('data-claim-id'))).toEqual([MEMO.june12, MEMO.june19])
    expect(screen.getAllByTestId('conflict-quote').map((q) => q.textContent)).toEqual([
      `“${JUNE_12}”`,
      '“Launch update: the launch moves to June 19.”',
    ])
    const origins = screen.getAllByTestId('conflict-origin').map((o) => o.textContent)
    expect(origins[0]).toMatch(/^March memo, added on 2 March at \d\d:\d\d$/)
    expect(origins[1]).toMatch(/^April memo, version 2, added (today|yesterday|on 14 April) at \d\d:\d\dnewest$/)
    // The quote is what the source says; the statement is shown when it reads differently.
    expect(container.textContent).toContain(`Read as: ${JUNE_19}`)
    expect(screen.getByTestId('conflict-reason').textContent).toBe('Same subject, different date: June 12 vs June 19.')
    expect(container.textContent).not.toMatch(BARE_ID)
  })

  it('keep → preview: asks for the impact of keeping that side and shows it with reasons, apply in reach', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, KEEP_JUNE_19))
    render(<Harness onResolved={() => {}} />)
    fireEvent.click(screen.getAllByTestId('conflict-keep')[1])
    await screen.findByTestId('resolution-preview')
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit]
    expect(url).toBe(`/api/workspaces/w1/conflicts/${MEMO.conflict}/preview`)
    expect(JSON.parse(String(init.body))).toEqual({ keep: MEMO.june19 })
    expect(screen.getByTestId('resolution-summary').textContent).toBe(
      `“${JUNE_12}” from March memo will be superseded by “${JUNE_19}” from April memo.`,
    )
    expect(screen.getByTestId('preview-summary').textContent).toBe('1 decision will be flagged for review, 1 action will be held.')
    expect(screen.getByTestId('preview-flagged').textContent).toContain(
      `Premise “${JUNE_12}” loses its last claim: “${JUNE_12}” from March memo`,
    )
    expect(screen.getByTestId('preview-held').textContent).toContain('Will be held because it requires “Plan the launch event”')
    const verdicts = screen.getAllByTestId('conflict-side').map((s) => s.getAttribute('data-verdict'))
    expect(verdicts).toEqual(['superseded', 'kept'])
    expect(screen.getByTestId('conflict-apply').closest('.apply-row')).not.toBeNull()
  })

  it('apply sends exactly what was previewed, then the outcome comes first with the claim gone beside the claim kept', async () => {
    const applied: ResolutionApplied = {
      status: 'applied',
      conflict: { ...CONFLICT, status: 'resolved' },
      correction: supersedeCorrection('k-corr', MEMO.june12, MEMO.june19, JUNE_19),
      kept: claimView(MEMO.june19, JUNE_19, 'proposed', MEMO.april, 'April memo'),
      superseded: [MEMO.june12],
      flagged: [MEMO.plan],
      held: [MEMO.book],
      settled: [],
    }
    const claim = (id: string, statement: string, status: string, title: string) => ({
      id,
      statement,
      status,
      evidence_quote: statement,
      confidence_kind: 'quote_match',
      origin: { type: 'document', name: title, source_id: null, source_title: title, version: 1 },
    })
    fetchMock
      .mockResolvedValueOnce(reply(200, KEEP_JUNE_19))
      .mockResolvedValueOnce(reply(201, applied))
      .mockImplementation(async (url: string) =>
        url.endsWith(MEMO.june12)
          ? reply(200, claim(MEMO.june12, JUNE_12, 'superseded', 'March memo'))
          : reply(200, claim(MEMO.june19, JUNE_19, 'proposed', 'April memo')),
      )
    const onResolved = vi.fn()
    render(<Harness onResolved={onResolved} />)
    fireEvent.click(screen.getAllByTestId('conflict-keep')[1])
    fireEvent.change(await screen.findByTestId('conflict-reason-input'), { target: { value: 'April is the latest word' } })
    fireEvent.click(screen.getByTestId('conflict-apply'))
    await screen.findByTestId('conflict-outcome')
    expect(bodyOf(fetchMock.mock.calls[1])).toEqual({
      keep: MEMO.june19,
      reason: 'April is the latest word',
      conflict_revision: 1,
      impact_token: 'imp_k',
    })
    expect(onResolved).toHaveBeenCalledWith(applied, KEEP_JUNE_19)
    expect(screen.getByTestId('previewing').textContent).toBe('none')
    expect(screen.getByTestId('outcome-summary').textContent).toBe('1 decision was flagged for review, 1 action was held.')
    expect(screen.getByTestId('outcome-claims').textContent).toBe(
      `“${JUNE_12}” from March memo was superseded by “${JUNE_19}” from April memo.`,
    )
    await waitFor(() => expect(screen.getByTestId('after-card').getAttribute('data-claim-id')).toBe(MEMO.june19))
    expect(screen.getByTestId('before-card').textContent).toContain('superseded')
  })

  it('a stale preview is not applied: the reader is told to look again', async () => {
    fetchMock
      .mockResolvedValueOnce(reply(200, KEEP_JUNE_19))
      .mockResolvedValueOnce(reply(409, { error: { code: 'stale_correction_preview', message: 'Preview again.', details: {} } }))
    const onResolved = vi.fn()
    render(<Harness onResolved={onResolved} />)
    fireEvent.click(screen.getAllByTestId('conflict-keep')[0])
    fireEvent.click(await screen.findByTestId('conflict-apply'))
    await screen.findByTestId('conflict-stale')
    expect(onResolved).not.toHaveBeenCalled()
    expect(screen.getByTestId('previewing').textContent).toBe('none')
    expect(screen.getAllByTestId('conflict')).toHaveLength(1)
  })

  it('dismiss → preview says both stay; apply sends dismiss and shows both claims as they stay', async () => {
    const dismissed: ResolutionApplied = {
      status: 'applied',
      conflict: { ...CONFLICT, status: 'dismissed' },
      correction: null,
      kept: null,
      superseded: [],
      flagged: [],
      held: [],
      settled: [],
    }
    const claim = (id: string, statement: string, title: string) => ({
      id,
      statement,
      status: 'proposed',
      evidence_quote: statement,
      confidence_kind: 'quote_match',
      origin: { type: 'document', name: title, source_id: null, source_title: title, version: 1 },
    })
    fetchMock
      .mockResolvedValueOnce(reply(200, DISMISS))
      .mockResolvedValueOnce(reply(201, dismissed))
      .mockImplementation(async (url: string) =>
        url.endsWith(MEMO.june12) ? reply(200, claim(MEMO.june12, JUNE_12, 'March memo')) : reply(200, claim(MEMO.june19, JUNE_19, 'April memo')),
      )
    render(<Harness onResolved={() => {}} />)
    fireEvent.click(screen.getByTestId('conflict-dismiss'))
    const preview = await screen.findByTestId('resolution-preview')
    expect(bodyOf(fetchMock.mock.calls[0])).toEqual({ dismiss: true })
    expect(preview.getAttribute('data-resolution')).toBe('dismiss')
    expect(screen.getByTestId('resolution-summary').textContent).toBe('Every value stays current, and these claims will not be raised against each other again.')
    expect(screen.getByTestId('preview-nothing').textContent).toBe('No claim changes, so no decision or action does.')
    expect(screen.getAllByTestId('conflict-side').map((s) => s.getAttribute('data-verdict'))).toEqual(['stays', 'stays'])
    fireEvent.click(screen.getByTestId('conflict-apply'))
    await screen.findByTestId('conflict-outcome')
    expect(bodyOf(fetchMock.mock.calls[1])).toEqual({ dismiss: true, conflict_revision: 1, impact_token: 'imp_d' })
    expect(screen.getByTestId('outcome-summary').textContent).toBe(
      'Dismissed: every value stays current, and these claims will not be raised against each other again.',
    )
    await waitFor(() => expect(screen.getAllByTestId('stays-card')).toHaveLength(2))
  })

  it('says so when no conflict is open', () => {
    render(
      <WorkspaceCtx.Provider value={{ ws: 'w1', names: buildNames(twoMemos()) }}>
        <ConflictsPanel ws="w1" asOf={null} list={listed([])} preview={null} onPreview={() => {}} onResolved={() => {}} onSelect={() => {}} focus={null} />
      </WorkspaceCtx.Provider>,
    )
    expect(screen.getByTestId('conflicts-empty').textContent).toMatch(/^No open conflicts/)
  })

  it('at a moment in the past lists what was open then, to read: no keep, no dismiss', () => {
    const past = READ_AT - 86_400_000
    const { rerender } = render(
      <WorkspaceCtx.Provider value={{ ws: 'w1', names: buildNames(twoMemos()), asOf: past }}>
        <ConflictsPanel ws="w1" asOf={past} list={listed([CONFLICT])} preview={null} onPreview={() => {}} onResolved={() => {}} onSelect={() => {}} focus={null} />
      </WorkspaceCtx.Provider>,
    )
    expect(screen.getAllByTestId('conflict-side')).toHaveLength(2)
    expect(screen.queryByTestId('conflict-keep')).toBeNull()
    expect(screen.queryByTestId('conflict-dismiss')).toBeNull()
    expect(screen.getByTestId('conflicts-past').textContent).toMatch(/go back to now/)
    rerender(
      <WorkspaceCtx.Provider value={{ ws: 'w1', names: buildNames(twoMemos()), asOf: past }}>
        <ConflictsPanel ws="w1" asOf={past} list={listed([])} preview={null} onPreview={() => {}} onResolved={() => {}} onSelect={() => {}} focus={null} />
      </WorkspaceCtx.Provider>,
    )
    expect(screen.getByTestId('conflicts-empty').textContent).toBe('No conflict was open at this moment.')
  })
})
