// A conversation reads as a transcript (docs/rules.md, rule 11): the source's panel lists
// each message with who said it and when, in order, and a claim's evidence shows the
// message it came from with the quote highlighted inside it. At a laptop and a phone size;
// a screenshot of each screen is kept.
//
//   BASE_URL=… CHROMIUM_PATH=… ARTIFACTS_DIR=… STORY='{"workspace":…,"source_id":…,
//   "title":…,"messages":[{"speaker","text"}],"claim_id":…,"statement":…,"quote":…,
//   "message":…}' node e2e/conversation.mjs
import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { LAUNCH_ARGS, measureScreen, showGraph, tid, wholeInView } from './lib.mjs'

const BASE_URL = (process.env.BASE_URL ?? '').replace(/\/$/, '')
const ARTIFACTS_DIR = resolve(process.env.ARTIFACTS_DIR ?? 'test-artifacts/conversation')
const STORY = JSON.parse(process.env.STORY ?? '{}')
const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS ?? 30000)
const SIZES = [
  [1280, 800],
  [390, 844],
]
const MIN_TEXT_PX = 12

const failures = []
const expect = (ok, where, message) => {
  if (!ok) failures.push(`${where}: ${message}`)
  return ok
}

/** Runs in the page: each message of the transcript as the reader sees it. */
function readTranscript() {
  return [...document.querySelectorAll('[data-testid="transcript-message"]')].map((el) => {
    const r = el.getBoundingClientRect()
    const text = el.querySelector('.message-text')
    return {
      speaker: el.querySelector('.speaker')?.textContent ?? '',
      time: el.querySelector('time')?.textContent ?? '',
      text: text?.textContent ?? '',
      textPx: text ? parseFloat(getComputedStyle(text).fontSize) : 0,
      left: r.left,
      right: r.right,
      overflows: text ? text.scrollWidth > text.clientWidth + 1 : true,
    }
  })
}

/** Runs in the page: is every line of an inline element (a quote that wraps) on screen and
 *  uncovered? Each line box is probed at its middle. */
function linesInView(selector) {
  const el = document.querySelector(selector)
  if (!el) return { ok: false, why: `${selector} is not on the page` }
  const rects = [...el.getClientRects()].filter((r) => r.width > 0 && r.height > 0)
  if (!rects.length) return { ok: false, why: `${selector} has no box` }
  for (const r of rects) {
    if (r.left < -1 || r.top < -1 || r.right > window.innerWidth + 1 || r.bottom > window.innerHeight + 1) {
      return { ok: false, why: `a line of ${selector} at ${Math.round(r.left)},${Math.round(r.top)} is off the screen` }
    }
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2)
    if (!hit || !(hit === el || el.contains(hit))) {
      return { ok: false, why: `a line of ${selector} is covered by ${hit?.tagName ?? 'nothing'}` }
    }
  }
  return { ok: true, why: '' }
}

async function pick(page, words, id) {
  await page.locator(tid('node-search')).fill(words)
  await page.locator(`${tid('search-hit')}[data-id="${id}"]`).click()
}

async function story(browser, size) {
  const where = `${size[0]}×${size[1]}`
  const context = await browser.newContext({ viewport: { width: size[0], height: size[1] } })
  const page = await context.newPage()
  page.setDefaultTimeout(TIMEOUT)
  page.on('pageerror', (err) => failures.push(`page error at ${where}: ${err.message}`))
  const shot = (name) => page.screenshot({ path: `${ARTIFACTS_DIR}/conversation-${size[0]}x${size[1]}-${name}.png` })
  try {
    await page.goto(`${BASE_URL}/#ws=${encodeURIComponent(STORY.workspace)}`)
    await page.locator(tid('graph')).waitFor()
    await showGraph(page)
    await page.locator('.react-flow__node').first().waitFor()

    // The conversation's panel: a transcript, each message with its speaker and time.
    await pick(page, STORY.title, STORY.source_id)
    const transcript = page.locator(`${tid('source-panel')}[data-kind="conversation"] ${tid('transcript')}`)
    await transcript.waitFor()
    await page.locator(tid('transcript-message')).first().scrollIntoViewIfNeeded()
    const seen = await page.evaluate(readTranscript)
    expect(seen.length === STORY.messages.length, where, `${seen.length} messages shown, not ${STORY.messages.length}`)
    STORY.messages.forEach((m, i) => {
      const got = seen[i]
      if (!expect(got, where, `message ${i} is missing`)) return
      expect(got.speaker === m.speaker, where, `message ${i} is said by "${got.speaker}", not ${m.speaker}`)
      expect(got.text === m.text, where, `message ${i} reads "${got.text}"`)
      expect(/\d/.test(got.time), where, `message ${i} has no time: "${got.time}"`)
      expect(got.textPx >= MIN_TEXT_PX, where, `message ${i} is in ${got.textPx} px type`)
      expect(got.left >= 0 && got.right <= size[0] + 1, where, `message ${i} runs off the screen (${got.left}–${got.right})`)
      expect(!got.overflows, where, `message ${i}'s words overflow their box`)
    })
    const first = await page.evaluate(wholeInView, `${tid('transcript-message')}`)
    expect(first.ok, where, `the first message: ${first.why}`)
    let m = await page.evaluate(measureScreen)
    expect(m.scrollWidth <= m.clientWidth, where, `the transcript scrolls sideways: ${m.scrollWidth} in ${m.clientWidth}`)
    await shot('1-transcript')

    // A claim from one message: its evidence is that message, the quote highlighted in it.
    await pick(page, STORY.statement, STORY.claim_id)
    await page.locator(`${tid('evidence-panel')}[data-claim-id="${STORY.claim_id}"]`).waitFor()
    const message = page.locator(`${tid('evidence-fragment')}.message`).first()
    await message.waitFor()
    await message.scrollIntoViewIfNeeded()
    const head = await message.locator(tid('evidence-message')).innerText()
    expect(head.includes(STORY.speaker), where, `the evidence says "${head}", not who said it`)
    const mark = message.locator(`.message-text mark${tid('evidence-quote')}`)
    expect((await mark.count()) === 1, where, `${await mark.count()} highlighted quotes in the message`)
    expect((await mark.innerText()) === STORY.quote, where, `the highlight reads "${await mark.innerText()}"`)
    const whole = await message.locator('.message-text').innerText()
    expect(whole === STORY.message, where, `the evidence shows "${whole}", not the whole message`)
    const markSeen = await page.evaluate(linesInView, `${tid('evidence-fragment')}.message mark`)
    expect(markSeen.ok, where, `the highlighted quote: ${markSeen.why}`)
    const saidBy = await page.locator(tid('claim-said-by')).innerText()
    expect(saidBy.startsWith(STORY.speaker), where, `"Said by" reads "${saidBy}"`)
    m = await page.evaluate(measureScreen)
    expect(m.scrollWidth <= m.clientWidth, where, 'the evidence scrolls sideways')
    await shot('2-evidence')
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
  console.error(failures.join('\n'))
  process.exit(1)
}
console.log(`conversation: transcript and highlighted quote read at ${SIZES.map((s) => s.join('×')).join(', ')}`)
