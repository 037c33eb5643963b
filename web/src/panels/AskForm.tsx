import { useState, type FormEvent } from 'react'
import { api } from '../api'
import type { RunView } from '../apiTypes'
import { useAction } from '../hooks'
import { ErrorNote } from './common'

interface Props {
  ws: string
  /** A decision the new one may build on (the selected decision, if any). */
  buildsOn: { id: string; title: string } | null
  onRun: (run: RunView) => void
}

export function AskForm({ ws, buildsOn, onRun }: Props) {
  const [task, setTask] = useState('')
  const [useBuildsOn, setUseBuildsOn] = useState(false)
  const { busy, error, run } = useAction()

  async function submit(e: FormEvent) {
    e.preventDefault()
    const ids = useBuildsOn && buildsOn ? [buildsOn.id] : []
    const result = await run(() => api.runAgent(ws, task.trim(), ids))
    if (result) {
      setTask('')
      onRun(result)
    }
  }

  return (
    <form onSubmit={submit} className="stack" data-testid="ask-form">
      <textarea
        data-testid="ask-task"
        placeholder="Ask the agent (e.g. Plan the launch event)"
        rows={2}
        value={task}
        onChange={(e) => setTask(e.target.value)}
      />
      {buildsOn && (
        <label className="check">
          <input type="checkbox" checked={useBuildsOn} onChange={(e) => setUseBuildsOn(e.target.checked)} />
          builds on “{buildsOn.title}”
        </label>
      )}
      <button data-testid="ask-submit" disabled={busy || !task.trim()}>
        {busy ? 'The agent is working…' : 'Ask the agent'}
      </button>
      <ErrorNote error={error} testId="ask-error" />
    </form>
  )
}
