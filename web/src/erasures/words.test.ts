import { describe, expect, it } from 'vitest'
import { AT, NONE, record } from './testErasure'
import {
  dateWords,
  diskWords,
  erasedOn,
  erasureSummary,
  goesWords,
  kindOf,
  messageErasure,
  recordWords,
  repairedWords,
  splitErased,
  stateWords,
  targetWords,
  who,
} from './words'

const titles: Record<string, string> = { s1: 'Team chat' }
const titleOf = (id: string) => titles[id]

describe('what a target names', () => {
  it('names a message by its place and its conversation, a source by its title, never an id', () => {
    expect(targetWords({ source_id: 's1', message_index: 2 }, titleOf)).toBe('message 3 of “Team chat”')
    expect(targetWords({ source_id: 's1' }, titleOf)).toBe('the source “Team chat”, every version')
    expect(targetWords({ source_id: 'gone', version_id: 'v1' }, titleOf)).toBe('a version of a source')
    expect(targetWords({ claim_id: 'c1' }, titleOf)).toBe('the words a claim quotes')
    expect(targetWords({ text: '555-0142' }, titleOf)).toBe('a string, wherever it was written')
    expect(targetWords({ text: '555-0142' }, titleOf)).not.toContain('555')
  })

  it('reads the kind of a target as sent, the message index 0 included', () => {
    expect(kindOf({ source_id: 's1', message_index: 0 })).toBe('message')
    expect(kindOf({ source_id: 's1' })).toBe('source')
    expect(kindOf({ source_id: 's1', version_id: 'v1' })).toBe('version')
    expect(kindOf({ request_id: 'r1' })).toBe('request')
    expect(kindOf({ speaker: 'Ana' })).toBe('speaker')
  })

  it('names a request by who asked', () => {
    const asked = record({ target: { ...record().target, kind: 'request' }, requested_by: 'Ana' })
    expect(recordWords(asked, titleOf)).toBe('what Ana asked to forget')
    expect(recordWords(record(), titleOf)).toBe('message 1 of “Team chat”')
  })
})

describe('what goes and what is repaired', () => {
  it('counts messages, other passages, claims and files, a message not twice as a passage', () => {
    expect(goesWords({ ...NONE, messages: 1, spans: 1, claims: 1 })).toBe('1 message and 1 claim')
    expect(goesWords({ ...NONE, spans: 3, claims: 2, files: 1 })).toBe('3 passages, 2 claims and 1 original file')
    expect(goesWords({ ...NONE, messages: 2, spans: 3, claims: 2 })).toBe('2 messages, 1 other passage and 2 claims')
    expect(goesWords(NONE)).toBe('no words')
  })

  it('says what will be repaired, then what was', () => {
    const counts = { ...NONE, messages: 1, spans: 1, claims: 1, flagged: 2, held: 1, conflicts: 1 }
    expect(repairedWords(counts, 'preview')).toBe('2 decisions will need review, 1 action will be held and 1 open conflict will close')
    expect(repairedWords(counts, 'past')).toBe('2 decisions need review, 1 action is held and 1 open conflict closed')
    expect(repairedWords(NONE, 'past')).toBeNull()
  })

  it('sums an erasure up in one line, saying so when nothing rested on it', () => {
    expect(erasureSummary({ ...NONE, messages: 1, spans: 1, claims: 1, flagged: 1 }, 'preview')).toBe(
      'Erases 1 message and 1 claim; 1 decision will need review.',
    )
    expect(erasureSummary({ ...NONE, spans: 1, claims: 1 }, 'past')).toBe(
      'Erased 1 passage and 1 claim; nothing that was decided rested on it.',
    )
  })
})

describe('who, when, and the disk', () => {
  it('says when and by whom an erasure was applied, in words', () => {
    expect(dateWords(AT, 'UTC')).toBe('7 December 2026 at 23:33')
    expect(erasedOn(AT, 'admin', 'UTC')).toBe('Erased on 7 December 2026 at 23:33, by admin.')
    expect(erasedOn(AT, 'local', 'UTC')).toBe('Erased on 7 December 2026 at 23:33, by the local user.')
    expect(who('policy')).toContain('rule')
    expect(who(null)).toBe('someone')
  })

  it('says a request waits, a decline gave the claims back', () => {
    const asked = record({ status: 'requested', requested_by: 'Ana', requested_at: AT, applied_at: null, applied_by: null })
    expect(stateWords(asked, 'UTC')).toBe('Ana asked to forget this on 7 December 2026 at 23:33; a reviewer decides.')
    const declined = record({ status: 'declined', declined_by: 'admin', declined_at: AT })
    expect(stateWords(declined, 'UTC')).toBe('Declined on 7 December 2026 at 23:33, by admin: the claims are back.')
  })

  it('says the files are being rewritten until they are clean, then since when', () => {
    expect(diskWords({ disk: 'pending', disk_clean_at: null })).toMatch(/^On disk: being rewritten/)
    expect(diskWords({ disk: 'clean', disk_clean_at: AT }, 'UTC')).toBe('On disk: clean since 7 December 2026 at 23:33.')
    expect(diskWords({ disk: null, disk_clean_at: null })).toBeNull()
  })
})

describe('erased spans in a text', () => {
  it('cuts a text at each marker, keeping every other character', () => {
    expect(splitErased('Call [erased] or [erased].')).toEqual([
      { text: 'Call ', erased: false },
      { text: '[erased]', erased: true },
      { text: ' or ', erased: false },
      { text: '[erased]', erased: true },
      { text: '.', erased: false },
    ])
    expect(splitErased('[erased]')).toEqual([{ text: '[erased]', erased: true }])
    expect(splitErased('nothing here')).toEqual([{ text: 'nothing here', erased: false }])
    expect(splitErased('')).toEqual([{ text: '', erased: false }])
  })

  it('finds the applied erasure that took a message whole, and no other', () => {
    const records = [record({ status: 'declined' }), record({ id: 'er-2' })]
    expect(messageErasure(records, 's1', 0)?.id).toBe('er-2')
    expect(messageErasure(records, 's1', 1)).toBeUndefined()
    expect(messageErasure(records, 's2', 0)).toBeUndefined()
  })
})
