// What a person meets, from the DOM (run by tests/test_browser_people.py):
// - files: at 1280×800 and 390×844 a PDF picked with the file picker becomes a file source with
//   its claims; a large file's upload (throttled) shows its bytes sent of how many, then the
//   server reading it;
// - a chain of two corrections: the decision's panel names the claim that holds now;
// - two conflicts are two marks, apart, each answering a click with its own conflict; the
//   decision's premise that holds says it is in an open conflict;
// - no node's heading runs past its box;
// - at 800×1000, with the History strip open, no node lies under the strip and a source node
//   takes a click; a selection leaves no box cut at the canvas's left or right edge.
//
//   BASE_URL=… CHROMIUM_PATH=… ARTIFACTS_DIR=… STORY='{"files":[…],"pdf":…,"big":…,
//   "chain":{…},"conflicts":{…}}' node e2e/people.mjs
import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { check, LAUNCH_ARGS, settle, showGraph, stepper, tid } from './lib.mjs'

const BASE_URL = (process.env.BASE_URL ?? '').replace(/\/$/, '')
const CHROMIUM_PATH = process.env.CHROMIUM_PATH
const ARTIFACTS_DIR = resolve(process.env.ARTIFACTS_DIR ?? 'test-artifacts/people')
const STORY = JSON.parse(process.env.STORY ?? '{}')
const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS ?? 60000)
const SIZES = [
  [1280, 800],
  [390, 844],
]

async function open(browser, ws, [width, height]) {
  const context = await browser.newContext({ viewport: { width, height } })
  const page = await context.newPage()
  page.setDefaultTimeout(TIMEOUT)
  await page.goto(`${BASE_URL}/#ws=${encodeURIComponent(ws)}`)
  await page.locator(tid('workspace')).waitFor()
  return page
}

/** Runs in the page: each node whose heading (kind, status, marker) or foot runs past it. */
function cutLabels() {
  const cut = []
  for (const node of document.querySelectorAll('.react-flow__node .gnode')) {
    const box = node.getBoundingClientRect()
    for (const part of node.querySelectorAll('.gnode-head, .gnode-head > *, .gnode-foot')) {
      const r = part.getBoundingClientRect()
      if (r.width === 0) continue
      const over = part.scrollWidth > part.clientWidth + 1 || r.right > box.right - 1 || r.left < box.left
      if (over) cut.push(`${node.getAttribute('data-testid')} "${part.textContent.trim()}"`)
    }
  }
  return cut
}

async function files(browser, ws, size) {
  const label = `files-${size.join('x')}`
  const page = await open(browser, ws, size)
  const step = stepper(page, label, ARTIFACTS_DIR)
  try {
    await step('the Add source tab offers a file picker', async () => {
      await page.locator(tid('tab-sources')).click()
      await page.locator(tid('source-drop')).waitFor()
      const accept = await page.locator(tid('source-file-input')).getAttribute('accept')
      for (const kind of ['.pdf', '.docx', '.md', '.html', '.txt']) check(accept.includes(kind), `picker does not offer ${kind}: ${accept}`)
    })
    await step('a PDF picked becomes a file source with its claims', async () => {
      await page.locator(tid('source-file-input')).setInputFiles(STORY.pdf)
      await page.locator(tid('source-file-chosen')).waitFor()
      await page.locator(tid('source-submit')).click()
      const result = page.locator(`${tid('source-result')}[data-kind="file"]`)
      await result.waitFor()
      const claims = Number(await result.getAttribute('data-claims'))
      check(claims >= 2, `the PDF gave ${claims} claims`)
      const text = await result.innerText()
      check(/File “offices” created\. \d+ claims kept, each with an exact quote\./.test(text), `result says: ${text}`)
    })
    await step('the new file source is on the graph and reads as a file', async () => {
      await showGraph(page)
      await page.locator(tid('node-search')).fill('offices')
      const hit = page.locator(tid('search-hit')).filter({ hasText: 'offices' }).first()
      await hit.click()
      await page.locator(`${tid('source-panel')}[data-kind="file"]`).waitFor()
      await page.locator(tid('node-source')).filter({ hasText: 'offices' }).first().waitFor()
      const places = await page.locator(tid('fragment-place')).allInnerTexts()
      check(places.some((p) => p.includes('page 2')), `the file's fragments say no page: ${places}`)
    })
    await step('a large upload shows its bytes, then the server reading it', async () => {
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Network.enable')
      // About 300 kB a second: a 900 kB file takes a few seconds to go up; the answer comes
      // a second and a half after the upload, so the reading state is on screen for that long
      // however fast the server reads.
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 1500, downloadThroughput: -1, uploadThroughput: 300 * 1024 })
      await page.locator(tid('tab-sources')).click()
      await page.locator(tid('source-file-input')).setInputFiles(STORY.big)
      // Every phase the bar shows is kept as it shows it (a short one included).
      await page.evaluate(() => {
        window.__phases = []
        const seen = () => {
          const bar = document.querySelector('[data-testid="source-progress"]')
          const phase = bar?.getAttribute('data-phase')
          if (phase && window.__phases.at(-1) !== phase) window.__phases.push(phase)
        }
        new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, attributes: true })
      })
      await page.locator(tid('source-submit')).click()
      const seen = await page.waitForFunction(
        () => {
          const bar = document.querySelector('[data-testid="source-progress"][data-phase="sending"]')
          if (!bar) return null
          const sent = Number(bar.getAttribute('data-sent'))
          const total = Number(bar.getAttribute('data-total'))
          return sent > 0 && sent < total ? { sent, total, text: bar.textContent } : null
        },
        null,
        { polling: 50 },
      )
      const { sent, total, text } = await seen.jsonValue()
      check(total >= STORY.big_bytes, `the bar's total ${total} is not the file's ${STORY.big_bytes} bytes`)
      check(/Sending inventory\.txt: [\d.]+ (KiB|bytes) of [\d.]+ KiB/.test(text), `the bar says: ${text} (${sent} of ${total})`)
      await page.screenshot({ path: `${ARTIFACTS_DIR}/${label}-uploading.png` })
      await page.locator(`${tid('source-result')}[data-kind="file"]`).filter({ hasText: 'inventory' }).waitFor()
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
      const phases = await page.evaluate(() => window.__phases)
      check(JSON.stringify(phases) === JSON.stringify(['sending', 'reading']), `the bar showed ${JSON.stringify(phases)}`)
      check((await page.locator(tid('source-progress')).count()) === 0, 'the bar stays after the answer')
    })
  } finally {
    await page.context().close()
  }
}

/** Finds a node with the search box and picks it: it opens in the panel and comes into view. */
async function pickBySearch(page, words, id) {
  await page.locator(tid('node-search')).fill(words)
  await page.locator(`${tid('search-hit')}[data-id="${id}"]`).click()
}

/** Once the camera stops moving: its moves take 300 ms, so a viewport unchanged for 400 ms. */
async function cameraStill(page) {
  await page.waitForFunction(
    () =>
      new Promise((r) => {
        const v = document.querySelector('.react-flow__viewport')
        const a = v.style.transform
        setTimeout(() => r(v.style.transform === a), 400)
      }),
    null,
    { polling: 100 },
  )
}

/** The whole graph in view ("Fit all"), once the camera stops moving. */
async function fitAll(page) {
  await page.locator(tid('zoom-fit')).click()
  await cameraStill(page)
}

async function chain(browser, size) {
  const label = `chain-${size.join('x')}`
  const page = await open(browser, STORY.chain.id, size)
  const step = stepper(page, label, ARTIFACTS_DIR)
  try {
    await step('the decision names the claim that holds now', async () => {
      await showGraph(page)
      await pickBySearch(page, 'Plan the launch', STORY.chain.decision)
      const current = page.locator(tid('premise-current'))
      await current.waitFor()
      const text = await current.innerText()
      check(text.includes(STORY.chain.current), `the chain ends at: ${text}`)
      check((await page.locator(tid('premise-fell')).innerText()).includes('June 19'), 'the first replacement is not named')
    })
    await step('every heading fits its box, the corrections\' among them', async () => {
      await fitAll(page)
      const heads = await page.locator(`${tid('node-correction')} .gnode-kind`).allInnerTexts()
      check(heads.length >= 2 && heads.every((h) => /^(correction|retraction|resolution)$/i.test(h)), `correction headings: ${heads}`)
      const cut = await page.evaluate(cutLabels)
      check(cut.length === 0, `cut labels: ${cut}`)
    })
  } finally {
    await page.context().close()
  }
}

async function conflicts(browser, size) {
  const label = `conflicts-${size.join('x')}`
  const page = await open(browser, STORY.conflicts.id, size)
  const step = stepper(page, label, ARTIFACTS_DIR)
  try {
    await step('two conflicts are two marks, apart', async () => {
      await showGraph(page)
      await page.locator(`${tid('flow-pane')}[data-camera="first"]`).waitFor({ state: 'attached' })
      await fitAll(page)
      await page.locator(tid('conflict-edge')).nth(1).waitFor()
      const boxes = await page.locator(tid('conflict-edge')).evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect()
          return { id: el.getAttribute('data-id'), left: r.left, top: r.top, right: r.right, bottom: r.bottom }
        }),
      )
      const ids = new Set(boxes.map((b) => b.id))
      check(ids.size === boxes.length && boxes.length >= STORY.conflicts.conflicts.length, `marks ${JSON.stringify(boxes)}`)
      for (let i = 0; i < boxes.length; i += 1)
        for (let j = i + 1; j < boxes.length; j += 1) {
          const [a, b] = [boxes[i], boxes[j]]
          const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top
          check(apart, `the marks of ${a.id} and ${b.id} overlap`)
        }
      check((await page.evaluate(cutLabels)).length === 0, `cut labels: ${await page.evaluate(cutLabels)}`)
    })
    for (const id of STORY.conflicts.conflicts) {
      await step(`the mark of one conflict opens it`, async () => {
        // Opening a conflict moves the camera to its claims: the whole graph in view again.
        await fitAll(page)
        const mark = page.locator(`${tid('conflict-edge')}[data-id="${id}"]`)
        const hit = await mark.evaluate((el) => {
          const r = el.getBoundingClientRect()
          const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2)
          return top === el || el.contains(top)
        })
        check(hit, `the mark of ${id} is under something else`)
        await mark.click()
        await page.locator(`${tid('conflict')}[data-id="${id}"]`).waitFor()
      })
    }
    await step('a premise that holds says it is in an open conflict', async () => {
      await pickBySearch(page, 'Plan the event budget', STORY.conflicts.decision)
      await page.locator(tid('premise-conflict')).first().waitFor()
      const states = await page.locator(`${tid('premise-state')}[data-disputed]:not([data-disputed="0"])`).allInnerTexts()
      check(states.some((s) => /holds: .* in an open conflict/.test(s)), `premise states: ${states}`)
    })
  } finally {
    await page.context().close()
  }
}

/** Runs in the page: nodes drawn under the strip (or the bar), and boxes cut at the pane's sides. */
function underAndCut() {
  const pane = document.querySelector('[data-testid="flow-pane"]').getBoundingClientRect()
  const strip = document.querySelector('[data-testid="time-control"]').getBoundingClientRect()
  const under = []
  const cut = []
  for (const el of document.querySelectorAll('.react-flow__node')) {
    const r = el.getBoundingClientRect()
    const inPaneY = r.bottom > pane.top && r.top < pane.bottom
    const inPaneX = r.right > pane.left && r.left < pane.right
    if (inPaneX && r.bottom > strip.top && r.top < strip.bottom) under.push(el.getAttribute('data-id'))
    if (inPaneY && ((r.left < pane.left - 1 && r.right > pane.left + 1) || (r.left < pane.right - 1 && r.right > pane.right + 1)))
      cut.push(`${el.classList.contains('is-selected') ? 'selected ' : ''}${el.querySelector('.gnode')?.getAttribute('data-testid')} ${Math.round(r.left)}–${Math.round(r.right)} in ${Math.round(pane.left)}–${Math.round(pane.right)}`)
  }
  return { under, cut, paneTop: pane.top, stripBottom: strip.bottom }
}

async function strip(browser, ws, size) {
  const label = `strip-${size.join('x')}`
  const page = await open(browser, ws, size)
  const step = stepper(page, label, ARTIFACTS_DIR)
  try {
    await step('with the history open, nothing lies under the strip', async () => {
      await showGraph(page)
      await page.locator(`${tid('flow-pane')}[data-camera="first"]`).waitFor({ state: 'attached' })
      await page.locator(tid('time-toggle')).click()
      await page.locator(`${tid('time-toggle')}[aria-expanded="true"]`).waitFor()
      await settle(page)
      const first = await page.evaluate(underAndCut)
      check(first.under.length === 0, `under the strip: ${first.under} (pane top ${first.paneTop}, strip bottom ${first.stripBottom})`)
      // Every node in view, the sources too: still none under the strip, and one takes a click.
      await fitAll(page)
      const { under, paneTop, stripBottom } = await page.evaluate(underAndCut)
      check(under.length === 0, `fitted, under the strip: ${under} (pane top ${paneTop}, strip bottom ${stripBottom})`)
      const source = page.locator(tid('node-source')).first()
      const box = await source.boundingBox()
      const takes = await page.evaluate(([x, y]) => Boolean(document.elementFromPoint(x, y)?.closest('.react-flow__node')), [box.x + box.width / 2, box.y + box.height / 2])
      check(takes, 'a click on the source node does not reach it')
      await source.click()
      await page.locator(tid('source-panel')).waitFor()
    })
    await step('a selection leaves its box whole in the pane', async () => {
      for (const kind of ['node-claim', 'node-decision']) {
        await page.locator(tid(kind)).first().click()
        await page.locator(`${tid('flow-pane')}[data-camera="moved"], ${tid('flow-pane')}[data-camera="first"]`).first().waitFor({ state: 'attached' })
        await cameraStill(page)
        // The selected box is whole; a graph wider than the pane at a readable zoom may cut
        // a box far from it, which the reader reaches by moving the camera.
        const { cut } = await page.evaluate(underAndCut)
        check((await page.locator('.react-flow__node.is-selected').count()) === 1, `no ${kind} is drawn as selected`)
        const mine = cut.filter((c) => c.startsWith('selected '))
        check(mine.length === 0, `after selecting a ${kind}: the selection is cut at the edge: ${mine}`)
      }
    })
  } finally {
    await page.context().close()
  }
}

async function main() {
  if (!BASE_URL || !CHROMIUM_PATH) throw new Error('set BASE_URL and CHROMIUM_PATH')
  await mkdir(ARTIFACTS_DIR, { recursive: true })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS })
  const failures = []
  const attempt = async (fn) => {
    try {
      await fn()
    } catch (e) {
      failures.push(e.message)
    }
  }
  try {
    for (const [i, size] of SIZES.entries()) {
      await attempt(() => files(browser, STORY.files[i], size))
      await attempt(() => chain(browser, size))
      await attempt(() => conflicts(browser, size))
    }
    await attempt(() => strip(browser, STORY.conflicts.id, [800, 1000]))
    await attempt(() => strip(browser, STORY.chain.id, [1280, 800]))
  } finally {
    await browser.close()
  }
  if (failures.length) {
    console.error(`FAILED:\n${failures.join('\n')}`)
    process.exit(1)
  }
  console.log('people: every check passed')
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
