import { describe, expect, it } from 'vitest'
import type { SourceView } from '../apiTypes'
import { fileLine, mediaName, placeText, transcript } from './places'

function frag(id: string, index: number, speaker: string, text: string, start: number) {
  return {
    version_id: 'v',
    id,
    seq: 0,
    text,
    start,
    end: start + text.length,
    extraction: 'done' as const,
    speaker,
    said_at: 1_780_000_000_000 + index * 60_000,
    message_index: index,
    page: null,
    page_end: null,
    section: null,
  }
}

function version(version: number, createdAt: number, fragments: ReturnType<typeof frag>[]) {
  return {
    id: `v${version}`,
    version,
    content_hash: 'h',
    created_at: createdAt,
    length: 0,
    text: '',
    media_type: null,
    file_size: null,
    file_hash: null,
    file_name: null,
    fragments,
  }
}

const CHAT: SourceView = {
  id: 's',
  kind: 'conversation',
  title: 'Launch chat',
  origin_type: 'conversation',
  origin_name: 'Launch chat',
  created_at: 1,
  revision: 2,
  latest_version: 2,
  message_count: 3,
  versions: [
    version(1, 100, [frag('a', 0, 'Ana', 'The launch is on June 12.', 0), frag('b', 1, 'Ben', 'Fine. ', 27), frag('c', 1, 'Ben', 'See you.', 33)]),
    version(2, 200, [frag('d', 2, 'Ana', 'The launch is on June 19.', 0)]),
  ],
}

describe('a conversation read as a transcript', () => {
  it('gives each message once, whole, in order, with its speaker and time', () => {
    const messages = transcript(CHAT)
    expect(messages.map((m) => [m.index, m.speaker, m.text])).toEqual([
      [0, 'Ana', 'The launch is on June 12.'],
      [1, 'Ben', 'Fine. See you.'],
      [2, 'Ana', 'The launch is on June 19.'],
    ])
    expect(messages[1].fragments.map((f) => f.id)).toEqual(['b', 'c'])
    expect(messages[2].saidAt).toBe(1_780_000_000_000 + 2 * 60_000)
  })

  it('at a moment in the past, only the messages it held then', () => {
    expect(transcript(CHAT, 150).map((m) => m.index)).toEqual([0, 1])
  })
})

describe('where a file fragment stands', () => {
  it('names a page, or the heading above it', () => {
    expect(placeText({ page: 2, section: null })).toBe('page 2')
    expect(placeText({ page: null, section: 'Venue' })).toBe('under “Venue”')
    expect(placeText({ page: null, section: null })).toBeNull()
  })

  it('names a file by name, type and size', () => {
    expect(mediaName('application/pdf')).toBe('PDF')
    expect(fileLine({ file_name: 'report.pdf', media_type: 'application/pdf', file_size: 2048 })).toBe(
      'report.pdf · PDF · 2.0 KB',
    )
    expect(fileLine({ file_name: null, media_type: null, file_size: null })).toBeNull()
  })
})
