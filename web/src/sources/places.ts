// Where a fragment stands in what it came from (docs/rules.md, rule 11): a message of a
// conversation (who said it, when), or a file's page or heading. Pure, so tests read it.
import type { Evidence, SourceView } from '../apiTypes'

export type Fragment = SourceView['versions'][number]['fragments'][number]
type Version = SourceView['versions'][number]

const MEDIA: Record<string, string> = {
  'text/plain': 'plain text',
  'text/markdown': 'Markdown',
  'text/html': 'HTML',
  'application/pdf': 'PDF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word (DOCX)',
}

/** A file's type as people name it. */
export function mediaName(mediaType: string | null | undefined): string {
  if (!mediaType) return 'text'
  return MEDIA[mediaType] ?? mediaType
}

/** A file's size in the unit that reads best. */
export function fileSize(bytes: number | null | undefined): string {
  if (bytes == null) return ''
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/** Where a file's fragment stands: its PDF page, or the heading it falls under. */
export function placeText(at: Pick<Fragment, 'page' | 'section'>): string | null {
  if (at.page != null) return `page ${at.page}`
  if (at.section) return `under “${at.section}”`
  return null
}

/** The file a version was read from: name, type and size, in one line. */
export function fileLine(v: Pick<Version, 'file_name' | 'media_type' | 'file_size'>): string | null {
  if (!v.media_type) return null
  return [v.file_name, mediaName(v.media_type), fileSize(v.file_size)].filter(Boolean).join(' · ')
}

export interface Message {
  index: number
  speaker: string
  saidAt: number
  text: string
  fragments: Fragment[]
}

/** A conversation's messages in order, each whole (a long one is several fragments), from
 *  the versions it had at `asOf` (all of them when null). */
export function transcript(source: SourceView, asOf: number | null = null): Message[] {
  const byIndex = new Map<number, Message>()
  for (const v of source.versions) {
    if (asOf !== null && v.created_at > asOf) continue
    for (const f of v.fragments) {
      if (f.message_index == null || f.speaker == null || f.said_at == null) continue
      const m = byIndex.get(f.message_index)
      if (m) {
        m.fragments.push(f)
        m.text += f.text
      } else {
        byIndex.set(f.message_index, {
          index: f.message_index,
          speaker: f.speaker,
          saidAt: f.said_at,
          text: f.text,
          fragments: [f],
        })
      }
    }
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index)
}

/** Whether a claim's evidence is a message (who said it, when) rather than a document's. */
export function isMessage(ev: Pick<Evidence, 'speaker' | 'said_at'>): boolean {
  return ev.speaker != null && ev.said_at != null
}
