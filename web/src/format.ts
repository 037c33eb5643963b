// Pure and a leaf (it imports nothing): how numbers, sizes and moments are said to a person.
// Every module that words something may import it without an import cycle.

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * When something happened, as a person says it: "today at 14:20", "yesterday at 09:05",
 * "on 3 March at 14:20" this year, "on 3 March 2025" before. `timeZone` is for tests; the
 * browser's own zone otherwise.
 */
export function whenInWords(ms: number, now: number, timeZone?: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hour12: false }).format(ms)
  const then = day.format(ms)
  if (then === day.format(now)) return `today at ${time}`
  if (then === day.format(now - DAY_MS)) return `yesterday at ${time}`
  const year = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric' })
  if (year.format(ms) === year.format(now)) {
    return `on ${new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'long' }).format(ms)} at ${time}`
  }
  return `on ${new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'long', year: 'numeric' }).format(ms)}`
}

/** A moment as people read it: the date and the time to the second, in their own zone. */
export function when(ms: number): string {
  return new Date(ms).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  })
}

const ORDINAL = ['1st', '2nd', '3rd']
/** 1st, 2nd, 3rd, 4th… */
export const ordinal = (n: number) => ORDINAL[n - 1] ?? `${n}th`

/** "1 claim", "3 claims", "1,200 claims". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`
}

/** A number of bytes in binary units, as the server's limits say them: "8 MiB", "1.5 MiB". */
export function bytesInWords(n: number): string {
  for (const [unit, size] of [['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]] as const) {
    if (n >= size) return `${(n / size).toFixed(1).replace(/\.0$/, '')} ${unit}`
  }
  return `${n} bytes`
}
