// Can a person read it? Opens workspaces at a laptop, a narrow window and a phone size and
// checks the first screen from the DOM, then corrects a claim at each size and checks the
// result is in view. Every check that fails is listed; a screenshot is kept for each screen.
//
//   BASE_URL=… CHROMIUM_PATH=… ARTIFACTS_DIR=… WORKSPACES='[{"id":…,"label":"40 nodes"}]' \
//   CORRECTIONS='[{"size":[1280,800],"claim_id":…,"search":…,"corrected":…}]' \
//   MISSING_WS=<an id no workspace has> node e2e/readable.mjs
import { mkdir, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { LAUNCH_ARGS, measureScreen, panelLeaks, showGraph, tid, wholeInView } from './lib.mjs'

const BASE_URL = (process.env.BASE_URL ?? '').replace(/\/$/, '')
const CHROMIUM_PATH = process.env.CHROMIUM_PATH
const ARTIFACTS_DIR = resolve(process.env.ARTIFACTS_DIR ?? 'test-artifacts/readable')
const WORKSPACES = JSON.parse(process.env.WORKSPACES ?? '[]')
const CORRECTIONS = JSON.parse(process.env.CORRECTIONS ?? '[]')
const MISSING_WS = process.env.MISSING_WS ?? ''
const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS ?? 30000)

export const SIZES = [
  [1280, 800],
  [800, 1000],
  [390, 844],
]
/** Smallest rendered text in a node at first load, in CSS px. */
const MIN_TEXT_PX = 11
/** Share of the window's width the canvas keeps at 1280 px. */
const MIN_CANVAS_SHARE = 0.6

const failures = []
const figures = []

function expect(ok, where, message) {
  if (!ok) failures.push(`${where}: ${message}`)
  return ok
}

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')

async function openPage(browser, [width, height]) {
  const context = await browser.newContext({ viewport: { width, height } })
  const page = await context.newPage()
  page.setDefaultTimeout(TIMEOUT)
  page.on('pageerror', (err) => failures.push(`page error at ${width}×${height}: ${err.message}`))
  return page
}

async function openWorkspace(page, id) {
  await page.goto(`${BASE_URL}/#ws=${encodeURIComponent(id)}`)
  await page.locator(tid('graph')).waitFor()
  // A phone opens on the list (e2e/firstscreen.mjs reads it): these checks are the graph's.
  await showGraph(page)
  await page.locator(`${tid('flow-pane')}[data-camera="first"]`).waitFor()
  await page.locator('.react-flow__node').first().waitFor()
  // Two frames: the viewport transform and the culled nodes settle.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
}

function checkScreen(m, where, [width]) {
  expect(m.scrollWidth <= m.clientWidth, where, `scrolls sideways: ${m.scrollWidth} px of content in ${m.clientWidth} px`)
  if (width === 1280) {
    expect(
      m.graphWidth >= MIN_CANVAS_SHARE * m.innerWidth && m.paneWidth >= MIN_CANVAS_SHARE * m.innerWidth,
      where,
      `the canvas is ${Math.round(m.paneWidth)} px (${Math.round((100 * m.paneWidth) / m.innerWidth)} %) of ${m.innerWidth} px`,
    )
  }
  expect(m.visibleNodes > 0, where, 'no node is on screen')
  expect(m.minTextPx !== null && m.minTextPx >= MIN_TEXT_PX, where, `node text smaller than ${MIN_TEXT_PX} px: ${m.smallest}`)
  expect(m.overlaps.length === 0, where, m.overlaps.slice(0, 5).join('; '))
  expect(
    m.key && m.key.left >= 0 && m.key.right <= m.innerWidth && m.key.bottom <= m.innerHeight && m.key.width > 0,
    where,
    `the API key button is off screen: ${JSON.stringify(m.key)}`,
  )
}

async function firstScreens(browser) {
  for (const ws of WORKSPACES) {
    for (const size of SIZES) {
      const where = `${ws.label} at ${size[0]}×${size[1]}`
      const page = await openPage(browser, size)
      try {
        await openWorkspace(page, ws.id)
        const m = await page.evaluate(measureScreen)
        checkScreen(m, where, size)
        figures.push(
          `${where}: ${m.visibleNodes} of ${m.totalNodes} laid-out nodes on screen, zoom ${m.zoom.toFixed(2)}, ` +
            `smallest node text ${m.minTextPx?.toFixed(1)} px, canvas ${Math.round(m.paneWidth)} px`,
        )
        await page.screenshot({ path: `${ARTIFACTS_DIR}/${slug(ws.label)}-${size[0]}x${size[1]}.png` })

        // The workspace menu opens inside the window, whatever its width.
        await page.locator(tid('workspace-current')).click()
        const menu = await page.evaluate(wholeInView, tid('workspace-menu'))
        expect(menu.ok, `${where}, workspace menu`, menu.why)
        await page.keyboard.press('Escape')
        await page.locator(tid('workspace-menu')).waitFor({ state: 'detached' })

        // Opened, the legend still sits beside the nodes, not on them; so does the map.
        await page.locator(`${tid('legend')} summary`).click()
        const toggle = page.locator(tid('map-toggle'))
        if (await toggle.isVisible()) {
          if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click()
          await page.locator('.react-flow__minimap').waitFor()
        }
        const open = await page.evaluate(measureScreen)
        expect(open.overlaps.length === 0, `${where}, legend and map open`, open.overlaps.slice(0, 5).join('; '))
        expect(open.scrollWidth <= open.clientWidth, `${where}, legend and map open`, 'scrolls sideways')
        await page.screenshot({ path: `${ARTIFACTS_DIR}/${slug(ws.label)}-${size[0]}x${size[1]}-legend-map.png` })
      } catch (error) {
        failures.push(`${where}: ${error.message}`)
        await page.screenshot({ path: `${ARTIFACTS_DIR}/FAILED-${slug(where)}.png` }).catch(() => {})
      } finally {
        await page.context().close()
      }
    }
  }
}

async function correct(browser, c) {
  const where = `correcting "${c.search}" at ${c.size[0]}×${c.size[1]}`
  const page = await openPage(browser, c.size)
  const shot = (name) => page.screenshot({ path: `${ARTIFACTS_DIR}/correct-${c.size[0]}x${c.size[1]}-${name}.png` })
  try {
    await openWorkspace(page, c.workspace)
    // Found with the search box: a folded claim unfolds and comes into view.
    await page.locator(tid('node-search')).fill(c.search)
    await page.locator(`${tid('search-hit')}[data-id="${c.claim_id}"]`).click()
    await page.locator(`${tid('evidence-panel')}[data-claim-id="${c.claim_id}"]`).waitFor()
    await page.locator(`.react-flow__node[data-id="${c.claim_id}"]`).waitFor()
    await page.locator(tid('correction-input')).fill(c.corrected)
    await page.locator(tid('correction-preview')).click()
    await page.locator(tid('preview-panel')).waitFor()
    const summary = c.nothing ? tid('preview-nothing') : tid('preview-summary')
    let seen = await page.evaluate(wholeInView, summary)
    expect(seen.ok, `${where}, preview`, seen.why)
    seen = await page.evaluate(wholeInView, tid('correction-apply'))
    expect(seen.ok, `${where}, preview`, `the apply button: ${seen.why}`)
    if (c.nothing) {
      const text = await page.locator(tid('preview-nothing')).innerText()
      expect(/Nothing depended on this claim/.test(text), `${where}, preview`, `says "${text}"`)
    }
    await shot('1-preview')

    await page.locator(tid('correction-apply')).click()
    await page.locator(tid('after-card')).waitFor()
    await page.locator(tid('outcome-summary')).waitFor()
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    for (const id of ['outcome-summary', 'before-card', 'after-card']) {
      seen = await page.evaluate(wholeInView, tid(id))
      expect(seen.ok, `${where}, after apply`, seen.why)
    }
    const outcome = await page.locator(tid('outcome-summary')).innerText()
    if (c.nothing) expect(/Nothing depended on this claim/.test(outcome), `${where}, after apply`, `says "${outcome}"`)
    else expect(/flagged|held|supported/.test(outcome), `${where}, after apply`, `says "${outcome}"`)
    const m = await page.evaluate(measureScreen)
    expect(m.scrollWidth <= m.clientWidth, `${where}, after apply`, 'scrolls sideways')
    const leaks = await page.evaluate(panelLeaks)
    expect(leaks.length === 0, `${where}, after apply`, leaks.join('; '))
    await shot('2-applied')

    // The reasons, in words: the outcome's details, then the flagged decision's own panel.
    if (c.expect_reasons?.length) {
      await page.locator(`${tid('outcome-details')} summary`).click()
      const details = await page.locator(tid('outcome-details')).innerText()
      for (const words of c.expect_reasons) expect(details.includes(words), `${where}, reasons`, `no "${words}" in: ${details}`)
      const flagged = page.locator(`${tid('outcome-details')} ${tid('preview-flagged')} ${tid('link-decision')}`).first()
      if ((await flagged.count()) > 0) {
        await flagged.click()
        const reason = page.locator(tid('decision-review-reason'))
        await reason.waitFor()
        const text = await reason.innerText()
        expect(text.includes(`a reviewer corrected “${c.search}`), `${where}, decision panel`, `says "${text}"`)
        const panelLeak = await page.evaluate(panelLeaks)
        expect(panelLeak.length === 0, `${where}, decision panel`, panelLeak.join('; '))
        await shot('3-decision')
      }
    }
    // Every panel shows the new state: the run that made a flagged decision says so too.
    if (c.run_task) {
      await page.locator(tid('tab-agent')).click()
      await page.locator(tid('runs-list')).getByText(c.run_task, { exact: true }).click()
      const run = page.locator(tid('run-decision'))
      await run.waitFor()
      const text = await run.innerText()
      expect(/needs review/.test(text), `${where}, run view`, `the run's decision reads "${text}"`)
      await shot('4-run')
    }
  } catch (error) {
    failures.push(`${where}: ${error.message}`)
    await page.screenshot({ path: `${ARTIFACTS_DIR}/FAILED-${slug(where)}.png` }).catch(() => {})
  } finally {
    await page.context().close()
  }
}

async function missingWorkspace(browser) {
  for (const size of SIZES) {
    const where = `unknown workspace at ${size[0]}×${size[1]}`
    const page = await openPage(browser, size)
    try {
      await page.goto(`${BASE_URL}/#ws=${encodeURIComponent(MISSING_WS)}`)
      await page.locator(tid('workspace-unknown')).waitFor()
      const text = await page.locator(tid('workspace-unknown')).innerText()
      expect(/does not exist/.test(text), where, `says "${text}"`)
      const current = await page.locator(tid('workspace-current')).innerText()
      expect(!current.includes(MISSING_WS), where, `the workspace menu shows the raw id: "${current}"`)
      const m = await page.evaluate(measureScreen)
      expect(m.scrollWidth <= m.clientWidth, where, 'scrolls sideways')
      await page.screenshot({ path: `${ARTIFACTS_DIR}/unknown-workspace-${size[0]}x${size[1]}.png` })
    } catch (error) {
      failures.push(`${where}: ${error.message}`)
    } finally {
      await page.context().close()
    }
  }
}

async function main() {
  if (!BASE_URL || !CHROMIUM_PATH) throw new Error('set BASE_URL and CHROMIUM_PATH')
  await mkdir(ARTIFACTS_DIR, { recursive: true })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS })
  try {
    await firstScreens(browser)
    for (const c of CORRECTIONS) await correct(browser, c)
    if (MISSING_WS) await missingWorkspace(browser)
  } finally {
    await browser.close()
  }
  for (const f of figures) console.log(f)
  await writeFile(`${ARTIFACTS_DIR}/figures.txt`, figures.join('\n') + '\n')
  if (failures.length) {
    console.error(`\n${failures.length} check(s) failed:\n- ${failures.join('\n- ')}`)
    process.exit(1)
  }
  console.log('every screen reads')
}

main().catch((error) => {
  console.error(error.stack ?? error)
  process.exit(1)
})
