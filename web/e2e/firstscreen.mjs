// A new user's first screens, from the DOM: at 1280×800 every node drawn is whole inside the
// canvas (a workspace with corrections, one with an open conflict too); at 800×1000 the canvas
// keeps at least half the height, a node selected included; at 390×844 the memory reads as a
// list of decisions → premises → claims with their quotes, in type people read. Two decisions
// from the same question are told apart (the graph, the search box, the runs list, a panel,
// the list); each search hit says how it was found (by its words, its meaning, both, or next
// to a hit); a moment in the past reads the same in the graph and the Conflicts tab; a
// workspace over the graph's limit says how much is drawn out of how much and how to narrow
// it. Every failed check is listed; a screenshot of each screen is kept.
//
//   BASE_URL=… CHROMIUM_PATH=… ARTIFACTS_DIR=… STORY='{"question":…,"corrections":{…},
//   "conflict":{…},"history":{…},"big":{…}}' node e2e/firstscreen.mjs
import { mkdir, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { LAUNCH_ARGS, measureScreen, settle, showGraph, tid } from './lib.mjs'

const BASE_URL = (process.env.BASE_URL ?? '').replace(/\/$/, '')
const CHROMIUM_PATH = process.env.CHROMIUM_PATH
const ARTIFACTS_DIR = resolve(process.env.ARTIFACTS_DIR ?? 'test-artifacts/firstscreen')
const STORY = JSON.parse(process.env.STORY ?? '{}')
const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS ?? 30000)
/** Node text on the graph, font size × zoom, in CSS px. */
const MIN_NODE_TEXT_PX = 11
/** Words and quotes in the phone's list, in CSS px. */
const MIN_LIST_TEXT_PX = 12

const failures = []
const figures = []
const expect = (ok, where, message) => {
  if (!ok) failures.push(`${where}: ${message}`)
  return ok
}

async function openPage(browser, [width, height]) {
  const context = await browser.newContext({ viewport: { width, height } })
  const page = await context.newPage()
  page.setDefaultTimeout(TIMEOUT)
  page.on('pageerror', (err) => failures.push(`page error at ${width}×${height}: ${err.message}`))
  return page
}

async function openWorkspace(page, id, { graph = true } = {}) {
  await page.goto(`${BASE_URL}/#ws=${encodeURIComponent(id)}`)
  await page.locator(`${tid('graph')}:not([data-nodes="0"])`).waitFor({ state: 'attached' })
  if (graph) {
    await showGraph(page)
    await page.locator(`${tid('flow-pane')}[data-camera="first"]`).waitFor()
    await page.locator('.react-flow__node').first().waitFor()
  }
  await settle(page)
}

/** Runs in the page: every node laid out is drawn, whole inside the canvas pane. */
function nodesInPane() {
  const pane = document.querySelector('[data-testid="flow-pane"]').getBoundingClientRect()
  const laidOut = Number(document.querySelector('[data-testid="graph"]').getAttribute('data-nodes'))
  const outside = []
  const drawn = [...document.querySelectorAll('.react-flow__node')]
  for (const el of drawn) {
    const r = el.getBoundingClientRect()
    if (r.left < pane.left - 0.5 || r.top < pane.top - 0.5 || r.right > pane.right + 0.5 || r.bottom > pane.bottom + 0.5) {
      const text = el.innerText.replace(/\s+/g, ' ').slice(0, 40)
      outside.push(`"${text}" at [${Math.round(r.left)},${Math.round(r.top)} → ${Math.round(r.right)},${Math.round(r.bottom)}]`)
    }
  }
  return {
    laidOut,
    drawn: drawn.length,
    outside,
    pane: [Math.round(pane.left), Math.round(pane.top), Math.round(pane.right), Math.round(pane.bottom)],
  }
}

/** Runs in the page: the heights that share the window under the top bar. */
function heights() {
  const h = (sel) => {
    const el = document.querySelector(sel)
    return el && !el.hidden ? el.getBoundingClientRect().height : 0
  }
  return {
    window: window.innerHeight,
    graph: h('[data-testid="graph"]'),
    pane: h('[data-testid="flow-pane"]'),
    side: h('[data-testid="side-panel"]'),
  }
}

/** Runs in the page: the list's claims and quotes, each readable (size) and whole (not clipped). */
function listReadable({ decisionId, minPx }) {
  const list = document.querySelector('[data-testid="memory-list"]')
  const box = list.getBoundingClientRect()
  const card = list.querySelector(`[data-testid="ml-decision"][data-id="${decisionId}"]`)
  const items = [...card.querySelectorAll('[data-testid="ml-title"], [data-testid="ml-claim"], [data-testid="ml-claim"] > .link, [data-testid="ml-quote"]')]
  const problems = []
  let smallest = Infinity
  for (const el of items) {
    const r = el.getBoundingClientRect()
    const style = getComputedStyle(el)
    const px = parseFloat(style.fontSize)
    smallest = Math.min(smallest, px)
    const text = el.innerText.replace(/\s+/g, ' ').slice(0, 50)
    if (px < minPx) problems.push(`"${text}" is ${px} px`)
    // An inline link has no scroll box of its own: its block (the claim) is checked for it.
    if (style.display !== 'inline' && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) problems.push(`"${text}" is clipped`)
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.right > window.innerWidth + 0.5) problems.push(`"${text}" runs past the list`)
    if (style.textOverflow === 'ellipsis' || /-webkit-box/.test(style.display)) problems.push(`"${text}" is cut short`)
  }
  return {
    claims: card.querySelectorAll('[data-testid="ml-claim"]').length,
    quotes: [...card.querySelectorAll('[data-testid="ml-quote"]')].map((q) => q.innerText.replace(/\s+/g, ' ')),
    problems,
    smallest,
  }
}

/** The search box's hits for words, once the server's search has answered (a hit it found by
 * meaning is listed). */
async function searchHits(page, words, wanted) {
  await page.locator(tid('node-search')).fill(words)
  await page.locator(`${tid('search-hit-how')}[data-how="${wanted}"]`).first().waitFor()
  return page.locator(tid('search-hit')).evaluateAll((els) =>
    els.map((e) => ({ text: e.innerText.replace(/\s+/g, ' '), how: e.querySelector('[data-testid="search-hit-how"]')?.dataset.how ?? null })),
  )
}

async function searchSaysHow(page, where) {
  const said = (hits) => hits.map((h) => `${h.text} [${h.how}]`).join(' | ')
  const known = new Set(['words', 'meaning', 'both', 'neighbour'])
  const speaker = await searchHits(page, 'keynote speaker', 'both')
  expect(speaker.every((h) => known.has(h.how)), where, `a hit without how it was found: ${said(speaker)}`)
  // The claim (its correction's card says the same words, found by them alone).
  const keynote = speaker.filter((h) => h.text.includes('The keynote speaker is Maria Lopez.') && h.how === 'both')
  expect(keynote.length === 1 && keynote[0].text.includes('by words and meaning'), where, `the keynote claim's hit: ${said(speaker)}`)
  const cost = await searchHits(page, 'how much does it cost', 'meaning')
  const budget = cost.find((h) => h.text.includes('The event budget is 45,000 euros.'))
  expect(budget?.how === 'meaning' && budget.text.includes('by meaning'), where, `the budget claim's hit: ${said(cost)}`)
  figures.push(`${where}: "keynote speaker" finds ${said(speaker)}; "how much does it cost" finds ${said(cost)}`)
}

async function laptop(browser, ws, label) {
  const where = `${label} at 1280×800`
  const page = await openPage(browser, [1280, 800])
  try {
    await openWorkspace(page, ws.id)
    const seen = await page.evaluate(nodesInPane)
    expect(seen.drawn === seen.laidOut, where, `${seen.drawn} of ${seen.laidOut} nodes drawn: the others are out of view`)
    expect(seen.outside.length === 0, where, `nodes not whole inside the canvas ${JSON.stringify(seen.pane)}: ${seen.outside.join('; ')}`)
    const m = await page.evaluate(measureScreen)
    expect(m.minTextPx !== null && m.minTextPx >= MIN_NODE_TEXT_PX, where, `node text smaller than ${MIN_NODE_TEXT_PX} px: ${m.smallest}`)
    expect(m.scrollWidth <= m.clientWidth, where, 'scrolls sideways')
    figures.push(`${where}: ${seen.drawn} of ${seen.laidOut} nodes whole in the canvas ${JSON.stringify(seen.pane)}, zoom ${m.zoom.toFixed(2)}, smallest node text ${m.minTextPx?.toFixed(1)} px`)
    if (ws.conflict_id) {
      expect((await page.locator(`${tid('conflict-edge')}[data-id="${ws.conflict_id}"]`).count()) === 1, where, 'the open conflict is not drawn')
    }
    await page.screenshot({ path: `${ARTIFACTS_DIR}/${label}-1280x800.png` })

    // The same question asked twice: two cards told apart by when and which, the question whole.
    const cards = []
    for (const id of ws.decisions) {
      const node = page.locator(`${tid('node-decision')}[data-node-id="${id}"]`)
      cards.push({ title: await node.getAttribute('title'), asked: await node.locator(tid('decision-asked')).innerText() })
    }
    expect(cards.every((c) => c.title === STORY.question), where, `the cards' titles: ${cards.map((c) => c.title).join(' | ')}`)
    expect(
      cards[0].asked !== cards[1].asked && /1st of 2$/.test(cards[0].asked) && /2nd of 2$/.test(cards[1].asked),
      where,
      `the two cards read "${cards[0].asked}" and "${cards[1].asked}"`,
    )
    figures.push(`${where}: the two decisions read "${cards[0].asked}" and "${cards[1].asked}"`)
    // …in the search box,
    await page.locator(tid('node-search')).fill('press release')
    const hits = await page.locator(`${tid('search-hit')}`).evaluateAll((els) => els.map((e) => e.innerText.replace(/\s+/g, ' ')))
    const asked = hits.filter((h) => h.includes(STORY.question))
    expect(asked.length === 2 && asked[0] !== asked[1], where, `search hits: ${hits.join(' | ')}`)
    // Each search hit says how it was found: a claim holding the words typed by its words, one
    // the server's search finds by meaning alone as such.
    await searchSaysHow(page, where)
    await page.locator(tid('node-search')).fill('')
    // …in each one's panel,
    const panels = []
    for (const id of ws.decisions) {
      await page.locator(`.react-flow__node[data-id="${id}"]`).click()
      await page.locator(`${tid('decision-panel')}`).waitFor()
      await page.locator(`${tid('decision-panel')} h2`).filter({ hasText: STORY.question }).waitFor()
      panels.push(await page.locator(tid('decision-when')).innerText())
    }
    expect(panels[0] !== panels[1] && panels.every((p) => /^decided .* of 2$/.test(p)), where, `the panels say "${panels.join('" and "')}"`)
    // …and in the runs list.
    await page.locator(tid('tab-agent')).click()
    const runs = await page.locator(`${tid('runs-list')} li`).evaluateAll((els) => els.map((e) => e.innerText.replace(/\s+/g, ' ')))
    const twice = runs.filter((r) => r.includes(STORY.question))
    expect(twice.length === 2 && twice[0] !== twice[1], where, `runs: ${runs.join(' | ')}`)
    await page.screenshot({ path: `${ARTIFACTS_DIR}/${label}-1280x800-runs.png` })
  } catch (error) {
    failures.push(`${where}: ${error.message}`)
    await page.screenshot({ path: `${ARTIFACTS_DIR}/FAILED-${label}-1280x800.png` }).catch(() => {})
  } finally {
    await page.context().close()
  }
}

async function narrow(browser, ws, label) {
  const where = `${label} at 800×1000`
  const page = await openPage(browser, [800, 1000])
  try {
    await openWorkspace(page, ws.id)
    let h = await page.evaluate(heights)
    expect(h.pane >= h.window / 2, where, `the canvas is ${Math.round(h.pane)} px of ${h.window} px (the side panel ${Math.round(h.side)} px)`)
    const seen = await page.evaluate(nodesInPane)
    expect(seen.outside.length === 0, where, `nodes cut at the canvas's edge: ${seen.outside.join('; ')}`)
    figures.push(`${where}: canvas ${Math.round(h.pane)} px of ${h.window} px, side panel ${Math.round(h.side)} px, ${seen.drawn} of ${seen.laidOut} nodes whole in view`)
    await page.screenshot({ path: `${ARTIFACTS_DIR}/${label}-800x1000.png` })

    // A node selected: the panel opens under the graph, which keeps half and the node in view.
    const id = ws.decisions[1]
    await page.locator(`.react-flow__node[data-id="${id}"]`).click()
    await page.locator(tid('decision-panel')).waitFor()
    await settle(page)
    await settle(page)
    h = await page.evaluate(heights)
    expect(h.graph >= h.window / 2, where, `with a node selected the graph is ${Math.round(h.graph)} px of ${h.window} px`)
    const node = await page.evaluate((nid) => {
      const pane = document.querySelector('[data-testid="flow-pane"]').getBoundingClientRect()
      const r = document.querySelector(`.react-flow__node[data-id="${nid}"]`)?.getBoundingClientRect()
      return r && r.top >= pane.top - 0.5 && r.bottom <= pane.bottom + 0.5 && r.left >= pane.left - 0.5 && r.right <= pane.right + 0.5
    }, id)
    expect(node, where, 'the selected node went out of view when the panel opened')
    figures.push(`${where}, a decision selected: graph ${Math.round(h.graph)} px, canvas ${Math.round(h.pane)} px, side panel ${Math.round(h.side)} px`)
    await page.screenshot({ path: `${ARTIFACTS_DIR}/${label}-800x1000-selected.png` })
  } catch (error) {
    failures.push(`${where}: ${error.message}`)
    await page.screenshot({ path: `${ARTIFACTS_DIR}/FAILED-${label}-800x1000.png` }).catch(() => {})
  } finally {
    await page.context().close()
  }
}

async function phone(browser, ws, label) {
  const where = `${label} at 390×844`
  const page = await openPage(browser, [390, 844])
  try {
    await openWorkspace(page, ws.id, { graph: false })
    await page.locator(`${tid('graph')}[data-mode="list"]`).waitFor()
    await page.locator(tid('memory-list')).waitFor()
    const h = await page.evaluate(heights)
    expect(h.side <= h.window / 4, where, `the side panel takes ${Math.round(h.side)} px of ${h.window} px with nothing selected`)
    const m = await page.evaluate(measureScreen)
    expect(m.scrollWidth <= m.clientWidth, where, 'scrolls sideways')

    // Newest first and open: the second asking of the question, its claims and their quotes.
    const [older, newer] = ws.decisions
    const card = (id) => page.locator(`${tid('ml-decision')}[data-id="${id}"]`)
    await card(newer).locator(tid('ml-quote')).first().waitFor()
    let read = await page.evaluate(listReadable, { decisionId: newer, minPx: MIN_LIST_TEXT_PX })
    expect(read.claims > 0 && read.quotes.length === read.claims, where, `${read.claims} claims, ${read.quotes.length} quotes`)
    expect(read.problems.length === 0, where, read.problems.join('; '))
    const titles = await page.locator(tid('ml-title')).allInnerTexts()
    expect(titles.filter((t) => t === STORY.question).length === 2, where, `the list's titles: ${titles.join(' | ')}`)
    const whens = [await card(older).locator('.ml-when').innerText(), await card(newer).locator('.ml-when').innerText()]
    expect(whens[0] !== whens[1] && /1st of 2/.test(whens[0]) && /2nd of 2/.test(whens[1]), where, `the two read "${whens.join('" and "')}"`)
    figures.push(`${where}: list, side panel ${Math.round(h.side)} px, ${read.claims} claims with quotes under the newest decision, smallest text ${read.smallest} px; quotes: ${read.quotes.join(' | ')}`)
    await page.screenshot({ path: `${ARTIFACTS_DIR}/${label}-390x844.png` })

    // The older one opens too, in place.
    await card(older).locator('.ml-head').click()
    await card(older).locator(tid('ml-quote')).first().waitFor()
    await card(older).scrollIntoViewIfNeeded()
    read = await page.evaluate(listReadable, { decisionId: older, minPx: MIN_LIST_TEXT_PX })
    expect(read.problems.length === 0 && read.quotes.length === read.claims, where, `the older decision: ${read.problems.join('; ')}`)
    await page.screenshot({ path: `${ARTIFACTS_DIR}/${label}-390x844-older.png` })

    // A claim opens in the panel; the graph is a button away and back.
    await card(older).locator(`${tid('ml-claim')} .link`).first().click()
    await page.locator(tid('evidence-panel')).waitFor()
    await page.locator(tid('show-graph')).click()
    await page.locator(`${tid('flow-pane')}[data-camera]`).waitFor()
    await page.locator('.react-flow__node').first().waitFor()
    await page.locator(tid('show-list')).click()
    await page.locator(tid('memory-list')).waitFor()
  } catch (error) {
    failures.push(`${where}: ${error.message}`)
    await page.screenshot({ path: `${ARTIFACTS_DIR}/FAILED-${label}-390x844.png` }).catch(() => {})
  } finally {
    await page.context().close()
  }
}

/** A conflict raised, then dismissed: at the moment it was raised, graph and tab agree. */
async function history(browser, size) {
  const ws = STORY.history
  const where = `history at ${size[0]}×${size[1]}`
  const page = await openPage(browser, size)
  const shot = (name) => page.screenshot({ path: `${ARTIFACTS_DIR}/history-${size[0]}x${size[1]}-${name}.png` })
  try {
    await openWorkspace(page, ws.id)
    expect((await page.locator(tid('conflict-edge')).count()) === 0, where, 'a dismissed conflict is drawn now')
    await page.locator(tid('tab-conflicts')).click()
    await page.locator(`${tid('conflicts-panel')} ${tid('conflicts-empty')}`).waitFor()

    await page.locator(tid('time-toggle')).click()
    await page.locator(`${tid('time-mark')}[data-kind="conflict_raised"]`).click()
    await page.locator(`${tid('time-control')}:not([data-as-of="now"])`).waitFor()
    await page.locator(`${tid('conflict-edge')}[data-id="${ws.conflict_id}"]`).waitFor({ state: 'attached' })
    const listed = page.locator(`${tid('conflicts-list')}[data-open="1"]`)
    await listed.waitFor()
    await listed.locator(`${tid('conflict')}[data-id="${ws.conflict_id}"]`).waitFor()
    expect((await page.locator(tid('conflict-keep')).count()) === 0, where, 'the past offers to keep a side')
    expect((await page.locator(tid('conflict-dismiss')).count()) === 0, where, 'the past offers to dismiss')
    await page.locator(tid('conflicts-past')).waitFor()
    await shot('1-raised')

    await page.locator(tid('time-now')).click()
    await page.locator(`${tid('time-control')}[data-as-of="now"]`).waitFor()
    await page.locator(`${tid('conflicts-panel')} ${tid('conflicts-empty')}`).waitFor()
    const text = await page.locator(tid('conflicts-empty')).innerText()
    expect(/^No open conflicts/.test(text), where, `now the tab says "${text}"`)
    await page.locator(tid('conflict-edge')).waitFor({ state: 'detached' })
    await shot('2-now')
  } catch (error) {
    failures.push(`${where}: ${error.message}`)
    await shot('FAILED').catch(() => {})
  } finally {
    await page.context().close()
  }
}

/** More claims than the graph draws: it says so, and narrowing works. */
async function overTheLimit(browser) {
  const ws = STORY.big
  const where = 'over the limit at 1280×800'
  const page = await openPage(browser, [1280, 800])
  const shot = (name) => page.screenshot({ path: `${ARTIFACTS_DIR}/limit-1280x800-${name}.png` })
  try {
    await openWorkspace(page, ws.id)
    const strip = page.locator(tid('graph-limit'))
    await strip.waitFor()
    const text = (await strip.innerText()).replace(/\s+/g, ' ')
    expect(text.includes(ws.says), where, `the strip says "${text}"`)
    expect(/search box/.test(text) && /source/.test(text) && /decision/.test(text), where, `no way to narrow in "${text}"`)
    figures.push(`${where}: "${text}"`)
    await shot('1-strip')

    // A claim the graph does not draw is found by its words, opens in the panel, and is drawn
    // (with its source and decisions, the graph narrowed to it) in view.
    await page.locator(tid('node-search')).fill(ws.undrawn_statement)
    const hit = page.locator(`${tid('search-hit')}[data-id="${ws.undrawn_id}"]`)
    await hit.waitFor()
    expect((await hit.locator(tid('search-hit-undrawn')).count()) === 1, where, 'the undrawn claim is not marked as such')
    await shot('2-search')
    await hit.click()
    await page.locator(`${tid('evidence-panel')}[data-claim-id="${ws.undrawn_id}"]`).waitFor()
    const drawnNow = page.locator(`${tid('node-claim')}[data-node-id="${ws.undrawn_id}"]`)
    await drawnNow.waitFor()
    await page.locator(tid('graph-around')).waitFor()
    await page.locator(`${tid('flow-pane')}[data-camera="moved"]`).waitFor({ state: 'attached' })
    await page.waitForFunction(
      (id) => {
        const el = document.querySelector(`[data-testid="node-claim"][data-node-id="${id}"]`)
        const pane = document.querySelector('[data-testid="flow-pane"]')
        if (!el || !pane) return false
        const r = el.getBoundingClientRect()
        const p = pane.getBoundingClientRect()
        return r.left >= p.left && r.right <= p.right && r.top >= p.top && r.bottom <= p.bottom
      },
      ws.undrawn_id,
      { polling: 100 },
    )
    await shot('2b-drawn')
    await page.locator(tid('around-clear')).click()
    await strip.waitFor()

    // A decision selected, the graph draws only what is around it.
    const before = Number(await page.locator(tid('graph')).getAttribute('data-nodes'))
    const decision = page.locator(tid('node-decision')).first()
    await decision.click()
    await page.locator(tid('decision-panel')).waitFor()
    await page.locator(`${tid('around-selected')}:not([disabled])`).click()
    await page.locator(tid('graph-around')).waitFor()
    await settle(page)
    const after = Number(await page.locator(tid('graph')).getAttribute('data-nodes'))
    expect(after > 1 && after < before, where, `around the decision: ${after} nodes of ${before}`)
    const seen = await page.evaluate(nodesInPane)
    figures.push(`${where}: around a decision, ${after} nodes of ${before} laid out`)
    expect(seen.drawn === seen.laidOut && seen.outside.length === 0, where, `around the decision, not all in view: ${seen.drawn} of ${seen.laidOut}; ${seen.outside.join('; ')}`)
    await shot('3-around')
    await page.locator(tid('around-clear')).click()
    await strip.waitFor()
  } catch (error) {
    failures.push(`${where}: ${error.message}`)
    await shot('FAILED').catch(() => {})
  } finally {
    await page.context().close()
  }
}

async function main() {
  if (!BASE_URL || !CHROMIUM_PATH) throw new Error('set BASE_URL and CHROMIUM_PATH')
  await mkdir(ARTIFACTS_DIR, { recursive: true })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS })
  try {
    for (const [label, ws] of [
      ['corrections', STORY.corrections],
      ['conflict', STORY.conflict],
    ]) {
      await laptop(browser, ws, label)
      await narrow(browser, ws, label)
      await phone(browser, ws, label)
    }
    for (const size of [
      [1280, 800],
      [390, 844],
    ])
      await history(browser, size)
    await overTheLimit(browser)
  } finally {
    await browser.close()
  }
  for (const f of figures) console.log(f)
  await writeFile(`${ARTIFACTS_DIR}/figures.txt`, figures.join('\n') + '\n')
  if (failures.length) {
    console.error(`\n${failures.length} check(s) failed:\n- ${failures.join('\n- ')}`)
    process.exit(1)
  }
  console.log('first screens read')
}

main().catch((error) => {
  console.error(error.stack ?? error)
  process.exit(1)
})
