// The time control (docs/rules.md, rule 10): moving it to just before a correction shows the corrected
// claim current and the decision that rested on it in good standing, in the graph and in
// the decision's panel (its premises then and now); back to now shows the correction again.
// At a laptop, a narrow window and a phone size; a screenshot of each screen is kept.
//
//   BASE_URL=… CHROMIUM_PATH=… ARTIFACTS_DIR=… STORY='{"workspace":…,"claim_id":…,
//   "decision_id":…,"replacement_id":…}' node e2e/time.mjs
import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { LAUNCH_ARGS, measureScreen, showGraph, tid, wholeInView } from './lib.mjs'

const BASE_URL = (process.env.BASE_URL ?? '').replace(/\/$/, '')
const ARTIFACTS_DIR = resolve(process.env.ARTIFACTS_DIR ?? 'test-artifacts/time')
const STORY = JSON.parse(process.env.STORY ?? '{}')
const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS ?? 30000)
const SIZES = [
  [1280, 800],
  [800, 1000],
  [390, 844],
]

const failures = []
const expect = (ok, where, message) => {
  if (!ok) failures.push(`${where}: ${message}`)
  return ok
}

const node = (id) => `.react-flow__node[data-id="${id}"] [data-status]`

async function statusOf(page, id) {
  return page.locator(node(id)).first().getAttribute('data-status')
}

async function waitStatus(page, id, status) {
  await page.locator(`.react-flow__node[data-id="${id}"] [data-status="${status}"]`).first().waitFor()
}

async function story(browser, size) {
  const where = `${size[0]}×${size[1]}`
  const context = await browser.newContext({ viewport: { width: size[0], height: size[1] } })
  const page = await context.newPage()
  page.setDefaultTimeout(TIMEOUT)
  page.on('pageerror', (err) => failures.push(`page error at ${where}: ${err.message}`))
  const shot = (name) => page.screenshot({ path: `${ARTIFACTS_DIR}/time-${size[0]}x${size[1]}-${name}.png` })
  try {
    await page.goto(`${BASE_URL}/#ws=${encodeURIComponent(STORY.workspace)}`)
    await page.locator(tid('graph')).waitFor()
    await showGraph(page)
    await page.locator('.react-flow__node').first().waitFor()
    await waitStatus(page, STORY.decision_id, 'needs_review')
    expect((await statusOf(page, STORY.claim_id)) === 'superseded', where, 'the corrected claim is not superseded now')

    // Open the history: its marks name what happened; the correction is one of them.
    await page.locator(tid('time-toggle')).click()
    await page.locator(tid('time-slider')).waitFor()
    const kinds = await page.locator(tid('time-mark')).evaluateAll((els) => els.map((e) => e.dataset.kind))
    const fix = kinds.indexOf('correction')
    expect(fix > 0, where, `no correction among the marks: ${kinds.join(', ')}`)
    let m = await page.evaluate(measureScreen)
    expect(m.scrollWidth <= m.clientWidth, where, 'the time control makes the page scroll sideways')
    const strip = await page.evaluate(wholeInView, tid('time-control'))
    expect(strip.ok, where, `the time control: ${strip.why}`)
    await shot('1-history')

    // Just before the correction: with the keyboard, one stop back from the correction's.
    const slider = page.locator(tid('time-slider'))
    await page.locator(tid('time-mark')).nth(fix).click()
    await slider.focus()
    await page.keyboard.press('ArrowLeft')
    await page.locator(`${tid('time-control')}:not([data-as-of="now"])`).waitFor()
    await waitStatus(page, STORY.claim_id, 'proposed')
    await waitStatus(page, STORY.decision_id, 'draft')
    expect((await page.locator(`.react-flow__node[data-id="${STORY.replacement_id}"]`).count()) === 0, where,
      'the reviewer\'s replacement is drawn before it was written')
    const label = await page.locator(tid('time-label')).innerText()
    expect(/As of/.test(label) && !/correction/.test(label), where, `the label says "${label}"`)

    // The decision's panel, then: in good standing, every premise held then and at that time.
    await page.locator(`.react-flow__node[data-id="${STORY.decision_id}"]`).click()
    await page.locator(`${tid('decision-panel')}[data-status="draft"]`).waitFor()
    await page.locator(tid('then-now')).waitFor()
    const holds = await page.locator(tid('premise-now')).evaluateAll((els) => els.map((e) => e.dataset.holds))
    expect(holds.length > 0 && holds.every((h) => h === 'true'), where, `premises as of then: ${holds.join(', ')}`)
    expect((await page.locator(tid('decision-accept')).count()) === 0, where, 'the past offers a review')
    m = await page.evaluate(measureScreen)
    expect(m.scrollWidth <= m.clientWidth, where, 'the past scrolls sideways')
    await shot('2-before-correction')

    // Back to now: the correction, and the decision flagged, with what fell and why.
    await page.locator(tid('time-now')).click()
    await page.locator(`${tid('time-control')}[data-as-of="now"]`).waitFor()
    await waitStatus(page, STORY.claim_id, 'superseded')
    await page.locator(`${tid('decision-panel')}[data-status="needs_review"]`).waitFor()
    const fell = await page.locator(tid('premise-fell')).evaluateAll((els) => els.map((e) => e.dataset.by))
    expect(fell.includes('correction'), where, `what fell: ${fell.join(', ')}`)
    const then = await page.locator(tid('premise-then')).evaluateAll((els) => els.map((e) => e.dataset.holds))
    expect(then.every((h) => h === 'true'), where, `premises when decided: ${then.join(', ')}`)
    m = await page.evaluate(measureScreen)
    expect(m.scrollWidth <= m.clientWidth, where, 'now scrolls sideways')
    await shot('3-now')
  } catch (error) {
    failures.push(`${where}: ${error.message}`)
    await shot('FAILED').catch(() => {})
  } finally {
    await context.close()
  }
}

await mkdir(ARTIFACTS_DIR, { recursive: true })
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH, args: LAUNCH_ARGS })
try {
  for (const size of SIZES) await story(browser, size)
} finally {
  await browser.close()
}
if (failures.length) {
  console.log(`FAILED ${failures.length}:\n${failures.join('\n')}`)
  process.exit(1)
}
console.log(`time control: ${SIZES.length} sizes ok`)
