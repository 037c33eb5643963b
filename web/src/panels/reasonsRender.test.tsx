import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CorrectionPreview, Decision } from '../apiTypes'
import { buildNames } from '../names'
import { IDS, LAUNCH } from '../testWorld'
import { WorkspaceCtx } from '../workspace'
import { DecisionPanel } from './DecisionPanel'
import { PreviewList } from './PreviewList'
import { withQueries } from '../testQueries'

const names = buildNames(LAUNCH)
const BARE_ID = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8}\b/

const preview: CorrectionPreview = {
  claim: { id: IDS.june, statement: 'The product launch is planned for June 12.', status: 'accepted', revision: 1 },
  kind: 'replace',
  also_states_this: [],
  statement: 'The product launch is planned for July 15.',
  flag: [
    {
      decision_id: IDS.event,
      title: 'Plan the launch event',
      status: 'draft',
      reasons: [{ type: 'premise_lost', premise: 'Plan the launch event', claim_ids: [IDS.june] }],
    },
  ],
  hold: [],
  stay: [
    {
      decision_id: IDS.staffing,
      title: 'Staff launch week',
      supported_by: [{ premise: '', claim_ids: [IDS.support] }],
    },
  ],
  revisions: {
    claim_revision: 1,
    impact_token: 'imp_x',
    impact: { decisions: {}, actions: {}, claims: {}, upstream: {}, twins: {}, in_other_words: {} },
  },
}

function inWorkspace(ui: React.ReactNode) {
  return withQueries(<WorkspaceCtx.Provider value={{ ws: 'w1', names }}>{ui}</WorkspaceCtx.Provider>)
}

afterEach(cleanup)

describe('PreviewList', () => {
  it('says each reason in words, with every name a link to its node', () => {
    const onSelect = vi.fn()
    const { container } = render(inWorkspace(<PreviewList preview={preview} onSelect={onSelect} />))
    const text = container.textContent ?? ''
    expect(text).toContain('1 decision will be flagged for review, 1 decision stays supported.')
    expect(text).toContain('Premise “Plan the launch event” loses its last claim: “The product launch is planned for June 12.” from Launch plan')
    expect(text).toContain('Its premise is still supported by “The support team needs three extra people.” from Ops notes')
    expect(text).not.toMatch(BARE_ID)
    const link = screen.getByText('The support team needs three extra people.')
    expect(link.tagName).toBe('A')
    expect(link.getAttribute('data-id')).toBe(IDS.support)
    fireEvent.click(link)
    expect(onSelect).toHaveBeenCalledWith(IDS.support, 'claim')
  })

  it('says plainly when nothing depended on the claim', () => {
    const { container } = render(
      inWorkspace(<PreviewList preview={{ ...preview, flag: [], stay: [] }} onSelect={() => {}} />),
    )
    expect(container.textContent).toBe('Nothing depended on this claim: no decision or action changes.')
  })
})

describe('DecisionPanel', () => {
  const decision: Decision = {
    id: IDS.event,
    title: 'Plan the launch event',
    summary: '',
    status: 'needs_review',
    revision: 2,
    created_at: 0,
    run_id: null,
    premises: [
      {
        premise: 'Plan the launch event',
        claims: [{ id: IDS.june, statement: 'The product launch is planned for June 12.', status: 'superseded', source_id: IDS.plan }],
      },
    ],
    depends_on: [],
    dependents: [],
    actions: [],
    review_reason: {
      type: 'correction',
      correction_id: IDS.fix,
      claim_id: IDS.june,
      reasons: [{ type: 'premise_lost', premise: 'Plan the launch event', claim_ids: [IDS.june] }],
    },
  }
  beforeEach(() => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(decision), { status: 200 })))
  })
  afterEach(() => vi.unstubAllGlobals())

  it('shows why it needs review in words, never the stored JSON', async () => {
    render(inWorkspace(<DecisionPanel ws="w1" id={IDS.event} onChanged={() => {}} onSelect={() => {}} />))
    const reason = await waitFor(() => screen.getByTestId('decision-review-reason'))
    expect(reason.textContent).toBe(
      'Flagged for review: a reviewer corrected “The product launch is planned for June 12.” to ' +
        '“The product launch is planned for July 15.”.' +
        'Premise “Plan the launch event” lost its last claim: “The product launch is planned for June 12.” from Launch plan',
    )
    const panel = screen.getByTestId('decision-panel').textContent ?? ''
    expect(panel).not.toMatch(/[{}]|"type"/)
    expect(panel).not.toMatch(BARE_ID)
    expect(screen.getByTestId('premise-state').textContent).toBe(
      'Premise “Plan the launch event” lost its last claim: none of its claims is current.',
    )
  })
})
