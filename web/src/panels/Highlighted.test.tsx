import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Highlighted } from './Highlighted'

describe('Highlighted', () => {
  it('renders exactly one <mark> around the quoted words, emoji before it and all', () => {
    // In Python the quote starts at code point 2; in JavaScript at UTF-16 unit 3. The server
    // sends the split, so nothing here counts.
    const { container } = render(
      <Highlighted
        segments={[
          { text: '🚀 ', highlight: false },
          { text: 'launch in June', highlight: true },
          { text: ' 🎉 and more.', highlight: false },
        ]}
      />,
    )
    const marks = container.querySelectorAll('mark')
    expect(marks).toHaveLength(1)
    expect(marks[0].textContent).toBe('launch in June')
    expect(container.textContent).toBe('🚀 launch in June 🎉 and more.')
  })

  it('renders plain text when nothing is highlighted', () => {
    const { container } = render(<Highlighted segments={[{ text: 'no quote here', highlight: false }]} />)
    expect(container.querySelectorAll('mark')).toHaveLength(0)
    expect(container.textContent).toBe('no quote here')
  })
})
