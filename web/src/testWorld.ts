// A small launch workspace as the product graph sends it, shared by the tests.
import type { GraphDTO } from './apiTypes'

export const IDS = {
  plan: 'src-plan-0001',
  ops: 'src-ops-0002',
  june: 'c1a2b3c4-0000-4000-8000-000000000001',
  venue: 'c1a2b3c4-0000-4000-8000-000000000002',
  support: 'c1a2b3c4-0000-4000-8000-000000000003',
  backup: 'c1a2b3c4-0000-4000-8000-000000000004',
  july: 'c1a2b3c4-0000-4000-8000-000000000005',
  fix: 'k1a2b3c4-0000-4000-8000-000000000006',
  event: 'd1a2b3c4-0000-4000-8000-000000000007',
  venueBooking: 'd1a2b3c4-0000-4000-8000-000000000008',
  staffing: 'd1a2b3c4-0000-4000-8000-000000000009',
  book: 'a1a2b3c4-0000-4000-8000-00000000000a',
} as const

const claim = (id: string, label: string, status = 'proposed') => ({ id, type: 'claim', label, status, data: {} })
const edge = (source: string, target: string, type: string) => ({ id: `${type}:${source}->${target}`, source, target, type })

export const LAUNCH: GraphDTO = {
  view: 'product',
  truncated: false,
  totals: [],
  nodes: [
    { id: IDS.plan, type: 'source', label: 'Launch plan', status: null, data: {} },
    { id: IDS.ops, type: 'source', label: 'Ops notes', status: null, data: {} },
    claim(IDS.june, 'The product launch is planned for June 12.', 'superseded'),
    claim(IDS.venue, 'The launch venue is the Berlin Congress Hall.'),
    claim(IDS.support, 'The support team needs three extra people.'),
    claim(IDS.backup, 'The database is backed up nightly.'),
    claim(IDS.july, 'The product launch is planned for July 15.', 'accepted'),
    { id: IDS.fix, type: 'correction', label: 'The product launch is planned for July 15.', status: 'replace', data: {} },
    { id: IDS.event, type: 'decision', label: 'Plan the launch event', status: 'needs_review', data: {} },
    { id: IDS.venueBooking, type: 'decision', label: 'Book the venue', status: 'needs_review', data: {} },
    { id: IDS.staffing, type: 'decision', label: 'Staff launch week', status: 'draft', data: {} },
    { id: IDS.book, type: 'action', label: 'Book the venue for the launch', status: 'held', data: {} },
  ],
  edges: [
    edge(IDS.plan, IDS.june, 'SUPPORTS'),
    edge(IDS.plan, IDS.venue, 'SUPPORTS'),
    edge(IDS.ops, IDS.support, 'SUPPORTS'),
    edge(IDS.ops, IDS.backup, 'SUPPORTS'),
    edge(IDS.fix, IDS.june, 'CORRECTS'),
    edge(IDS.fix, IDS.july, 'SUPPORTS'),
    edge(IDS.july, IDS.june, 'REPLACES'),
    edge(IDS.june, IDS.event, 'INFORMS'),
    edge(IDS.venue, IDS.venueBooking, 'INFORMS'),
    edge(IDS.event, IDS.venueBooking, 'INFORMS'),
    edge(IDS.june, IDS.staffing, 'INFORMS'),
    edge(IDS.support, IDS.staffing, 'INFORMS'),
    edge(IDS.venueBooking, IDS.book, 'ENABLES'),
  ],
}
