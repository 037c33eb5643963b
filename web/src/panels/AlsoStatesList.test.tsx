import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AlsoStates } from '../apiTypes'
import { buildNames } from '../names'
import { LAUNCH } from '../testWorld'
import { WorkspaceCtx } from '../workspace'
import { AlsoStatesList } from './AlsoStatesList'

const NOTES = 'Marketing confirmed the launch on June 12.'

const inOtherWords: AlsoStates = {
  claim_id: 'c-notes',
  status: 'proposed',
  revision: 1,
  statement: NOTES,
  evidence_quote: NOTES,
  source_id: 's-notes',
  source_title: 'Marketing notes',
  in_other_words: true,
  value_read: { kind: 'date', value: 'June 12', in_claim: 'June 12', in_other: 'June 12' },
  left_out: false,
}

const copy: AlsoStates = {
  ...inOtherWords,
  claim_id: 'c-copy',
  statement: 'The product launch is planned for June 12.',
  evidence_quote: 'The product launch is planned for June 12.',
  source_title: 'Launch plan (copy)',
  in_other_words: false,
  value_read: null,
}

function inWorkspace(ui: React.ReactNode) {
  return <WorkspaceCtx.Provider value={{ ws: 'w1', names: buildNames(LAUNCH) }}>{ui}</WorkspaceCtx.Provider>
}

afterEach(cleanup)

describe('AlsoStatesList', () => {
  it('shows a copy and a claim in other words with quote and source, and leaves one out on request', () => {
    const onLeave = vi.fn()
    render(inWorkspace(<AlsoStatesList items={[copy, inOtherWords]} onLeave={onLeave} busy={false} onSelect={() => {}} />))
    expect(screen.getByText('Also states this, corrected with it')).toBeTruthy()
    expect(screen.getByText('Also says this, in other words')).toBeTruthy()
    const line = screen.getByTestId('also-other-words')
    expect(line.textContent).toContain(NOTES)
    expect(line.textContent).toContain('Marketing notes')
    expect(line.textContent).toContain('says June 12')
    expect(screen.getByTestId('also-fate').textContent).toBe('Corrected with it.')
    expect(screen.getAllByTestId('also-leave')).toHaveLength(1)
    fireEvent.click(screen.getByTestId('also-leave'))
    expect(onLeave).toHaveBeenCalledWith('c-notes', true)
  })

  it('says what becomes of a claim left out, and takes it back in', () => {
    const onLeave = vi.fn()
    render(
      inWorkspace(
        <AlsoStatesList items={[{ ...inOtherWords, left_out: true }]} onLeave={onLeave} busy={false} onSelect={() => {}} />,
      ),
    )
    expect(screen.getByTestId('also-other-words').getAttribute('data-left-out')).toBe('true')
    expect(screen.getByTestId('also-fate').textContent).toContain('in an open conflict with the correction')
    fireEvent.click(screen.getByText('Correct it too'))
    expect(onLeave).toHaveBeenCalledWith('c-notes', false)
  })

  it('shows nothing when no other claim states it', () => {
    const { container } = render(inWorkspace(<AlsoStatesList items={[]} onLeave={() => {}} busy={false} onSelect={() => {}} />))
    expect(container.textContent).toBe('')
  })
})
