import { showing, type Paged } from './paging'

/** "Showing 20 of 45" and a button that loads the next page, while there is one. */
export function MoreFooter<T extends { id: string }>({ list, testId, noun }: { list: Paged<T>; testId: string; noun: string }) {
  const text = showing(list.items.length, list.total, list.more)
  if (text === null) return null
  return (
    <p className="muted small more-footer" data-testid={testId}>
      <span data-testid={`${testId}-count`}>{text}</span>{' '}
      {list.more && (
        <button type="button" className="link" data-testid={`${testId}-button`} disabled={list.loading} onClick={list.loadMore}>
          {list.loading ? 'Loading…' : `More ${noun}`}
        </button>
      )}
    </p>
  )
}
