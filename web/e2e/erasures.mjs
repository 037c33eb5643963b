// Erasing through the UI (docs/rules.md, rule 22), at a laptop and a phone size, each on a
// workspace of its own: a message of a conversation erased from its transcript through the
// preview; the claim it held then reads "Erased on …, by …" in the graph and its panel, the
// decision resting on it needs review because of the erasure, and the erased words are
// nowhere on the page. A speaker's request to forget is listed for review, naming its claim,
// and applied from there. Last, an agent's key is refused, in words. A screenshot of each step
// is kept.
//
//   BASE_URL=… CHROMIUM_PATH=… ARTIFACTS_DIR=… AFTERHACK_API_KEY=<admin key>
//   STORIES='[{"workspace","size","chat_id","chat_title","phone","phone_claim","decision",
//   "address","address_chat","address_claim","request","request_text","agent_key"}]'
//   node e2e/erasures.mjs
import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { LAUNCH_ARGS, measureScreen, panelLeaks, showGraph, tid, wholeInView } from './lib.mjs'

const BASE_URL = (process.env.BASE_URL ?? '').replace(/\/$/, '')
const ARTIFACTS_DIR = resolve(process.env.ARTIFACTS_DIR ?? 'test-artifacts/erasures')
const STORIES = JSON.parse(process.env.STORIES ?? '[]')
const ADMIN_KEY = process.env.AFTERHACK_API_KEY ?? ''
const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS ?? 30000)

const failures = []
const expect = (ok, where, message) => {
  if (!ok) failures.push(`${where}: ${message}`)
  return ok
}

/** Runs in the page: every word the reader can see, the side panel's and the graph's. */
const pageText = () => document.body.innerText

async function open(browser, story, key, width, height) {
  const context = await browser.newContext({ viewport: { width, height } })
  await context.addInitScript((k) => sessionStorage.setItem('afterhack.apiKey', k), key)
  const page = await context.newPage()
  page.setDefaultTimeout(TIMEOUT)
  await page.goto(`${BASE_URL}/#ws=${encodeURIComponent(story.workspace)}`)
  await page.locator(tid('graph')).waitFor()
  await showGraph(page)
  await page.locator('.react-flow__node').first().waitFor()
  return { context, page }
}

async function pick(page, words, id) {
  await page.locator(tid('node-search')).fill(words)
  await page.locator(`${tid('search-hit')}[data-id="${id}"]`).click()
}

/** The panel's element in view, for the reader to see it: scroll it there, then check. */
async function inView(page, where, selector, what) {
  await page.locator(selector).first().scrollIntoViewIfNeeded()
  const seen = await page.evaluate(wholeInView, selector)
  expect(seen.ok, where, `${what}: ${seen.why}`)
}

async function story(browser, s) {
  const [width, height] = s.size.split('x').map(Number)
  const where = `${width}×${height}`
  const { context, page } = await open(browser, s, ADMIN_KEY, width, height)
  page.on('pageerror', (err) => failures.push(`page error at ${where}: ${err.message}`))
  const shot = (name) => page.screenshot({ path: `${ARTIFACTS_DIR}/erasures-${s.size}-${name}.png` })
  try {
    // The transcript: Ana's first message, erased through the preview.
    await pick(page, s.chat_title, s.chat_id)
    const first = page.locator(`${tid('transcript-message')}[data-index="0"]`)
    await first.waitFor()
    expect((await first.locator('.message-text').innerText()).includes(s.phone), where, 'the first message does not hold the number')
    await first.locator(tid('erase-offer')).click()
    const preview = page.locator(tid('erase-preview'))
    await preview.waitFor()
    const summary = await page.locator(tid('erase-summary')).innerText()
    expect(/1 message/.test(summary) && /1 claim/.test(summary), where, `the preview says "${summary}"`)
    expect(/1 decision will need review/.test(summary), where, `the preview does not say a decision will need review: "${summary}"`)
    const goes = await page.locator(tid('erase-goes-claim')).evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))
    expect(goes.length === 1 && goes[0] === s.phone_claim, where, `the preview lists ${JSON.stringify(goes)} as going`)
    const flagged = await page.locator(tid('preview-flagged')).evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))
    expect(flagged.length === 1 && flagged[0] === s.decision, where, `the preview flags ${JSON.stringify(flagged)}`)
    expect((await page.locator(`${tid('erase-goes-message')}`).count()) === 1, where, 'the preview does not name the message')
    // The graph shows the preview too: the claim marked as going, the decision as flagged.
    await page.locator(`${tid('node-claim')}[data-node-id="${s.phone_claim}"][data-mark="erase"]`).waitFor()
    await page.locator(`${tid('node-decision')}[data-node-id="${s.decision}"][data-mark="flagged"]`).waitFor()
    await page.locator(tid('erase-reason')).fill('Said by mistake')
    await inView(page, where, tid('erase-apply'), 'the erase button')
    let m = await page.evaluate(measureScreen)
    expect(m.scrollWidth <= m.clientWidth, where, `the preview scrolls sideways: ${m.scrollWidth} in ${m.clientWidth}`)
    let leaks = await page.evaluate(panelLeaks)
    expect(leaks.length === 0, where, `the preview shows ${leaks.join('; ')}`)
    await shot('1-preview')

    await page.locator(tid('erase-apply')).click()
    const outcome = page.locator(`${tid('erase-outcome')}[data-status="applied"]`)
    await outcome.waitFor()
    const marked = await page.locator('[data-mark="erase"], [data-mark="flagged"]').count()
    expect(marked === 0, where, `${marked} nodes still carry the preview's marks after apply`)
    const said = await page.locator(tid('erase-outcome-summary')).innerText()
    expect(/Erased 1 message and 1 claim; 1 decision needs review/.test(said), where, `the outcome says "${said}"`)
    const record = page.locator(`${tid('erase-outcome')} ${tid('erasure-record')}`)
    const state = await record.locator('.erasure-state').innerText()
    expect(/^Erased on .+, by admin\.$/.test(state), where, `the record says "${state}"`)
    expect((await record.locator('.erasure-reason').innerText()).includes('Said by mistake'), where, 'the record does not keep the reason')
    const disk = await page.locator(`${tid('erase-outcome')} ${tid('erasure-disk')}`).getAttribute('data-disk')
    expect(disk === 'pending' || disk === 'clean', where, `the record's disk state reads "${disk}"`)
    // The files are rewritten after apply answers: the record turns clean where it is shown.
    const clean = page.locator(`${tid('erase-outcome')} ${tid('erasure-disk')}[data-disk="clean"]`)
    await clean.waitFor({ timeout: TIMEOUT * 4 })
    const cleanText = await clean.innerText()
    expect(/^On disk: clean since .+\.$/.test(cleanText), where, `the record's disk says "${cleanText}"`)
    await inView(page, where, tid('erase-outcome-summary'), 'the outcome')
    // The transcript now shows a marker where the words were, and who erased them when.
    await page.locator(`${tid('transcript-message')}[data-index="0"] ${tid('erased-mark')}`).waitFor()
    const note = await page.locator(`${tid('transcript-message')}[data-index="0"] ${tid('message-erased')}`).innerText()
    expect(/^Erased on .+, by admin\.$/.test(note), where, `the erased message says "${note}"`)
    expect(!(await page.evaluate(pageText)).includes(s.phone), where, 'the number is still on the page')
    await shot('2-outcome')

    // The claim, where it stood: its node and its panel say when and by whom, not the words.
    // The search box finds it by what it reads now.
    await pick(page, 'Erased on', s.phone_claim)
    const node = page.locator(`${tid('node-claim')}[data-node-id="${s.phone_claim}"][data-status="erased"]`)
    await node.waitFor()
    const label = await node.locator('.gnode-label').innerText()
    expect(/^Erased on .+ UTC, by admin\.$/.test(label), where, `the claim's node reads "${label}"`)
    const evidence = page.locator(`${tid('evidence-panel')}[data-claim-id="${s.phone_claim}"][data-status="erased"]`)
    await evidence.waitFor()
    const statement = await page.locator(tid('claim-statement')).innerText()
    expect(statement === label, where, `the panel reads "${statement}", the graph "${label}"`)
    await page.locator(tid('claim-erased')).waitFor()
    expect((await page.locator(`${tid('detail-panel')} ${tid('erase-offer')}`).count()) === 0, where, 'an erased claim still offers to be erased')
    expect(!(await page.evaluate(pageText)).includes(s.phone), where, 'the number is still on the page')
    await shot('3-erased-claim')

    // The decision resting on it needs review, and says the erasure is why.
    await pick(page, 'Call Ana on her phone', s.decision)
    const decision = page.locator(`${tid('node-decision')}[data-node-id="${s.decision}"]`)
    await decision.waitFor()
    expect((await decision.getAttribute('data-status')) === 'needs_review', where, `the decision is ${await decision.getAttribute('data-status')}`)
    const reason = page.locator(`${tid('decision-review-reason')}[data-type="erasure"]`)
    await reason.waitFor()
    const why = await reason.innerText()
    expect(/the claim it rested on was erased/.test(why), where, `the decision says "${why}"`)
    await inView(page, where, tid('decision-review-reason'), 'why the decision needs review')
    leaks = await page.evaluate(panelLeaks)
    expect(leaks.length === 0, where, `the decision's panel shows ${leaks.join('; ')}`)
    await shot('4-decision')

    // Ana's request to forget, listed for review with the claim it names, withheld meanwhile.
    await page.locator(tid('tab-erasures')).click()
    const request = page.locator(`${tid('erasure-request')}[data-id="${s.request}"]`)
    await request.waitFor()
    const badge = await page.locator(`${tid('tab-erasures')} .tab-badge`).innerText()
    expect(badge === '1', where, `the tab's badge reads "${badge}"`)
    const named = await request.locator(tid('request-claim')).evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))
    expect(named.length === 1 && named[0] === s.address_claim, where, `the request names ${JSON.stringify(named)}`)
    const claimText = await request.locator(tid('request-claim')).innerText()
    expect(claimText.includes(s.address), where, `the request's claim reads "${claimText}"`)
    const message = await request.locator(tid('request-message')).innerText()
    expect(message.includes(s.request_text), where, `the request's message reads "${message}"`)
    await inView(page, where, `${tid('erasure-request')}[data-id="${s.request}"] ${tid('erase-offer')}`, 'the request\'s erase button')
    await shot('5-request')

    await request.locator(tid('erase-offer')).click()
    await request.locator(tid('erase-preview')).waitFor()
    const goesReq = await request.locator(tid('erase-goes-claim')).evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))
    expect(goesReq.length === 1 && goesReq[0] === s.address_claim, where, `the request's preview lists ${JSON.stringify(goesReq)}`)
    await request.locator(tid('erase-apply')).click()
    await request.locator(`${tid('erase-outcome')}[data-status="applied"]`).waitFor()
    await page.locator(`${tid('tab-erasures')} .tab-badge`).waitFor({ state: 'detached' })
    // The claim the request named now reads as erased, wherever it is named.
    await page.waitForFunction(
      (sel) => /^Erased on /.test(document.querySelector(sel)?.textContent ?? ''),
      `${tid('erasure-request')}[data-id="${s.request}"] ${tid('request-claim')}`,
    )
    expect(!(await page.evaluate(pageText)).includes(s.address), where, 'the address is still on the page')
    await inView(page, where, `${tid('erasure-request')} ${tid('erase-outcome-summary')}`, 'the request\'s outcome')
    const done = await page.locator(`${tid('erasures-list')} ${tid('erasure-record')}`).count()
    expect(done === 2, where, `the erasures list holds ${done} records, not 2`)
    m = await page.evaluate(measureScreen)
    expect(m.scrollWidth <= m.clientWidth, where, 'the erasures tab scrolls sideways')
    await shot('6-request-applied')
    await request.locator(tid('erase-done')).click()
    await page.locator(tid('requests-empty')).waitFor()
  } catch (error) {
    failures.push(`${where}: ${error.message}`)
    await shot('FAILED').catch(() => {})
  } finally {
    await context.close()
  }
}

/** An agent's key may read but not erase: the panel says so in words, then stops offering. */
async function refused(browser, s) {
  const where = 'an agent’s key'
  const { context, page } = await open(browser, s, s.agent_key, 1280, 800)
  page.on('pageerror', (err) => failures.push(`page error with ${where}: ${err.message}`))
  const shot = (name) => page.screenshot({ path: `${ARTIFACTS_DIR}/erasures-agent-${name}.png` })
  try {
    await pick(page, s.chat_title, s.chat_id)
    const second = page.locator(`${tid('transcript-message')}[data-index="1"]`)
    await second.waitFor()
    await second.locator(tid('erase-offer')).click()
    const forbidden = page.locator(tid('erase-forbidden'))
    await forbidden.waitFor()
    const words = await forbidden.innerText()
    expect(/agent/.test(words) && /reviewer/.test(words), where, `the refusal reads "${words}"`)
    expect((await page.locator(tid('erase-preview')).count()) === 0, where, 'a preview shows for a key that may not erase')
    await inView(page, where, tid('erase-forbidden'), 'the refusal')
    await shot('refused')
    await page.locator(tid('erase-cancel')).click()
    await page.locator(`${tid('source-panel')} ${tid('erase-refused')}`).waitFor()
    const offers = await page.locator(`${tid('source-panel')} ${tid('erase-offer')}`).count()
    expect(offers === 0, where, `${offers} erase buttons still offered after the refusal`)
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
  for (const s of STORIES) await story(browser, s)
  if (STORIES.length) await refused(browser, STORIES[0])
} finally {
  await browser.close()
}
if (failures.length) {
  console.error(failures.join('\n'))
  process.exit(1)
}
console.log(`erasures: a message erased and a request applied at ${STORIES.map((s) => s.size).join(', ')}; an agent's key refused`)
