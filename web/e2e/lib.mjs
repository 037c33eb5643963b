// What the browser scripts share: Chromium's flags, DOM test ids, and a few geometry helpers
// that run inside the page.

// The flags Debian's chromium needs to run headless in a container without a sandbox.
export const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export class CheckError extends Error {}

export function check(condition, message) {
  if (!condition) throw new CheckError(message)
}

export const tid = (id) => `[data-testid="${id}"]`

/**
 * Runs in the page: how the first screen reads. Node boxes are clipped to the pane they are
 * drawn in (a node scrolled out of the pane is not on screen), text sizes are font size ×
 * the canvas zoom, and "in view" means inside both the window and the element's scroll box.
 */
export function measureScreen() {
  const rect = (el) => {
    const r = el.getBoundingClientRect()
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }
  }
  const intersect = (a, b) => {
    const r = {
      left: Math.max(a.left, b.left),
      top: Math.max(a.top, b.top),
      right: Math.min(a.right, b.right),
      bottom: Math.min(a.bottom, b.bottom),
    }
    return r.right - r.left > 0.5 && r.bottom - r.top > 0.5 ? r : null
  }
  const doc = document.documentElement
  const paneEl = document.querySelector('[data-testid="flow-pane"]')
  const graphEl = document.querySelector('[data-testid="graph"]')
  const viewport = document.querySelector('.react-flow__viewport')
  const zoom = viewport ? new DOMMatrix(getComputedStyle(viewport).transform).a : 1
  const pane = paneEl ? rect(paneEl) : null
  const nodes = []
  for (const el of document.querySelectorAll('.react-flow__node')) {
    const box = pane ? intersect(rect(el), pane) : null
    if (box) nodes.push({ el, box, id: el.getAttribute('data-id') })
  }
  let minTextPx = Infinity
  let smallest = ''
  for (const { el } of nodes) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
    while (walker.nextNode()) {
      const text = walker.currentNode.textContent.trim()
      const parent = walker.currentNode.parentElement
      if (!text || !parent || parent.getClientRects().length === 0) continue
      const px = parseFloat(getComputedStyle(parent).fontSize) * zoom
      if (px < minTextPx) {
        minTextPx = px
        smallest = `${parent.className || parent.tagName}: "${text.slice(0, 40)}" at ${px.toFixed(2)} px`
      }
    }
  }
  const overlaps = []
  for (const [name, selector] of [
    ['legend', '[data-testid="legend"]'],
    ['minimap', '.react-flow__minimap'],
    ['canvas bar', '[data-testid="canvas-bar"]'],
    ['zoom controls', '.react-flow__controls'],
  ]) {
    for (const el of document.querySelectorAll(selector)) {
      const box = rect(el)
      if (box.width === 0 || box.height === 0) continue
      for (const n of nodes) if (intersect(box, n.box)) overlaps.push(`${name} covers node ${n.id}`)
    }
  }
  const key = document.querySelector('[data-testid="api-key-button"]')
  return {
    innerWidth: window.innerWidth,
    innerHeight: window.innerHeight,
    scrollWidth: Math.max(doc.scrollWidth, document.body.scrollWidth),
    clientWidth: doc.clientWidth,
    graphWidth: graphEl ? rect(graphEl).width : 0,
    paneWidth: pane ? pane.width : 0,
    zoom,
    visibleNodes: nodes.length,
    totalNodes: Number(graphEl?.getAttribute('data-nodes') ?? 0),
    minTextPx: nodes.length ? minTextPx : null,
    smallest,
    overlaps,
    key: key ? rect(key) : null,
  }
}

/** Runs in the page: is the element wholly visible, inside the window and its scroll box? */
export function wholeInView(selector) {
  const el = document.querySelector(selector)
  if (!el) return { ok: false, why: `${selector} is not on the page` }
  let box = el.getBoundingClientRect()
  box = { left: box.left, top: box.top, right: box.right, bottom: box.bottom }
  const clip = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight }
  for (let p = el.parentElement; p; p = p.parentElement) {
    const style = getComputedStyle(p)
    if (/(auto|scroll|hidden)/.test(style.overflowY + style.overflowX)) {
      const r = p.getBoundingClientRect()
      clip.left = Math.max(clip.left, r.left)
      clip.top = Math.max(clip.top, r.top)
      clip.right = Math.min(clip.right, r.right)
      clip.bottom = Math.min(clip.bottom, r.bottom)
    }
  }
  const inside =
    box.left >= clip.left - 1 && box.right <= clip.right + 1 && box.top >= clip.top - 1 && box.bottom <= clip.bottom + 1
  const f = (r) => `[${Math.round(r.left)},${Math.round(r.top)} → ${Math.round(r.right)},${Math.round(r.bottom)}]`
  if (!inside) return { ok: false, why: `${selector} at ${f(box)} is not wholly inside the visible area ${f(clip)}` }
  // Inside, but covered (a sticky row, a menu)? Probe near each corner.
  for (const [x, y] of [
    [box.left + 3, box.top + 3],
    [box.right - 3, box.top + 3],
    [box.left + 3, box.bottom - 3],
    [box.right - 3, box.bottom - 3],
  ]) {
    const hit = document.elementFromPoint(x, y)
    if (hit && !el.contains(hit) && !hit.contains(el)) {
      return { ok: false, why: `${selector} is covered at (${Math.round(x)}, ${Math.round(y)}) by ${hit.tagName}.${hit.className}` }
    }
  }
  return { ok: true, why: '' }
}

/** Runs in the page: the side panel's text, for words that must never show (raw JSON, bare ids). */
export function panelLeaks() {
  const side = document.querySelector('[data-testid="side-panel"]')
  const text = side ? side.innerText : ''
  const leaks = []
  if (/\{\s*"/.test(text)) leaks.push(`raw JSON: ${text.match(/\{\s*".{0,60}/)[0]}`)
  // A UUID's first eight hex digits, letters and digits mixed (a plain number is not one).
  const id = text.match(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8}(?:-[0-9a-f]{4})?\b/)
  if (id) leaks.push(`a bare id: ${id[0]}`)
  return leaks
}

/** A phone opens the memory as a list: switch to the graph, for the checks that are about it. */
export async function showGraph(page) {
  // The canvas is loaded on need: its bar (and the switch) come with it.
  await page.locator('[data-testid="graph"]').waitFor({ state: 'attached' })
  const button = page.locator('[data-testid="show-graph"]')
  if ((await button.count()) === 0 || !(await button.isVisible())) return
  if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click()
  await page.locator('[data-testid="graph"][data-mode="graph"]').waitFor()
}

/** Two animation frames: what the page drew after the last change is on screen. */
export const settle = (page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))

/**
 * A story's steps: each runs, lets the page settle and leaves a numbered screenshot in
 * `dir` (a failing one as FAILED-…), and a failure names the step.
 */
export function stepper(page, label, dir) {
  let stepNo = 0
  return async (name, fn) => {
    stepNo += 1
    const slug = `${label}-${String(stepNo).padStart(2, '0')}-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-$/, '')}`
    process.stdout.write(`${label} step ${stepNo}: ${name} … `)
    try {
      const out = await fn()
      await settle(page)
      await page.screenshot({ path: `${dir}/${slug}.png` })
      console.log('ok')
      return out
    } catch (error) {
      console.log('FAILED')
      await page.screenshot({ path: `${dir}/FAILED-${slug}.png` }).catch(() => {})
      throw new CheckError(`${label} step ${stepNo} "${name}": ${error.message}`)
    }
  }
}
