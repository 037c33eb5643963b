import { describe, expect, it } from 'vitest'
import { RANK_SEP } from '../graph/layout'
import { buildNames } from '../names'
import { phraseText } from '../reasons'
import { APRIL_ADDED, CONFLICT, DISMISS, JUNE_12, JUNE_19, KEEP_JUNE_19, MARCH_ADDED, MEMO, twoMemos, withClaims } from './testConflict'
import {
  claimsOf,
  MARK_GAP,
  placeConflicts,
  betweenInWords,
  settledInWords,
  BRACKET_REACH,
  bracketPath,
  conflictOfEdge,
  kindInWords,
  marksFromResolution,
  newerSide,
  resolutionImpact,
  resolutionPhrase,
  impactLine,
  stripText,
  sideOrigin,
  speakersInWords,
  touchedByResolution,
  whenInWords,
} from './words'

const names = buildNames(twoMemos())
const UTC = 'UTC'

describe('a conflict in words', () => {
  it('says when in words a person uses: today, yesterday, a day this year, a day in another year', () => {
    const now = Date.UTC(2026, 3, 14, 18, 0)
    expect(whenInWords(APRIL_ADDED, now, UTC)).toBe('today at 16:05')
    expect(whenInWords(APRIL_ADDED, now + 24 * 3600 * 1000, UTC)).toBe('yesterday at 16:05')
    expect(whenInWords(MARCH_ADDED, now, UTC)).toBe('on 2 March at 09:30')
    expect(whenInWords(Date.UTC(2025, 11, 24, 8, 0), now, UTC)).toBe('on 24 December 2025')
  })

  it('names each side’s source by title and when it came in, its version when past the first', () => {
    const now = Date.UTC(2026, 3, 14, 18, 0)
    expect(sideOrigin(claimsOf(CONFLICT)[0], now, UTC)).toBe('March memo, added on 2 March at 09:30')
    expect(sideOrigin(claimsOf(CONFLICT)[1], now, UTC)).toBe('April memo, version 2, added today at 16:05')
    expect(sideOrigin({ ...claimsOf(CONFLICT)[0], source_title: null, source_added_at: null }, now, UTC)).toBe(
      'A source no longer in the workspace, added on 2 March at 09:30',
    )
  })

  it('tells which side came later, and no side when both came at once', () => {
    expect(newerSide(CONFLICT)).toBe(MEMO.june19)
    const same = withClaims(CONFLICT, claimsOf(CONFLICT).map((c) => ({ ...c, source_added_at: MARCH_ADDED })))
    expect(newerSide(same)).toBeNull()
  })

  it('takes the newer side from the server when it says, and tells who said each side', () => {
    const now = Date.UTC(2026, 3, 14, 18, 0)
    const said = {
      ...withClaims(CONFLICT, claimsOf(CONFLICT).map((c, i) => ({ ...c, said_by: 'Ana', said_at: [APRIL_ADDED, MARCH_ADDED][i] }))),
      newer_claim_id: MEMO.june12,
      same_speaker: true,
    }
    expect(newerSide(said)).toBe(MEMO.june12)
    expect(speakersInWords(said)).toBe('One speaker said both')
    expect(speakersInWords({ ...said, same_speaker: false })).toBe('Said by more than one speaker')
    expect(speakersInWords(CONFLICT)).toBeNull()
    expect(sideOrigin(claimsOf(said)[0], now, UTC)).toBe('March memo, said by Ana today at 16:05')
  })

  it('says the kind of disagreement, whatever kind the server sends', () => {
    expect(kindInWords('date')).toBe('Two dates for one thing')
    expect(kindInWords('person')).toBe('Two people for one role')
    expect(kindInWords('colour')).toBe('Two values for one thing')
    expect(kindInWords('amount', 3)).toBe('Three amounts for one thing')
    expect(kindInWords('amount', 800)).toBe('800 amounts for one thing')
  })
})

describe('a conflict settled by something else', () => {
  it('says what settled it, and names the conflict by its two sides', () => {
    expect(settledInWords(CONFLICT)).toBeNull()
    const settled = {
      ...CONFLICT,
      status: 'resolved' as const,
      settled_by: { kind: 'correction' as const, id: 'k1', note: 'Corrected to "The launch is on June 26."' },
    }
    expect(settledInWords(settled)).toBe('Settled by a correction: Corrected to "The launch is on June 26.".')
    expect(betweenInWords(settled)).toBe(`“${JUNE_12}” and “${JUNE_19}”`)
    expect(settledInWords({ ...settled, settled_by: { kind: 'version', id: 'v2', note: 'No longer said in version 2 of "Plan"' } })).toBe(
      'Settled by a new version of a source: No longer said in version 2 of "Plan".',
    )
  })
})

describe('a resolution in words', () => {
  it('keep: the claim that goes, superseded by the claim kept, each with its source, then what rests on it', () => {
    expect(phraseText(resolutionPhrase(KEEP_JUNE_19, names, 'preview'))).toBe(
      `“${JUNE_12}” from March memo will be superseded by “${JUNE_19}” from April memo.`,
    )
    expect(phraseText(resolutionPhrase(KEEP_JUNE_19, names, 'past'))).toBe(
      `“${JUNE_12}” from March memo was superseded by “${JUNE_19}” from April memo.`,
    )
    expect(impactLine(KEEP_JUNE_19, 'preview')).toBe('1 decision will be flagged for review, 1 action will be held.')
    expect(impactLine(KEEP_JUNE_19, 'past')).toBe('1 decision was flagged for review, 1 action was held.')
    expect(stripText(KEEP_JUNE_19, names)).toBe(
      `Previewing keeping “${JUNE_19}” from April memo: 1 decision will be flagged for review, 1 action will be held.`,
    )
    const refs = resolutionPhrase(KEEP_JUNE_19, names, 'preview').filter((p) => typeof p !== 'string')
    expect(refs.map((r) => typeof r !== 'string' && [r.kind, r.id])).toEqual([
      ['claim', MEMO.june12],
      ['source', MEMO.march],
      ['claim', MEMO.june19],
      ['source', MEMO.april],
    ])
  })

  it('keep with twins: every copy of the other statement goes, named with its own source', () => {
    // The twin is quoted from a third source, which is not a side of the conflict.
    const faq = 'src-faq-0003'
    const memos = twoMemos()
    const withFaq = buildNames({ ...memos, nodes: [...memos.nodes, { id: faq, type: 'source', label: 'Launch FAQ', status: null, data: {} }] })
    const twins = {
      ...KEEP_JUNE_19,
      supersede: [...KEEP_JUNE_19.supersede, { claim_id: MEMO.june12twin, revision: 1, statement: JUNE_12, source_id: faq, correction_id: null }],
    }
    expect(phraseText(resolutionPhrase(twins, withFaq, 'past'))).toBe(
      `“${JUNE_12}” from March memo and “${JUNE_12}” from Launch FAQ were superseded by “${JUNE_19}” from April memo.`,
    )
    // With two claims gone, no single one is "the last claim" of a premise.
    expect(resolutionImpact(twins).claim).toBeNull()
    expect(resolutionImpact(KEEP_JUNE_19).claim).toEqual({ id: MEMO.june12 })
  })

  it("a reviewer's claim comes from its correction, never from a source", () => {
    // The reviewer corrected the date to June 12 (no source says it); a memo says June 19.
    const fix = 'corr-0001'
    const memos = twoMemos()
    const withFix = buildNames({
      ...memos,
      nodes: [...memos.nodes, { id: fix, type: 'correction', label: JUNE_12, status: 'replace', data: {} }],
    })
    const byReviewer = { source_id: null, source_title: null, correction_id: fix, version: null, source_added_at: null }
    const conflict = withClaims(CONFLICT, [{ ...claimsOf(CONFLICT)[0], ...byReviewer }, claimsOf(CONFLICT)[1]])
    const preview = {
      ...KEEP_JUNE_19,
      conflict,
      supersede: [{ claim_id: MEMO.june12, revision: 1, statement: JUNE_12, source_id: null, correction_id: fix }],
    }
    const phrase = resolutionPhrase(preview, withFix, 'past')
    expect(phraseText(phrase)).toBe(`“${JUNE_12}” from a reviewer’s correction was superseded by “${JUNE_19}” from April memo.`)
    expect(phrase).toContainEqual({ id: fix, kind: 'correction', text: 'a reviewer’s correction' })
    expect(phrase.some((part) => typeof part !== 'string' && part.id === fix && part.kind === 'source')).toBe(false)
    const keepFix = { ...preview, keep: MEMO.june12, supersede: [{ claim_id: MEMO.june19, revision: 1, statement: JUNE_19, source_id: MEMO.april, correction_id: null }] }
    expect(stripText(keepFix, withFix)).toMatch(new RegExp(`^Previewing keeping “${JUNE_12}” from a reviewer’s correction: `))
  })

  it('dismiss: both stay, and nothing rests on a change that does not happen', () => {
    expect(phraseText(resolutionPhrase(DISMISS, names, 'preview'))).toBe(
      'Every value stays current, and these claims will not be raised against each other again.',
    )
    expect(phraseText(resolutionPhrase(DISMISS, names, 'past'))).toBe(
      'Dismissed: every value stays current, and these claims will not be raised against each other again.',
    )
    expect(impactLine(DISMISS, 'preview')).toBe('No claim changes, so no decision or action does.')
    expect(stripText(DISMISS, names)).toBe(
      'Previewing a dismissal: every value stays current, and these claims will not be raised against each other again.',
    )
    const nothing = { ...KEEP_JUNE_19, flag: [], hold: [] }
    expect(impactLine(nothing, 'preview')).toBe('No decision or action rested on it alone: nothing else changes.')
  })
})

describe('a resolution on the graph', () => {
  it('marks the claim kept, the claims superseded, and the decisions and actions as a correction does', () => {
    expect(Object.fromEntries(marksFromResolution(KEEP_JUNE_19))).toEqual({
      [MEMO.june19]: 'kept',
      [MEMO.june12]: 'supersede',
      [MEMO.plan]: 'flagged',
      [MEMO.book]: 'held',
    })
    expect(Object.fromEntries(marksFromResolution(DISMISS))).toEqual({ [MEMO.june12]: 'kept', [MEMO.june19]: 'kept' })
    expect(marksFromResolution(null).size).toBe(0)
    expect(new Set(touchedByResolution(KEEP_JUNE_19))).toEqual(new Set([MEMO.june19, MEMO.june12, MEMO.plan, MEMO.book]))
  })

  it('knows a conflict edge by its type and id, and no other edge', () => {
    expect(conflictOfEdge(`CONFLICTS:${MEMO.conflict}`, 'CONFLICTS')).toBe(MEMO.conflict)
    expect(conflictOfEdge(`INFORMS:${MEMO.june12}->${MEMO.plan}`, 'INFORMS')).toBeNull()
    expect(conflictOfEdge('odd', 'CONFLICTS')).toBeNull()
  })

  it('draws the bracket into the gap left of the claims, never as far as the column before', () => {
    for (const [sy, ty] of [
      [0, 92],
      [92, 0],
      [0, 920],
    ]) {
      const { path, apexX, apexY } = bracketPath(500, sy, 500, ty)
      expect(path.startsWith(`M 500,${sy} C `)).toBe(true)
      expect(path.endsWith(` 500,${ty}`)).toBe(true)
      expect(apexX).toBeCloseTo(500 - BRACKET_REACH)
      expect(apexY).toBe((sy + ty) / 2)
    }
    // The bracket and its "≠" (22 px wide) stay inside the gap between columns.
    expect(BRACKET_REACH + 11).toBeLessThan(RANK_SEP)
  })
})

describe('conflict marks', () => {
  it('places each conflict of three claims as a mark of its own, apart', () => {
    // Three claims one under the other, each in a conflict with the other two, and a second
    // conflict of the first pair (another kind of value).
    const spans = [
      { id: 'k12', sx: 200, sy: 40, tx: 200, ty: 130 },
      { id: 'k23', sx: 200, sy: 130, tx: 200, ty: 220 },
      { id: 'k13', sx: 200, sy: 40, tx: 200, ty: 220 },
      { id: 'k12b', sx: 200, sy: 40, tx: 200, ty: 130 },
    ]
    const placed = placeConflicts(spans)
    const marks = spans.map((s) => {
      const p = placed.get(s.id)!
      return bracketPath(s.sx, s.sy, s.tx, s.ty, p.lane, p.at)
    })
    for (let i = 0; i < marks.length; i += 1)
      for (let j = i + 1; j < marks.length; j += 1)
        expect(Math.hypot(marks[i].apexX - marks[j].apexX, marks[i].apexY - marks[j].apexY)).toBeGreaterThanOrEqual(MARK_GAP)
    expect(new Set(spans.map((s) => placed.get(s.id)!.lane)).size).toBeGreaterThan(1)
  })
})
