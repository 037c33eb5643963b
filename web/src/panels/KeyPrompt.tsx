import { useState, type FormEvent } from 'react'
import { setApiKey } from '../api'

// The afterhack API key of this deployment (never a model key: those stay on the server).
export function KeyPrompt({ onSaved, onCancel }: { onSaved: () => void; onCancel: () => void }) {
  const [key, setKey] = useState('')
  function save(e: FormEvent) {
    e.preventDefault()
    setApiKey(key.trim() || null)
    onSaved()
  }
  return (
    <div className="modal-backdrop">
      <form className="modal stack" onSubmit={save} data-testid="api-key-prompt">
        <h2>API key needed</h2>
        <p>This afterhack server asks for a key. It is kept in this tab only (sessionStorage).</p>
        <input
          data-testid="api-key-input"
          type="password"
          autoFocus
          autoComplete="off"
          placeholder="afterhack API key"
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
        <div className="row">
          <button data-testid="api-key-save" disabled={!key.trim()}>
            Use this key
          </button>
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  )
}
