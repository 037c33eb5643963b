// End-to-end journey through the web UI against a running afterhack (docs/api.md).
//
//   BASE_URL=http://127.0.0.1:8000 CHROMIUM_PATH="$(command -v chromium)" \
//   ARTIFACTS_DIR=test-artifacts/e2e node e2e/journey.mjs
//
// Optional: AFTERHACK_API_KEY (put in sessionStorage before the app loads), BIG_WS (id of a
// workspace with ~2,000 nodes: logs render and click timings, never asserts on them),
// E2E_TIMEOUT_MS (default 30000; agent runs against a real model may need more).
// Exits non-zero with the failing step's name and a FAILED-*.png screenshot.
import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { CheckError as JourneyError, LAUNCH_ARGS, check, tid } from './lib.mjs'

const BASE_URL = (process.env.BASE_URL ?? '').replace(/\/$/, '')
const CHROMIUM_PATH = process.env.CHROMIUM_PATH
const ARTIFACTS_DIR = resolve(process.env.ARTIFACTS_DIR ?? 'test-artifacts/e2e')
const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS ?? 30000)
const API_KEY = process.env.AFTERHACK_API_KEY ?? ''
const BIG_WS = process.env.BIG_WS ?? ''

const SOURCE_TITLE = 'Launch plan'
const SOURCE_TEXT = 'The product launch is planned for June 12.'
const TASK = 'Plan the launch event'
const CORRECTED = 'The product launch is planned for July 15.'
const REVIEWER_ORIGIN = 'Workspace reviewer correction'

let page
let stepNo = 0

async function step(name, fn) {
  stepNo += 1
  const slug = `${String(stepNo).padStart(2, '0')}-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`
  const started = Date.now()
  process.stdout.write(`step ${stepNo}: ${name} … `)
  try {
    const result = await fn()
    await page.screenshot({ path: `${ARTIFACTS_DIR}/${slug}.png` })
    console.log(`ok (${Date.now() - started} ms)`)
    return result
  } catch (error) {
    console.log('FAILED')
    await page?.screenshot({ path: `${ARTIFACTS_DIR}/FAILED-${slug}.png` }).catch(() => {})
    throw new JourneyError(`step ${stepNo} "${name}": ${error.message}`)
  }
}

async function newPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } })
  if (API_KEY) {
    await context.addInitScript((key) => sessionStorage.setItem('afterhack.apiKey', key), API_KEY)
  }
  const p = await context.newPage()
  p.setDefaultTimeout(TIMEOUT)
  p.on('pageerror', (err) => console.log(`  [page error] ${err.message}`))
  p.on('console', (msg) => {
    if (msg.type() === 'error' || msg.text().startsWith('[afterhack]')) console.log(`  [console] ${msg.text()}`)
  })
  return p
}

/** The graph node of a kind with this id. */
const graphNode = (kind, id) => page.locator(`${tid(`node-${kind}`)}[data-node-id="${id}"]`)

async function journey() {
  await step('open the app', async () => {
    await page.goto(`${BASE_URL}/`)
    await page.locator(tid('app')).waitFor()
    check((await page.locator(tid('api-key-prompt')).count()) === 0, 'the server asks for an API key: set AFTERHACK_API_KEY')
  })

  const wsName = `e2e journey ${new Date().toISOString()}`
  const wsId = await step('create a workspace', async () => {
    await page.locator(tid('workspace-name-input')).fill(wsName)
    await page.locator(tid('workspace-create')).click()
    const current = page.locator(tid('workspace-current'))
    await current.filter({ hasText: wsName }).waitFor()
    const id = await current.getAttribute('data-id')
    check(id, 'no workspace id after create')
    return id
  })
  console.log(`  workspace ${wsId}`)

  const claimId = await step('add the launch plan source', async () => {
    await page.locator(tid('source-title')).fill(SOURCE_TITLE)
    await page.locator(tid('source-text')).fill(SOURCE_TEXT)
    await page.locator(tid('source-submit')).click()
    const result = page.locator(tid('source-result'))
    await result.waitFor()
    const ids = ((await result.getAttribute('data-claim-ids')) ?? '').split(' ').filter(Boolean)
    check(ids.length === 1, `expected one claim kept from one sentence, got ${ids.length}: ${await result.textContent()}`)
    const node = graphNode('claim', ids[0])
    await node.waitFor()
    check((await node.textContent()).includes('June 12'), `the claim node reads "${await node.textContent()}"`)
    return ids[0]
  })

  const { decisionId, actionId } = await step('ask the agent to plan the launch event', async () => {
    await page.locator(tid('tab-agent')).click()
    await page.locator(tid('ask-task')).fill(TASK)
    await page.locator(tid('ask-submit')).click()
    const run = page.locator(tid('run-view'))
    await run.waitFor()
    const handoffs = await run.locator(tid('handoff')).count()
    check(handoffs >= 1, 'the run shows no handoff trail')
    const counts = await run.locator(tid('handoff-retrieved')).evaluateAll((els) => els.map((e) => Number(e.dataset.count)))
    check(Math.max(0, ...counts) >= 1, 'no handoff shows a retrieved claim: a search hit alone is not evidence')
    const decisionLink = run.locator(`${tid('run-decision')} ${tid('link-decision')}`)
    await decisionLink.waitFor()
    const decision = await decisionLink.getAttribute('data-id')
    const actionLink = run.locator(`${tid('run-action')} ${tid('link-action')}`).first()
    check((await actionLink.count()) === 1, 'the run proposed no action ("Plan …" asks for one)')
    const action = await actionLink.getAttribute('data-id')
    await graphNode('decision', decision).waitFor()
    await graphNode('action', action).waitFor()
    return { decisionId: decision, actionId: action }
  })

  await step("open the claim's evidence", async () => {
    await graphNode('claim', claimId).click()
    const panel = page.locator(`${tid('evidence-panel')}[data-claim-id="${claimId}"]`)
    await panel.waitFor()
    const marks = panel.locator(`mark${tid('evidence-quote')}`)
    check((await marks.count()) === 1, `expected exactly one highlighted quote, got ${await marks.count()}`)
    const marked = (await marks.textContent()).trim()
    const quote = (await panel.locator(tid('claim-evidence-quote')).textContent()).trim()
    check(marked.includes('planned for June 12'), `highlight is "${marked}"`)
    check(marked === quote, `highlight "${marked}" differs from the claim's evidence quote "${quote}"`)
    const origin = await panel.locator(tid('evidence-origin')).textContent()
    check(origin.includes(SOURCE_TITLE), `origin is "${origin}"`)
    const kind = await panel.locator(tid('evidence-confidence-kind')).getAttribute('data-kind')
    check(kind === 'quote_match', `confidence kind is "${kind}"`)
    // Selecting the claim lights up what rests on it.
    await page.locator(`.react-flow__node.is-downstream ${tid('node-decision')}[data-node-id="${decisionId}"]`).waitFor()
  })

  await step('preview the correction on the graph', async () => {
    await page.locator(tid('correction-input')).fill(CORRECTED)
    await page.locator(tid('correction-preview')).click()
    const preview = page.locator(tid('preview-panel'))
    await preview.waitFor()
    await preview.locator(`${tid('preview-flagged')}[data-id="${decisionId}"]`).waitFor()
    await preview.locator(`${tid('preview-held')}[data-id="${actionId}"]`).waitFor()
    await graphNode('decision', decisionId).locator(tid('marker-flagged')).waitFor()
    await graphNode('action', actionId).locator(tid('marker-held')).waitFor()
  })

  const replacementId = await step('apply and compare before and after', async () => {
    const apply = page.locator(tid('correction-apply'))
    check(await apply.isEnabled(), 'Apply is disabled after a preview')
    await apply.click()
    const before = page.locator(tid('before-card'))
    const after = page.locator(tid('after-card'))
    await before.waitFor()
    await after.waitFor()
    const text = async (card, id) => (await card.locator(tid(id)).textContent()).trim()
    check((await text(before, 'card-statement')).includes('June 12'), 'before card does not show the old statement')
    check((await text(before, 'card-origin')).includes(SOURCE_TITLE), 'before card origin is not the document')
    check((await text(after, 'card-statement')).includes('July 15'), 'after card does not show the replacement')
    const afterQuote = await text(after, 'card-quote')
    check(afterQuote.includes('July 15') && !afterQuote.includes('June 12'), `after card quotes "${afterQuote}": the replacement must cite the reviewer, not the mistake`)
    check((await text(after, 'card-origin')) === REVIEWER_ORIGIN, `after card origin is "${await text(after, 'card-origin')}"`)
    check((await text(after, 'card-confidence-kind')) === 'human_correction', 'after card confidence kind is not human_correction')
    check((await before.getAttribute('data-claim-id')) === claimId, 'before card is not the corrected claim')
    await graphNode('decision', decisionId).and(page.locator('[data-status="needs_review"]')).waitFor()
    await graphNode('action', actionId).and(page.locator('[data-status="held"]')).waitFor()
    await graphNode('claim', claimId).and(page.locator('[data-status="superseded"]')).waitFor()
    return after.getAttribute('data-claim-id')
  })

  await step("open the replacement's evidence: the reviewer's correction", async () => {
    check(replacementId, 'the after card names no replacement claim')
    await graphNode('claim', replacementId).click()
    const panel = page.locator(`${tid('evidence-panel')}[data-claim-id="${replacementId}"]`)
    await panel.waitFor()
    const origin = (await panel.locator(tid('evidence-origin')).textContent()).trim()
    check(origin === REVIEWER_ORIGIN, `replacement origin is "${origin}"`)
    const originType = await panel.locator(tid('evidence-origin')).getAttribute('data-origin-type')
    check(originType === 'human_correction', `replacement origin type is "${originType}"`)
    const kind = await panel.locator(tid('evidence-confidence-kind')).getAttribute('data-kind')
    check(kind === 'human_correction', `replacement confidence kind is "${kind}"`)
    const marked = (await panel.locator(`mark${tid('evidence-quote')}`).textContent()).trim()
    check(marked.includes('July 15'), `replacement highlight is "${marked}"`)
  })
}

async function bigWorkspace(browser) {
  page = await newPage(browser)
  await step('render a ~2,000-node workspace', async () => {
    const started = Date.now()
    await page.goto(`${BASE_URL}/#ws=${encodeURIComponent(BIG_WS)}`)
    await page.locator('.react-flow__node').first().waitFor()
    const firstNodes = Date.now() - started
    const total = await page.locator(tid('graph')).getAttribute('data-nodes')
    const rendered = await page.locator('.react-flow__node').count()
    // Click a node nothing else (legend, minimap) covers.
    const id = await page.evaluate(() => {
      for (const el of document.querySelectorAll('.react-flow__node')) {
        const r = el.getBoundingClientRect()
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
        if (hit && el.contains(hit)) return el.getAttribute('data-id')
      }
      return null
    })
    check(id, 'no rendered node is clickable')
    const clickStarted = Date.now()
    await page.locator(`.react-flow__node[data-id="${id}"]`).click()
    await page.locator('.react-flow__node.is-selected').waitFor()
    const highlighted = Date.now() - clickStarted
    await page.locator(`${tid('detail-panel')} ${tid('detail-empty')}`).waitFor({ state: 'detached' })
    const panel = Date.now() - clickStarted
    // Logged, never asserted: timings depend on the machine.
    console.log(`  BIG_WS: ${total} nodes in the graph, ${rendered} rendered (only visible ones)`)
    console.log(`  BIG_WS: first .react-flow__node after ${firstNodes} ms`)
    console.log(`  BIG_WS: click → impact highlight ${highlighted} ms, → detail panel ${panel} ms`)
  })
}

async function main() {
  check(BASE_URL, 'set BASE_URL (e.g. http://127.0.0.1:8000)')
  check(CHROMIUM_PATH, 'set CHROMIUM_PATH to a Chromium binary (e.g. "$(command -v chromium)")')
  await mkdir(ARTIFACTS_DIR, { recursive: true })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS })
  try {
    page = await newPage(browser)
    await journey()
    if (BIG_WS) await bigWorkspace(browser)
  } finally {
    await browser.close()
  }
  console.log(`journey passed; screenshots in ${ARTIFACTS_DIR}`)
}

main().catch((error) => {
  console.error(`\nE2E FAILED: ${error instanceof JourneyError ? error.message : error.stack ?? error}`)
  process.exit(1)
})
