// The first screen's load, measured (never asserted): the app opened on a workspace at
// 1280×800 in a fresh browser context each time (nothing cached), from the navigation's
// start to the first camera set on the graph (`flow-pane` data-camera="first"), and the
// script bytes the page fetched by then. Prints one JSON object: each run's milliseconds,
// their median, and the bytes of script (raw and as sent). A floor is measured in the same
// run: the same page's HTML and its first script only (time to the `load` event of a page
// that shows nothing), so a figure reads as a ratio to what the machine gives at that moment.
//
//   BASE_URL=… CHROMIUM_PATH=… WS=<workspace id> [RUNS=7] node e2e/firstload.mjs
import { chromium } from 'playwright-core'
import { LAUNCH_ARGS } from './lib.mjs'

const BASE_URL = (process.env.BASE_URL ?? '').replace(/\/$/, '')
const CHROMIUM_PATH = process.env.CHROMIUM_PATH
const WS = process.env.WS
const RUNS = Number(process.env.RUNS ?? 7)

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

async function once(browser, path, ready) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  try {
    await page.goto(`${BASE_URL}${path}`, { waitUntil: 'commit' })
    await ready(page)
    return await page.evaluate(() => {
      const scripts = performance
        .getEntriesByType('resource')
        .filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'))
      return {
        ms: performance.now(),
        scripts: scripts.length,
        scriptBytes: scripts.reduce((n, r) => n + (r.decodedBodySize || 0), 0),
        scriptSent: scripts.reduce((n, r) => n + (r.encodedBodySize || 0), 0),
      }
    })
  } finally {
    await context.close()
  }
}

async function main() {
  if (!BASE_URL || !CHROMIUM_PATH || !WS) throw new Error('set BASE_URL, CHROMIUM_PATH and WS')
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS })
  const first = []
  const floor = []
  try {
    // One unmeasured load warms the server and the disk.
    await once(browser, `/#ws=${encodeURIComponent(WS)}`, (p) =>
      p.waitForSelector('[data-testid="flow-pane"][data-camera="first"]', { state: 'attached', timeout: 60000 }),
    )
    for (let i = 0; i < RUNS; i += 1) {
      first.push(
        await once(browser, `/#ws=${encodeURIComponent(WS)}`, (p) =>
          p.waitForSelector('[data-testid="flow-pane"][data-camera="first"]', { state: 'attached', timeout: 60000 }),
        ),
      )
      floor.push(await once(browser, '/api/health', (p) => p.waitForLoadState('load')))
    }
  } finally {
    await browser.close()
  }
  const out = {
    runs: RUNS,
    first_screen_ms: first.map((r) => Math.round(r.ms)),
    first_screen_median_ms: Math.round(median(first.map((r) => r.ms))),
    floor_median_ms: Math.round(median(floor.map((r) => r.ms))),
    scripts_fetched: first[0].scripts,
    script_bytes: first[0].scriptBytes,
    script_bytes_sent: first[0].scriptSent,
  }
  out.ratio_to_floor = Number((out.first_screen_median_ms / Math.max(1, out.floor_median_ms)).toFixed(2))
  console.log(JSON.stringify(out))
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
