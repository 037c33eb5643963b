// A time control over the graph (docs/rules.md, rule 10): a slider over the workspace's
// history with its events marked (sources added, runs, corrections, conflicts raised and
// resolved). Each stop shows the graph as the memory held it right after that event; the
// last stop is now.
import { useState } from 'react'
import { api } from '../api'
import { useRead, wsKey } from '../query'
import { ErrorNote } from '../panels/common'
import './time.css'
import { eventText, stopOf, when } from './when'

interface Props {
  ws: string
  asOf: number | null
  onChange: (asOf: number | null) => void
}

export function TimeControl({ ws, asOf, onChange }: Props) {
  const [open, setOpen] = useState(asOf !== null)
  const timeline = useRead(open ? wsKey(ws, 'timeline') : null, () => api.getTimeline(ws))
  const events = timeline.data?.events ?? []
  const stop = stopOf(events, asOf)
  const last = events.length
  const pick = (i: number) => onChange(i >= last ? null : events[i].at)
  const shown = asOf !== null && events[stop]

  return (
    <div
      className={asOf === null ? 'time-strip' : 'time-strip past'}
      data-testid="time-control"
      data-as-of={asOf ?? 'now'}
      role="group"
      aria-label="The workspace over time"
    >
      <div className="time-head">
        <button
          type="button"
          className="secondary small"
          data-testid="time-toggle"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide history' : 'History'}
        </button>
        <span className="time-label" data-testid="time-label" aria-live="polite">
          {shown ? (
            <>
              <b>As of {when(asOf)}</b>, just after the {eventText(events[stop])}: the memory as it was then.
            </>
          ) : asOf !== null ? (
            <b>As of {when(asOf)}</b>
          ) : (
            'Now'
          )}
        </span>
        {asOf !== null && (
          <button type="button" className="link" data-testid="time-now" onClick={() => onChange(null)}>
            back to now
          </button>
        )}
      </div>
      {open && timeline.error && <ErrorNote error={timeline.error} testId="time-error" />}
      {open && timeline.data && last === 0 && <p className="muted time-empty">Nothing has happened here yet.</p>}
      {open && last > 0 && (
        <div className="time-track" style={{ ['--stops' as string]: last }}>
          <input
            type="range"
            min={0}
            max={last}
            step={1}
            value={stop}
            data-testid="time-slider"
            aria-label="Show the workspace as it was after an event"
            aria-valuetext={stop >= last ? 'now' : `after the ${eventText(events[stop])}, ${when(events[stop].at)}`}
            onChange={(e) => pick(Number(e.target.value))}
          />
          <ol className="time-marks">
            {events.map((e, i) => (
              <li key={`${e.kind}:${e.subject_id}:${e.at}:${i}`} style={{ ['--i' as string]: i }}>
                <button
                  type="button"
                  className={`time-mark mark-${e.kind}${i === stop && asOf !== null ? ' on' : ''}`}
                  data-testid="time-mark"
                  data-kind={e.kind}
                  data-at={e.at}
                  title={`${when(e.at)}: ${eventText(e)}`}
                  aria-label={`As of just after the ${eventText(e)}, ${when(e.at)}`}
                  onClick={() => pick(i)}
                />
              </li>
            ))}
            <li style={{ ['--i' as string]: last }}>
              <button
                type="button"
                className={`time-mark mark-now${asOf === null ? ' on' : ''}`}
                data-testid="time-mark"
                data-kind="now"
                title="Now"
                aria-label="Now"
                onClick={() => pick(last)}
              />
            </li>
          </ol>
        </div>
      )}
    </div>
  )
}
