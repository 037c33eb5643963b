// A workspace's erasure as the API answers it, for the tests: Ana's number said in "Team
// chat", a decision made on it, and her request to forget her address.
import type { Erasure, ErasureCounts, ErasurePreview, GraphDTO, SourceView } from '../apiTypes'

export const NONE: ErasureCounts = {
  sources: 0, versions: 0, messages: 0, fragments: 0, spans: 0, claims: 0, files: 0, records: 0, flagged: 0, held: 0, conflicts: 0,
}
export const AT = Date.UTC(2026, 11, 7, 23, 33)
export const IDS = {
  chat: 'src-chat-0001',
  notes: 'src-notes-0001',
  phone: 'clm-phone-0001',
  address: 'clm-address-0001',
  decision: 'dec-call-0001',
  request: 'era-request-0001',
} as const
export const PHONE = '+351 912 345 678'

export function record(over: Partial<Erasure> = {}): Erasure {
  return {
    id: 'er-1',
    status: 'applied',
    target: { kind: 'message', source_id: 's1', version_id: null, message_index: 0, claim_id: null, request_id: null },
    reason: 'Said by mistake',
    requested_by: null,
    requested_at: null,
    applied_by: 'admin',
    applied_at: AT,
    declined_by: null,
    declined_at: null,
    created_at: AT,
    counts: { ...NONE, sources: 1, versions: 1, messages: 1, fragments: 1, spans: 1, claims: 1, records: 4, flagged: 1 },
    claim_ids: ['c1'],
    flagged: ['d1'],
    held: [],
    conflicts: [],
    disk: 'pending',
    disk_clean_at: null,
    ...over,
  }
}

/** The preview of erasing the first message of "Team chat": the number goes, the call needs review. */
export function messagePreview(token = 'era_1'): ErasurePreview {
  return {
    target: { kind: 'message', source_id: IDS.chat, version_id: null, message_index: 0, claim_id: null, request_id: null },
    goes: {
      versions: [{ source_id: IDS.chat, version_id: 'ver-1', version: 1, spans: 1, file: false }],
      messages: [{ source_id: IDS.chat, message_index: 0, speaker: 'Ana' }],
      claims: [{ id: IDS.phone, statement: `My phone number is ${PHONE}.`, status: 'proposed', source_id: IDS.chat, used_by: 1 }],
      corrections: [],
      records: 4,
    },
    counts: { ...NONE, sources: 1, versions: 1, messages: 1, fragments: 1, spans: 1, claims: 1, records: 4, flagged: 1 },
    flag: [
      {
        decision_id: IDS.decision,
        title: 'Call Ana on her phone',
        status: 'draft',
        reasons: [{ type: 'premise_lost', premise: `My phone number is ${PHONE}.`, claim_ids: [IDS.phone] }],
      },
    ],
    hold: [],
    stay: [],
    closes: [],
    impact_token: token,
  }
}

/** What apply answers for that preview. */
export function messageApplied(status: 'applied' | 'already_applied' = 'applied') {
  return {
    status,
    erasure: record({
      id: 'era-msg-0001',
      target: { kind: 'message', source_id: IDS.chat, version_id: null, message_index: 0, claim_id: null, request_id: null },
      claim_ids: [IDS.phone],
      flagged: [IDS.decision],
    }),
  }
}

/** The product graph before anything is erased: the call rests on the number, the address is withheld. */
export function chatGraph(phoneLabel = `My phone number is ${PHONE}.`, phoneStatus = 'proposed'): GraphDTO {
  return {
    view: 'product',
    truncated: false,
    totals: [],
    nodes: [
      { id: IDS.chat, type: 'source', label: 'Team chat', status: null, data: {} },
      { id: IDS.notes, type: 'source', label: 'Ana’s notes', status: null, data: {} },
      { id: IDS.phone, type: 'claim', label: phoneLabel, status: phoneStatus, data: {} },
      { id: IDS.address, type: 'claim', label: 'My home address is Rua das Flores 27, Porto.', status: 'withheld', data: {} },
      { id: IDS.decision, type: 'decision', label: 'Call Ana on her phone', status: 'draft', data: {} },
    ],
    edges: [
      { id: 'e1', source: IDS.chat, target: IDS.phone, type: 'SUPPORTS' },
      { id: 'e2', source: IDS.notes, target: IDS.address, type: 'SUPPORTS' },
      { id: 'e3', source: IDS.phone, target: IDS.decision, type: 'INFORMS' },
    ],
  }
}

/** A conversation as GET /sources/{id} answers it: one fragment per message. */
export function conversation(id: string, title: string, messages: [string, string][]): SourceView {
  let at = 0
  const fragments = messages.map(([speaker, text], i) => {
    const f = {
      version_id: 'ver-1', id: `${id}-f${i}`, seq: i, text, start: at, end: at + text.length, extraction: 'done' as const,
      speaker, said_at: AT, message_index: i, page: null, page_end: null, section: null,
    }
    at += text.length + 2
    return f
  })
  const view: SourceView = {
    id, kind: 'conversation', title, origin_type: 'conversation', origin_name: title, created_at: AT, revision: 1,
    latest_version: 1, message_count: messages.length,
    versions: [{
      id: 'ver-1', version: 1, content_hash: 'sha256:x', created_at: AT, length: at, text: messages.map((m) => m[1]).join('\n\n'),
      media_type: null, file_size: null, file_hash: null, file_name: null, fragments,
    }],
  }
  return view
}
