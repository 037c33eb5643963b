// The two-memo story through the UI, at a laptop, a narrow window and a phone size: two
// memos disagree about the launch date, the graph and the conflicts panel say so, a run does
// not pick a side, a reviewer keeps June 19 (previewed on the graph), and what rested on
// June 12 is flagged; a fresh run cites June 19 only. Each size gets its own workspace,
// made through the UI. A screenshot per step; every failed check is listed.
//
//   BASE_URL=… CHROMIUM_PATH=… ARTIFACTS_DIR=… [SIZES='[[1280,800],[390,844]]'] \
//   node e2e/conflicts.mjs
import { mkdir, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { check, LAUNCH_ARGS, measureScreen, panelLeaks, settle, showGraph, stepper, tid, wholeInView } from './lib.mjs'

const BASE_URL = (process.env.BASE_URL ?? '').replace(/\/$/, '')
const CHROMIUM_PATH = process.env.CHROMIUM_PATH
const ARTIFACTS_DIR = resolve(process.env.ARTIFACTS_DIR ?? 'test-artifacts/conflicts')
const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS ?? 30000)
const SIZES = JSON.parse(process.env.SIZES ?? '[[1280,800],[800,1000],[390,844]]')

// The texts `afterhack demo` tells the story with (src/afterhack/demo.py).
const MARCH_MEMO =
  'Launch planning, March. The product launch is planned for June 12. The launch venue is the Grand Hotel.'
const APRIL_MEMO = 'Launch update, April. The launch moves to June 19. The keynote speaker is Maria Lopez.'
const JUNE_12 = 'The product launch is planned for June 12.'
const JUNE_19 = 'The launch moves to June 19.'
const PLAN_TASK = 'Plan the launch event'
const QUESTION = 'When is the launch?'
const MIN_TEXT_PX = 11
/** "today at 14:20", "yesterday at …", "on 3 March …": a date in words, never a timestamp. */
const DATE_WORDS = /added (today at|yesterday at|on \d{1,2} [A-Z][a-z]+)/

const failures = []
const figures = []

async function openPage(browser, [width, height]) {
  const context = await browser.newContext({ viewport: { width, height } })
  const page = await context.newPage()
  page.setDefaultTimeout(TIMEOUT)
  page.on('pageerror', (err) => failures.push(`page error at ${width}×${height}: ${err.message}`))
  return page
}


/** Runs in the page: the conflict chips ("≠") that sit on a node box. */
function chipsOnNodes() {
  const box = (el) => el.getBoundingClientRect()
  const hit = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5
  const out = []
  for (const chip of document.querySelectorAll('[data-testid="conflict-edge"]')) {
    for (const node of document.querySelectorAll('.react-flow__node')) {
      if (hit(box(chip), box(node))) out.push(`the conflict's ≠ covers node ${node.getAttribute('data-id')}`)
    }
  }
  return out
}

/** Runs in the page: are the two sides of the shown conflict side by side (same row)? */
function sidesSideBySide() {
  const sides = [...document.querySelectorAll('[data-testid="conflicts-panel"] [data-testid="conflict"] [data-testid="conflict-side"]')]
  if (sides.length !== 2) return { ok: false, why: `${sides.length} sides shown` }
  const [a, b] = sides.map((s) => s.getBoundingClientRect())
  return { ok: Math.abs(a.top - b.top) < 2 && a.right <= b.left + 1, why: `sides at ${Math.round(a.left)},${Math.round(a.top)} and ${Math.round(b.left)},${Math.round(b.top)}` }
}

async function story(browser, size) {
  const label = `${size[0]}x${size[1]}`
  const page = await openPage(browser, size)
  const step = stepper(page, label, ARTIFACTS_DIR)
  /** A soft check: listed at the end, the story goes on. */
  const expect = (ok, where, message) => {
    if (!ok) failures.push(`${label}, ${where}: ${message}`)
    return ok
  }
  const node = (kind, id) => page.locator(`${tid(`node-${kind}`)}[data-node-id="${id}"]`)
  const claimNode = (words) => page.locator(tid('node-claim')).filter({ hasText: words })
  const panel = page.locator(tid('conflicts-panel'))
  const inView = async (where, selector) => {
    const seen = await page.evaluate(wholeInView, selector)
    expect(seen.ok, where, seen.why)
  }
  const noLeaks = async (where) => {
    const leaks = await page.evaluate(panelLeaks)
    expect(leaks.length === 0, where, leaks.join('; '))
  }
  /** An attribute of what is on the page now, or null when nothing matches (no waiting). */
  const attr = async (selector, name) => {
    const el = page.locator(selector)
    return (await el.count()) > 0 ? el.first().getAttribute(name) : null
  }
  const ask = async (task) => {
    await page.locator(tid('tab-agent')).click()
    const before = await attr(tid('run-view'), 'data-run-id')
    await page.locator(tid('ask-task')).fill(task)
    await page.locator(tid('ask-submit')).click()
    const run = page.locator(`${tid('run-view')}:not([data-run-id="${before ?? ''}"])`)
    await run.waitFor()
    return run
  }
  const addSource = async (title, text) => {
    await page.locator(tid('tab-sources')).click()
    await page.locator(tid('source-title')).fill(title)
    await page.locator(tid('source-text')).fill(text)
    const before = await attr(tid('source-result'), 'data-claim-ids')
    await page.locator(tid('source-submit')).click()
    await page.locator(`${tid('source-result')}:not([data-claim-ids="${before ?? ''}"])`).waitFor()
  }

  try {
    await step('create a workspace', async () => {
      await page.goto(`${BASE_URL}/`)
      await page.locator(tid('workspace-name-input')).fill(`two memos ${label}`)
      await page.locator(tid('workspace-create')).click()
      await page.locator(tid('workspace-current')).filter({ hasText: `two memos ${label}` }).waitFor()
      await showGraph(page)
    })

    const june12 = await step('the March memo', async () => {
      await addSource('March memo', MARCH_MEMO)
      const claim = claimNode('June 12')
      await claim.waitFor()
      return claim.getAttribute('data-node-id')
    })

    const { plan, action } = await step('plan the launch from it', async () => {
      const run = await ask(PLAN_TASK)
      const decision = await run.locator(`${tid('run-decision')} ${tid('link-decision')}`).getAttribute('data-id')
      const act = run.locator(`${tid('run-action')} ${tid('link-action')}`)
      check((await act.count()) === 1, `the plan proposed ${await act.count()} actions, expected one`)
      return { plan: decision, action: await act.getAttribute('data-id') }
    })

    const { june19, conflictId } = await step('the April memo: a dashed edge joins the two dates', async () => {
      await addSource('April memo', APRIL_MEMO)
      const badge = page.locator(`${tid('tab-conflicts')} .tab-badge`)
      await badge.filter({ hasText: '1' }).waitFor()
      // The April claim nothing uses yet is in the conflict: it is not folded away.
      const claim = claimNode('June 19')
      await claim.waitFor()
      const id = await claim.getAttribute('data-node-id')
      const edge = page.locator('.react-flow__edge.edge-conflicts')
      await edge.waitFor()
      const dashes = await edge.locator('path.react-flow__edge-path').evaluate((p) => getComputedStyle(p).strokeDasharray)
      check(dashes && dashes !== 'none', `the conflict edge is drawn solid (stroke-dasharray ${dashes})`)
      const chip = page.locator(tid('conflict-edge'))
      await chip.waitFor()
      const conflict = await chip.getAttribute('data-id')
      check(conflict, 'the conflict edge names no conflict')
      if (size[0] >= 1024) {
        const onScreen = await chip.evaluate((el) => {
          const r = el.getBoundingClientRect()
          const p = document.querySelector('[data-testid="flow-pane"]').getBoundingClientRect()
          return r.left >= p.left && r.right <= p.right && r.top >= p.top && r.bottom <= p.bottom
        })
        check(onScreen, 'the conflict edge is off screen on the first view of a laptop')
      }
      // The edge runs between the two claims: its ends are on them.
      const ends = await page.evaluate(
        ([a, b]) => {
          const path = document.querySelector('.react-flow__edge.edge-conflicts path.react-flow__edge-path')
          const len = path.getTotalLength()
          const m = path.getScreenCTM()
          const at = (t) => new DOMPoint(path.getPointAtLength(t).x, path.getPointAtLength(t).y).matrixTransform(m)
          const near = (pt, id) => {
            const r = document.querySelector(`.react-flow__node[data-id="${id}"]`).getBoundingClientRect()
            return pt.x >= r.left - 3 && pt.x <= r.right + 3 && pt.y >= r.top - 3 && pt.y <= r.bottom + 3
          }
          const [s, e] = [at(0), at(len)]
          return (near(s, a) && near(e, b)) || (near(s, b) && near(e, a))
        },
        [june12, id],
      )
      check(ends, 'the dashed edge does not run between the June 12 and June 19 claims')
      const m = await page.evaluate(measureScreen)
      expect(m.scrollWidth <= m.clientWidth, 'first screen with a conflict', `scrolls sideways: ${m.scrollWidth} in ${m.clientWidth}`)
      expect(m.minTextPx !== null && m.minTextPx >= MIN_TEXT_PX, 'first screen with a conflict', `node text below ${MIN_TEXT_PX} px: ${m.smallest}`)
      expect(m.overlaps.length === 0, 'first screen with a conflict', m.overlaps.join('; '))
      const chips = await page.evaluate(chipsOnNodes)
      expect(chips.length === 0, 'first screen with a conflict', chips.join('; '))
      figures.push(`${label}: ${m.visibleNodes} nodes on screen, smallest node text ${m.minTextPx?.toFixed(1)} px, zoom ${m.zoom.toFixed(2)}`)
      return { june19: id, conflictId: conflict }
    })

    await step('the conflicts panel: both quotes side by side, sources and dates in words', async () => {
      // The claim says it is disputed, and by what.
      await node('claim', june19).click()
      const note = page.locator(tid('claim-conflicts'))
      await note.waitFor()
      const said = await note.innerText()
      check(said.includes(`Against it: “${JUNE_12}” from March memo`), `the claim's note reads "${said}"`)
      // Into the conflict: by the ≠ on the edge on a wide window, from the claim's note on a narrow one.
      const chip = page.locator(tid('conflict-edge'))
      const wide = size[0] >= 1024
      if (wide) await chip.click()
      else await note.locator(`${tid('review-conflict')}[data-id="${conflictId}"]`).click()
      await page.locator(`${tid('tab-conflicts')}[aria-selected="true"]`).waitFor()
      const card = panel.locator(`${tid('conflict')}[data-id="${conflictId}"]`)
      await card.waitFor()
      // The panel marks it in the render after the one that shows the list, so wait for it.
      const singled = await panel.locator(`${tid('conflict')}.is-focused[data-id="${conflictId}"]`)
        .waitFor({ timeout: 5000 }).then(() => true, () => false)
      check(singled, 'the conflict asked for is not singled out')
      const quotes = await card.locator(tid('conflict-quote')).allInnerTexts()
      check(quotes.length === 2, `${quotes.length} quotes shown`)
      check(quotes.some((q) => q.includes(JUNE_12)) && quotes.some((q) => q.includes(JUNE_19)), `quotes: ${quotes.join(' | ')}`)
      const origins = await card.locator(tid('conflict-origin')).allInnerTexts()
      check(origins.some((o) => o.startsWith('March memo')) && origins.some((o) => o.startsWith('April memo')), `origins: ${origins.join(' | ')}`)
      for (const o of origins) check(DATE_WORDS.test(o), `no date in words in "${o}"`)
      const beside = await page.evaluate(sidesSideBySide)
      expect(beside.ok, 'conflicts panel', `the two quotes are not side by side: ${beside.why}`)
      // The choices are in reach: keep either side; dismiss too where the panel is beside the graph.
      for (const keep of await card.locator(tid('conflict-keep')).evaluateAll((els) => els.map((e) => e.dataset.claimId))) {
        await inView('conflicts panel', `${tid('conflict')}[data-id="${conflictId}"] ${tid('conflict-keep')}[data-claim-id="${keep}"]`)
      }
      if (size[0] >= 1024) await inView('conflicts panel', `${tid('conflict')}[data-id="${conflictId}"] ${tid('conflict-dismiss')}`)
      await noLeaks('conflicts panel')
    })

    const question = await step('ask when the launch is: the run does not pick a side', async () => {
      const run = await ask(QUESTION)
      const decision = run.locator(`${tid('run-decision')}`)
      await decision.waitFor()
      check(/needs review/.test(await decision.innerText()), `the run's decision reads "${await decision.innerText()}"`)
      check((await run.locator(tid('run-action')).count()) === 0, 'the run proposed an action from a disputed fact')
      const id = await decision.locator(tid('link-decision')).getAttribute('data-id')
      await decision.locator(tid('link-decision')).click()
      const reason = page.locator(tid('decision-review-reason'))
      await reason.waitFor()
      check((await reason.getAttribute('data-type')) === 'sources_disagree', `review reason ${await reason.getAttribute('data-type')}`)
      const text = await reason.innerText()
      check(text.includes('did not pick a side'), `the reason reads "${text}"`)
      check(text.includes(`“${JUNE_12}” from March memo`) && text.includes(`“${JUNE_19}” from April memo`), `the reason reads "${text}"`)
      const cited = await page.locator(tid('premise-claim')).evaluateAll((els) => els.map((e) => e.dataset.id))
      check(cited.includes(june12) && cited.includes(june19), 'the decision does not cite both sides')
      await noLeaks('decision panel')
      return id
    })

    await step('keep June 19: the preview is drawn on the graph', async () => {
      // From the decision's reason straight to its conflict.
      await page.locator(`${tid('review-conflict')}[data-id="${conflictId}"]`).click()
      await page.locator(`${tid('tab-conflicts')}[aria-selected="true"]`).waitFor()
      await panel.locator(`${tid('conflict-keep')}[data-claim-id="${june19}"]`).click()
      const preview = panel.locator(`${tid('resolution-preview')}[data-resolution="keep"]`)
      await preview.waitFor()
      const summary = await preview.locator(tid('resolution-summary')).innerText()
      check(summary === `“${JUNE_12}” from March memo will be superseded by “${JUNE_19}” from April memo.`, `summary "${summary}"`)
      await preview.locator(`${tid('preview-flagged')}[data-id="${plan}"]`).waitFor()
      await preview.locator(`${tid('preview-held')}[data-id="${action}"]`).waitFor()
      const reasons = await preview.locator(tid('reason')).allInnerTexts()
      check(reasons.some((r) => r.includes(`loses its last claim: “${JUNE_12}” from March memo`)), `reasons: ${reasons.join(' | ')}`)
      // A phone's pane cannot hold all four at a readable zoom: the reader fits the graph.
      if (size[0] < 800) await page.locator(tid('zoom-fit')).click()
      for (const [kind, id, mark] of [
        ['claim', june12, 'supersede'],
        ['claim', june19, 'kept'],
        ['decision', plan, 'flagged'],
        ['action', action, 'held'],
      ]) {
        await node(kind, id).and(page.locator(`[data-mark="${mark}"]`)).waitFor()
      }
      const banner = await page.locator(tid('resolution-banner-text')).innerText()
      check(
        banner === `Previewing keeping “${JUNE_19}” from April memo: 1 decision will be flagged for review, 1 action will be held.`,
        `the strip says "${banner}"`,
      )
      await inView('preview', `${tid('conflicts-panel')} ${tid('resolution-summary')}`)
      await inView('preview', `${tid('conflicts-panel')} ${tid('conflict-apply')}`)
      await noLeaks('preview')
    })

    await step('apply: June 12 is superseded, the plan flagged, its action held', async () => {
      await panel.locator(tid('conflict-apply')).click()
      const outcome = panel.locator(tid('conflict-outcome'))
      await outcome.waitFor()
      await outcome.locator(tid('after-card')).waitFor()
      await settle(page)
      for (const id of ['outcome-summary', 'before-card', 'after-card']) await inView('after apply', `${tid('conflicts-panel')} ${tid(id)}`)
      const said = await outcome.locator(tid('outcome-summary')).innerText()
      check(said === '1 decision was flagged for review, 1 action was held.', `the outcome reads "${said}"`)
      const claims = (await outcome.locator(tid('outcome-claims')).textContent()).trim()
      check(claims === `“${JUNE_12}” from March memo was superseded by “${JUNE_19}” from April memo.`, `the outcome says "${claims}"`)
      check((await outcome.locator(tid('before-card')).getAttribute('data-claim-id')) === june12, 'the before card is not June 12')
      check((await outcome.locator(tid('after-card')).getAttribute('data-claim-id')) === june19, 'the kept card is not June 19')
      await node('claim', june12).and(page.locator('[data-status="superseded"]')).waitFor()
      await node('decision', plan).and(page.locator('[data-status="needs_review"]')).waitFor()
      await node('action', action).and(page.locator('[data-status="held"]')).waitFor()
      await page.locator('.react-flow__edge.edge-conflicts').waitFor({ state: 'detached' })
      await panel.locator(tid('conflicts-empty')).waitFor()
      check((await page.locator(`${tid('tab-conflicts')} .tab-badge`).count()) === 0, 'the conflicts tab still counts an open conflict')
      const m = await page.evaluate(measureScreen)
      expect(m.scrollWidth <= m.clientWidth, 'after apply', 'scrolls sideways')
      await noLeaks('after apply')
    })

    await step('the plan says why it fell, in words', async () => {
      await node('decision', plan).click()
      const reason = page.locator(tid('decision-review-reason'))
      await reason.waitFor()
      check((await reason.getAttribute('data-type')) === 'conflict_resolved', `review reason ${await reason.getAttribute('data-type')}`)
      const text = await reason.innerText()
      check(
        text.includes(`a reviewer kept “${JUNE_19}” from April memo over “${JUNE_12}” from March memo`),
        `the plan's reason reads "${text}"`,
      )
      check(text.includes(`lost its last claim: “${JUNE_12}” from March memo`), `the plan's reason reads "${text}"`)
      await noLeaks('the flagged plan')
    })

    await step('a fresh run cites June 19 only', async () => {
      const run = await ask(QUESTION)
      const decision = run.locator(tid('run-decision'))
      await decision.waitFor()
      check(!/needs review/.test(await decision.innerText()), `the fresh run's decision reads "${await decision.innerText()}"`)
      const id = await decision.locator(tid('link-decision')).getAttribute('data-id')
      check(id !== question, 'the fresh run shows the old decision')
      await decision.locator(tid('link-decision')).click()
      await page.locator(`${tid('premise-claim')}[data-id="${june19}"]`).waitFor()
      const cited = await page.locator(tid('premise-claim')).evaluateAll((els) => els.map((e) => e.dataset.id))
      check(cited.includes(june19), `the fresh decision does not cite June 19: ${cited.join(', ')}`)
      check(!cited.includes(june12), 'the fresh decision still cites June 12')
    })
  } catch (error) {
    failures.push(error.message)
  } finally {
    await page.context().close()
  }
}

async function main() {
  if (!BASE_URL || !CHROMIUM_PATH) throw new Error('set BASE_URL and CHROMIUM_PATH')
  await mkdir(ARTIFACTS_DIR, { recursive: true })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS })
  try {
    for (const size of SIZES) await story(browser, size)
  } finally {
    await browser.close()
  }
  for (const f of figures) console.log(f)
  await writeFile(`${ARTIFACTS_DIR}/figures.txt`, figures.join('\n') + '\n')
  if (failures.length) {
    console.error(`\n${failures.length} check(s) failed:\n- ${failures.join('\n- ')}`)
    process.exit(1)
  }
  console.log('the two-memo story reads at every size')
}

main().catch((error) => {
  console.error(error.stack ?? error)
  process.exit(1)
})
