// The erasures tab: the requests to forget that wait for a reviewer (each naming the claims it
// would erase, withheld meanwhile, with erase and decline), then what was erased, each with
// its record and where the files on disk stand.
import { useEffect, useRef, useState } from 'react'
import { api } from '../api'
import type { Erasure, ErasureList } from '../apiTypes'
import { plural } from '../format'
import { useAction, type Async } from '../hooks'
import { MoreFooter } from '../MoreFooter'
import { usePaged } from '../paging'
import { ErrorNote, NodeLink, Section, type SelectById } from '../panels/common'
import { useChangeStamp, useRead, useWorkspaceChanged, wsKey } from '../query'
import { transcript } from '../sources/places'
import { useWorkspace } from '../workspace'
import { erasureApi } from './api'
import { EraseAction } from './EraseAction'
import { ErasureCard } from './ErasureCard'
import { noteRefusal, refusalWords, useRefusal } from './refused'
import type { ErasureFocus } from './useErasuresTab'
import { dateWords, stateWords, who } from './words'
import './erasures.css'

export interface ErasuresPanelProps {
  ws: string
  requests: Async<ErasureList>
  focus: ErasureFocus | null
  onSelect: SelectById
}

export function ErasuresPanel({ ws, requests, focus, onSelect }: ErasuresPanelProps) {
  const { asOf = null } = useWorkspace()
  const refusal = useRefusal('erase')
  // A request a reviewer acted on stays where it was (with its outcome) after the list is read
  // again without it, until they are done with it.
  const [pinned, setPinned] = useState<Erasure[]>([])
  const pin = (r: Erasure) => setPinned((p) => (p.some((x) => x.id === r.id) ? p : [...p, r]))
  const unpin = (id: string) => setPinned((p) => p.filter((x) => x.id !== id))
  const waiting = requests.data?.items ?? []
  const shown = [...pinned.filter((p) => !waiting.some((w) => w.id === p.id)), ...waiting]
  return (
    <div className="stack" data-testid="erasures-body">
      <Section title="Requests to forget" testId="erasure-requests">
        <p className="muted small">
          A speaker asked the memory to forget something they said. The claims it names are withheld (no search or agent run
          finds them) until a reviewer erases them or declines.
        </p>
        {asOf !== null && <p className="muted small">Shown as they stand now; go back to now to decide.</p>}
        {refusal && shown.length > 0 && (
          <p className="warn" data-testid="erase-refused">
            {refusalWords(refusal)}
          </p>
        )}
        {requests.error && <ErrorNote error={requests.error} />}
        {requests.data && shown.length === 0 && (
          <p className="muted" data-testid="requests-empty">
            No request waits.
          </p>
        )}
        <ul className="erasure-list" data-testid="requests-list" data-waiting={waiting.length}>
          {shown.map((r) => (
            <RequestCard
              key={r.id}
              ws={ws}
              request={r}
              waiting={waiting.some((w) => w.id === r.id)}
              focused={focus?.id === r.id ? focus.seq : null}
              onEngage={() => pin(r)}
              onDone={() => unpin(r.id)}
              onSelect={onSelect}
            />
          ))}
        </ul>
      </Section>
      <Section title="Erased" testId="erasures-done">
        <Done ws={ws} focus={focus} onSelect={onSelect} />
      </Section>
    </div>
  )
}

interface RequestProps {
  ws: string
  request: Erasure
  /** Still waiting for a reviewer (false once the list is read again after it was decided). */
  waiting: boolean
  /** Set (to a new number each time) when the reader was sent to this request. */
  focused: number | null
  onEngage: () => void
  onDone: () => void
  onSelect: SelectById
}

function RequestCard({ ws, request: r, waiting, focused, onEngage, onDone, onSelect }: RequestProps) {
  const { asOf = null } = useWorkspace()
  const card = useRef<HTMLLIElement>(null)
  useEffect(() => {
    if (focused !== null) card.current?.scrollIntoView({ block: 'nearest', behavior: 'instant' })
  }, [focused])
  // One thing at a time: erasing (its preview, then its outcome), or declining.
  const [mode, setMode] = useState<'idle' | 'erasing' | 'declining'>('idle')
  const [declined, setDeclined] = useState<Erasure | null>(null)
  const sourceId = r.target.source_id
  const index = r.target.message_index
  return (
    <li
      ref={card}
      className={focused !== null ? 'request-card is-focused' : 'request-card'}
      data-testid="erasure-request"
      data-id={r.id}
      data-status={declined ? 'declined' : waiting ? 'requested' : 'decided'}
    >
      <p>
        <b>{who(r.requested_by)}</b> asked to forget{r.requested_at !== null && <> on {dateWords(r.requested_at)}</>}
        {sourceId && (
          <>
            , in{' '}
            <NodeLink id={sourceId} kind="source" onSelect={onSelect} />
          </>
        )}
        :
      </p>
      {sourceId && index !== null && <SaidMessage ws={ws} sourceId={sourceId} index={index} />}
      <p>
        {waiting && !declined
          ? `It would erase ${plural(r.claim_ids.length, 'claim')}, withheld until a reviewer decides:`
          : `It named ${plural(r.claim_ids.length, 'claim')}:`}
      </p>
      <ul>
        {r.claim_ids.map((id) => (
          <li key={id} data-testid="request-claim" data-id={id}>
            <NodeLink id={id} kind="claim" onSelect={onSelect} />
          </li>
        ))}
      </ul>
      {declined ? (
        <div className="stack" data-testid="request-declined">
          <p>{stateWords(declined)}</p>
          <button type="button" className="small" data-testid="request-done" onClick={onDone}>
            Done
          </button>
        </div>
      ) : (
        asOf === null && (
          <>
            {mode !== 'declining' && (
              <EraseAction
                ws={ws}
                target={{ request_id: r.id }}
                label="Review and erase…"
                what={`what ${who(r.requested_by)} asked to forget`}
                onSelect={onSelect}
                sayRefusal={false}
                onOpen={() => {
                  setMode('erasing')
                  onEngage()
                }}
                onClose={() => {
                  setMode('idle')
                  onDone()
                }}
              />
            )}
            {mode === 'declining' && (
              <Decline
                ws={ws}
                request={r}
                onDeclined={(d) => {
                  onEngage()
                  setDeclined(d)
                }}
                onCancel={() => setMode('idle')}
              />
            )}
            {mode === 'idle' && <DeclineOffer onDecline={() => setMode('declining')} />}
          </>
        )
      )}
    </li>
  )
}

function DeclineOffer({ onDecline }: { onDecline: () => void }) {
  const refusal = useRefusal('erase')
  if (refusal) return null
  return (
    <button type="button" className="small" data-testid="request-decline" onClick={onDecline}>
      Decline…
    </button>
  )
}

/** The request's own message, as its speaker said it (it is kept: it holds no secret). */
function SaidMessage({ ws, sourceId, index }: { ws: string; sourceId: string; index: number }) {
  const source = useRead(wsKey(ws, 'source', sourceId), () => api.getSource(ws, sourceId))
  const message = source.data ? transcript(source.data).find((m) => m.index === index) : undefined
  if (!message) return null
  return (
    <p className="request-said" data-testid="request-message">
      “{message.text}”
    </p>
  )
}

function Decline({
  ws,
  request,
  onDeclined,
  onCancel,
}: {
  ws: string
  request: Erasure
  onDeclined: (declined: Erasure) => void
  onCancel: () => void
}) {
  const [reason, setReason] = useState('')
  const declining = useAction()
  const changed = useWorkspaceChanged(ws)
  const refusal = useRefusal('erase')
  async function decline() {
    const done = await declining.run(() => erasureApi.decline(ws, request.id, reason.trim()), (e) => void noteRefusal(e))
    if (!done) return
    onDeclined(done)
    changed()
  }
  const error = declining.error
  return (
    <div className="request-decline" data-testid="request-decline-form">
      <p className="muted small">Declining gives the claims back: search and agent runs find them again.</p>
      <input
        data-testid="request-decline-reason"
        placeholder="Why (kept on the record; optional)"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      {refusal && (
        <p className="warn" role="alert" data-testid="erase-forbidden">
          {refusalWords(refusal)}
        </p>
      )}
      {error?.code === 'erasure_closed' && <p className="muted">This request was decided already.</p>}
      {error && error.code !== 'forbidden' && error.code !== 'erasure_closed' && <ErrorNote error={error} />}
      <div className="row">
        <button
          type="button"
          data-testid="request-decline-apply"
          disabled={declining.busy || Boolean(refusal)}
          onClick={() => void decline()}
        >
          {declining.busy ? 'Declining…' : 'Decline: give the claims back'}
        </button>
        <button type="button" className="link" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  )
}

/** What was erased, newest first, a page at a time. */
function Done({ ws, focus, onSelect }: { ws: string; focus: ErasureFocus | null; onSelect: SelectById }) {
  const changed = useChangeStamp(ws)
  const list = usePaged(`${ws}:erasures`, (cursor) => erasureApi.list(ws, 'applied', cursor), changed)
  if (list.error && list.items.length === 0) return <ErrorNote error={list.error} />
  if (list.items.length === 0) return list.loading ? null : <p className="muted" data-testid="erasures-empty">Nothing was erased.</p>
  return (
    <>
      <ul className="erasure-list" data-testid="erasures-list">
        {list.items.map((e) => (
          <li key={e.id} className={focus?.id === e.id ? 'is-focused' : undefined}>
            <ErasureCard record={e} onSelect={onSelect} />
          </li>
        ))}
      </ul>
      <MoreFooter list={list} testId="erasures-more" noun="erasures" />
    </>
  )
}
