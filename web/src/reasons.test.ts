import { describe, expect, it } from 'vitest'
import type { CorrectionPreview } from './apiTypes'
import { buildNames, NO_NAMES } from './names'
import {
  claimWithOrigin,
  droppedPhrase,
  explainReviewReason,
  flagReasonPhrase,
  heldBecausePhrase,
  impactSummary,
  parseReviewReason,
  phraseText,
  previewFlagPhrases,
  proposalPhrases,
  stillSupportedPhrase,
  type Phrase,
} from './reasons'
import { IDS, LAUNCH } from './testWorld'
import { JUNE_12, JUNE_19, MEMO, twoMemos } from './conflicts/testConflict'
import { IDS as ERASURE_IDS, chatGraph } from './erasures/testErasure'

const names = buildNames(LAUNCH)
const text = (p: Phrase) => phraseText(p)
/** No reason may show an id: every reference is a link behind its name. */
const refs = (p: Phrase) => p.filter((x) => typeof x !== 'string')
const BARE_ID = /[0-9a-f]{8}-|\b[0-9a-f]{8}\b/

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
    {
      decision_id: IDS.venueBooking,
      title: 'Book the venue',
      status: 'draft',
      reasons: [{ type: 'upstream_fell', decision_id: IDS.event }],
    },
  ],
  hold: [{ action_id: IDS.book, description: 'Book the venue for the launch', status: 'approved', decision_ids: [IDS.venueBooking] }],
  stay: [
    {
      decision_id: IDS.staffing,
      title: 'Staff launch week',
      supported_by: [{ premise: 'Staff launch week', claim_ids: [IDS.support] }],
    },
  ],
  revisions: {
    claim_revision: 1,
    impact_token: 'imp_x',
    impact: { decisions: {}, actions: {}, claims: {}, upstream: {}, twins: {}, in_other_words: {} },
  },
}

describe('reason sentences', () => {
  it('premise lost: names the premise, the claim by its statement and its source', () => {
    const phrase = flagReasonPhrase(preview.flag[0].reasons[0], { names, tense: 'preview', corrected: IDS.june })
    expect(text(phrase)).toBe(
      'Premise “Plan the launch event” loses its last claim: “The product launch is planned for June 12.” from Launch plan',
    )
    expect(refs(phrase)).toEqual([
      { id: IDS.june, kind: 'claim', text: 'The product launch is planned for June 12.' },
      { id: IDS.plan, kind: 'source', text: 'Launch plan' },
    ])
    const past = flagReasonPhrase(preview.flag[0].reasons[0], { names, tense: 'past', corrected: IDS.june })
    expect(text(past)).toMatch(/^Premise “Plan the launch event” lost its last claim: “The product launch/)
  })

  it('premise lost with several claims names the corrected one as the last, or all when none was', () => {
    const reason = { type: 'premise_lost' as const, premise: '', claim_ids: [IDS.june, IDS.venue] }
    expect(text(flagReasonPhrase(reason, { names, tense: 'past', corrected: IDS.june }))).toBe(
      'Its premise lost its last claim: “The product launch is planned for June 12.” from Launch plan',
    )
    expect(text(flagReasonPhrase(reason, { names, tense: 'past' }))).toBe(
      'Its premise lost all its claims: “The product launch is planned for June 12.” from Launch plan and ' +
        '“The launch venue is the Berlin Congress Hall.” from Launch plan',
    )
  })

  it('upstream fell: names the decision it builds on, falling in the same preview or already fallen', () => {
    const [phrase] = previewFlagPhrases(preview.flag[1], preview, names)
    expect(text(phrase)).toBe('It builds on “Plan the launch event”, which falls too')
    expect(refs(phrase)).toEqual([{ id: IDS.event, kind: 'decision', text: 'Plan the launch event' }])
    const [past] = previewFlagPhrases(preview.flag[1], preview, names, 'past')
    expect(text(past)).toBe('It builds on “Plan the launch event”, which fell (it needs review)')
  })

  it('still supported by “…”: the claims that hold the premise, with their source', () => {
    const phrase = stillSupportedPhrase(preview.stay[0].supported_by[0], names)
    expect(text(phrase)).toBe(
      'Premise “Staff launch week” is still supported by “The support team needs three extra people.” from Ops notes',
    )
    expect(refs(phrase).map((r) => typeof r !== 'string' && r.kind)).toEqual(['claim', 'source'])
  })

  it('held because “…”: the decision the action requires that fell', () => {
    const flagged = new Set(preview.flag.map((f) => f.decision_id))
    expect(text(heldBecausePhrase([IDS.venueBooking], names, 'preview', (id) => flagged.has(id)))).toBe(
      'Will be held because it requires “Book the venue”, which will be flagged for review',
    )
    expect(text(heldBecausePhrase([IDS.venueBooking, IDS.staffing], names, 'past', (id) => id === IDS.venueBooking))).toBe(
      'Held because it requires “Book the venue”, which needs review',
    )
  })

  it('a claim from a reviewer’s correction says so, linked to the correction', () => {
    const phrase = claimWithOrigin(IDS.july, names)
    expect(text(phrase)).toBe('“The product launch is planned for July 15.” from a reviewer’s correction')
    expect(refs(phrase)[1]).toMatchObject({ id: IDS.fix, kind: 'correction' })
  })

  it('a name the graph lacks is left for the link to look up, never replaced by the id', () => {
    const phrase = claimWithOrigin('c9999999-0000-4000-8000-000000000000', NO_NAMES)
    expect(refs(phrase)).toEqual([{ id: 'c9999999-0000-4000-8000-000000000000', kind: 'claim', text: null }])
    expect(text(phrase)).not.toMatch(BARE_ID)
  })

  it('one line for the whole impact, and a plain "nothing depended" when nothing did', () => {
    expect(impactSummary(preview, 'preview')).toBe(
      '2 decisions will be flagged for review, 1 action will be held, 1 decision stays supported.',
    )
    expect(impactSummary(preview, 'past')).toBe('2 decisions were flagged for review, 1 action was held, 1 decision stays supported.')
    const none = { ...preview, flag: [], hold: [], stay: [] }
    expect(impactSummary(none, 'preview')).toBe('Nothing depended on this claim: no decision or action changes.')
  })
})

describe('a decision’s review reason', () => {
  it('reads the stored JSON as sentences: what was corrected, to what, and why the decision fell', () => {
    const raw = {
      type: 'correction',
      correction_id: IDS.fix,
      claim_id: IDS.june,
      reasons: [{ type: 'premise_lost', premise: 'Plan the launch event', claim_ids: [IDS.june] }],
    }
    const { headline, details } = explainReviewReason(parseReviewReason(raw)!, names)
    expect(text(headline)).toBe(
      'Flagged for review: a reviewer corrected “The product launch is planned for June 12.” to ' +
        '“The product launch is planned for July 15.”.',
    )
    expect(details.map(text)).toEqual([
      'Premise “Plan the launch event” lost its last claim: “The product launch is planned for June 12.” from Launch plan',
    ])
    for (const p of [headline, ...details]) expect(text(p)).not.toMatch(/[{}]|"type"/)
  })

  it('covers a re-check, a rejected upstream, a rejection, a run without evidence, and an unknown type', () => {
    const say = (raw: Record<string, unknown>) => text(explainReviewReason(parseReviewReason(raw)!, names).headline)
    expect(say({ type: 'recheck', claim_id: IDS.june, reasons: [] })).toBe(
      'Flagged for review when “The product launch is planned for June 12.” was checked again after its correction.',
    )
    expect(say({ type: 'upstream_rejected', decision_id: IDS.event, reasons: [] })).toBe(
      'Flagged for review: “Plan the launch event”, which it builds on, was rejected.',
    )
    expect(say({ type: 'rejected', note: 'wrong city' })).toBe('Rejected by a reviewer: “wrong city”.')
    expect(say({ type: 'rejected', note: null })).toBe('Rejected by a reviewer.')
    expect(say({ type: 'no_evidence', detail: 'no claim matched the task' })).toBe(
      'No source-backed answer: no claim matched the task',
    )
    expect(say({ type: 'something_new' })).toBe('Needs review (something new).')
    expect(parseReviewReason(null)).toBeNull()
  })

  it('drops malformed reasons instead of showing them', () => {
    const parsed = parseReviewReason({ type: 'correction', claim_id: IDS.june, reasons: [{ type: 'upstream_fell' }, 'x', null] })
    expect(parsed).toMatchObject({ type: 'correction', reasons: [] })
  })
})

describe('the handoff trail in words', () => {
  it('says what a coordinator proposed, never its JSON', () => {
    const phrases = proposalPhrases(
      {
        title: 'Plan the launch event',
        summary: 'The launch is on June 12.',
        claim_ids: [IDS.june],
        premises: [{ statement: 'Plan the launch event', claim_ids: [IDS.june] }],
        actions: [{ description: 'Book the venue' }],
      },
      names,
    )
    expect(phrases.map(text)).toEqual([
      'Proposes the decision “Plan the launch event”.',
      'The launch is on June 12.',
      'Premise “Plan the launch event” rests on “The product launch is planned for June 12.”.',
      'Proposes the action “Book the venue”.',
    ])
    expect(proposalPhrases({ unknown: { nested: true } }, names)).toEqual([])
  })

  it('names a dropped claim by its statement, and an invented id without printing it', () => {
    expect(text(droppedPhrase({ claim_id: IDS.venue, reason: 'not_searched' }, names))).toBe(
      '“The launch venue is the Berlin Congress Hall.”: cited without a search that found it.',
    )
    const invented = droppedPhrase({ claim_id: 'deadbeef-0000-4000-8000-000000000000', reason: 'unknown' }, names)
    expect(text(invented)).toBe('A claim the model cited that does not exist in this workspace.')
  })
})

describe('review reasons when sources disagree', () => {
  const open = buildNames(twoMemos())
  const settled = buildNames(twoMemos('superseded'))
  const say = (raw: Record<string, unknown>, n = open) => explainReviewReason(parseReviewReason(raw)!, n)
  const noIds = (e: { headline: Phrase; details: Phrase[] }) => {
    for (const p of [e.headline, ...e.details]) expect(text(p)).not.toMatch(BARE_ID)
  }

  it('sources_disagree: the run did not pick a side; both claims named with their source; what to do', () => {
    const raw = { type: 'sources_disagree', conflict_ids: [MEMO.conflict], claim_ids: [MEMO.june12, MEMO.june19] }
    const said = say(raw)
    expect(text(said.headline)).toBe('Needs review: its sources disagree, so the run did not pick a side and proposed no action.')
    expect(said.details.map(text)).toEqual([
      `The sources say “${JUNE_12}” from March memo and “${JUNE_19}” from April memo.`,
      'Settle the conflict in the Conflicts panel (keep one side, or dismiss if both are true); a new run then cites what was kept.',
    ])
    expect(refs(said.details[0]).map((r) => typeof r !== 'string' && [r.kind, r.id])).toEqual([
      ['claim', MEMO.june12],
      ['source', MEMO.march],
      ['claim', MEMO.june19],
      ['source', MEMO.april],
    ])
    noIds(said)
  })

  it('sources_disagree, settled since: says which side was superseded instead of asking again', () => {
    const raw = { type: 'sources_disagree', conflict_ids: [MEMO.conflict], claim_ids: [MEMO.june12, MEMO.june19] }
    const said = say(raw, settled)
    expect(text(said.details[1])).toBe(`Settled since: “${JUNE_12}” was superseded; a new run cites what was kept.`)
    const two = say({ ...raw, conflict_ids: ['k1', 'k2'] })
    expect(text(two.headline)).toMatch(/^Needs review: its sources disagree on 2 points, so the run did not pick a side/)
    expect(text(two.details[1])).toMatch(/^Settle the conflicts in the Conflicts panel/)
  })

  it('conflict_resolved: which claim a reviewer kept over which, and the premise that lost its last claim', () => {
    const said = say(
      {
        type: 'conflict_resolved',
        conflict_id: MEMO.conflict,
        correction_id: 'k-corr',
        kept_claim_id: MEMO.june19,
        superseded: [MEMO.june12],
        reasons: [{ type: 'premise_lost', premise: JUNE_12, claim_ids: [MEMO.june12] }],
      },
      settled,
    )
    expect(text(said.headline)).toBe(
      `Flagged for review: its sources disagreed, and a reviewer kept “${JUNE_19}” from April memo over “${JUNE_12}” from March memo.`,
    )
    expect(said.details.map(text)).toEqual([`Premise “${JUNE_12}” lost its last claim: “${JUNE_12}” from March memo`])
    noIds(said)
    expect(text(say({ type: 'conflict_resolved', reasons: [] }).headline)).toBe(
      'Flagged for review: a reviewer settled a disagreement between its sources.',
    )
  })

  it('source_revised: the source by its title, what its new version no longer says, and why the decision fell', () => {
    const said = say(
      {
        type: 'source_revised',
        source_id: MEMO.march,
        version_id: 'v2',
        retired: [MEMO.june12],
        reasons: [{ type: 'premise_lost', premise: null, claim_ids: [MEMO.june12] }],
      },
      settled,
    )
    expect(text(said.headline)).toBe(`Flagged for review: a new version of “March memo” no longer says “${JUNE_12}”.`)
    expect(refs(said.headline).map((r) => typeof r !== 'string' && r.kind)).toEqual(['source', 'claim'])
    expect(said.details.map(text)).toEqual([`Its premise lost its last claim: “${JUNE_12}” from March memo`])
    noIds(said)
    expect(text(say({ type: 'source_revised', source_id: MEMO.march, retired: [], reasons: [] }).headline)).toBe(
      'Flagged for review: a new version of “March memo” changed what it says.',
    )
  })

  it('reads malformed conflict reasons without showing them', () => {
    expect(parseReviewReason({ type: 'sources_disagree', conflict_ids: 'k1', claim_ids: [7, null, MEMO.june12] })).toEqual({
      type: 'sources_disagree',
      conflict_ids: [],
      claim_ids: [MEMO.june12],
    })
    const said = say({ type: 'sources_disagree' })
    expect(said.details).toEqual([])
    expect(parseReviewReason({ type: 'conflict_resolved', superseded: {}, reasons: 'x' })).toMatchObject({
      superseded: [],
      reasons: [],
    })
  })
})

describe('review reasons after an erasure', () => {
  const ERASED = 'Erased on 2026-12-07 23:33 UTC, by admin.'
  const erased = buildNames(chatGraph(ERASED, 'erased'))
  const say = (raw: Record<string, unknown>) => {
    const reason = parseReviewReason(raw)
    if (!reason) throw new Error('no reason')
    return explainReviewReason(reason, erased)
  }

  it('names the erased claim by what stands where it stood, and a premise whose words went by what became of them', () => {
    const said = say({
      type: 'erasure',
      erasure_id: 'era-1',
      claim_ids: [ERASURE_IDS.phone],
      reasons: [{ type: 'premise_lost', premise: '[erased]', claim_ids: [ERASURE_IDS.phone] }],
    })
    expect(text(said.headline)).toBe(`Flagged for review: the claim it rested on was erased: “${ERASED}” from Team chat.`)
    expect(refs(said.headline).map((r) => typeof r !== 'string' && r.kind)).toEqual(['claim', 'source'])
    expect(said.details.map(text)).toEqual([`A premise whose words were erased lost its last claim: “${ERASED}” from Team chat`])
    expect(text(said.headline) + said.details.map(text).join('')).not.toContain('[erased]')
    expect(text(say({ type: 'erasure', claim_ids: [], reasons: [] }).headline)).toBe(
      'Flagged for review: words it rested on were erased.',
    )
  })
})
