// The same fact in other words, through the UI: memo A says the launch is June 12, notes B say
// marketing confirmed it on June 12. Correcting A to June 19, the preview says B "also says
// this, in other words", with its quote, its source and the value read; B can be left out
// (then it stands in an open conflict with the correction) or corrected with A (the default);
// after apply, a fresh run cites June 19 only. Then three memos: Alice and the steering
// minutes say September 15, Bob October 1; one conflict over the fact, two values (Alice's and
// the minutes' one side); keeping September 15 supersedes Bob's.
// A screenshot per step; every failed check is listed.
//
//   BASE_URL=… CHROMIUM_PATH=… ARTIFACTS_DIR=… [SIZES='[[1280,800]]'] node e2e/otherwords.mjs
import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { check, LAUNCH_ARGS, panelLeaks, showGraph, stepper, tid, wholeInView } from './lib.mjs'

const BASE_URL = (process.env.BASE_URL ?? '').replace(/\/$/, '')
const CHROMIUM_PATH = process.env.CHROMIUM_PATH
const ARTIFACTS_DIR = resolve(process.env.ARTIFACTS_DIR ?? 'test-artifacts/otherwords')
const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS ?? 30000)
const SIZES = JSON.parse(process.env.SIZES ?? '[[1280,800],[390,844]]')

const MEMO_A = 'The product launch is planned for June 12.'
const NOTES_B = 'Marketing confirmed the launch on June 12.'
const FIXED = 'The product launch is planned for June 19.'
const QUESTION = 'When is the product launch?'
const ALICE = 'Alice says the launch is on September 15.'
const BOB = 'Bob says the launch is on October 1.'
const MINUTES = 'The steering committee confirmed the launch for September 15.'

const failures = []


async function story(browser, size) {
  const label = `${size[0]}x${size[1]}`
  const context = await browser.newContext({ viewport: { width: size[0], height: size[1] } })
  const page = await context.newPage()
  page.setDefaultTimeout(TIMEOUT)
  page.on('pageerror', (err) => failures.push(`page error at ${label}: ${err.message}`))
  const step = stepper(page, label, ARTIFACTS_DIR)
  const expect = (ok, where, message) => {
    if (!ok) failures.push(`${label}, ${where}: ${message}`)
    return ok
  }
  const claimNode = (words) => page.locator(tid('node-claim')).filter({ hasText: words })
  const attr = async (selector, name) => {
    const el = page.locator(selector)
    return (await el.count()) > 0 ? el.first().getAttribute(name) : null
  }
  const newWorkspace = async (name) => {
    await page.goto(`${BASE_URL}/`)
    await page.locator(tid('workspace-name-input')).fill(name)
    await page.locator(tid('workspace-create')).click()
    await page.locator(tid('workspace-current')).filter({ hasText: name }).waitFor()
    await showGraph(page)
  }
  const addSource = async (title, text) => {
    await page.locator(tid('tab-sources')).click()
    await page.locator(tid('source-title')).fill(title)
    await page.locator(tid('source-text')).fill(text)
    const before = await attr(tid('source-result'), 'data-claim-ids')
    await page.locator(tid('source-submit')).click()
    await page.locator(`${tid('source-result')}:not([data-claim-ids="${before ?? ''}"])`).waitFor()
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
  const noLeaks = async (where) => {
    const leaks = await page.evaluate(panelLeaks)
    expect(leaks.length === 0, where, leaks.join('; '))
  }

  try {
    await step('memo A and notes B, the same date in other words', async () => {
      await newWorkspace(`other words ${label}`)
      await addSource('Memo A', MEMO_A)
      await addSource('Notes B', NOTES_B)
      check((await page.locator(`${tid('tab-conflicts')} .tab-badge`).count()) === 0, 'the same fact restated raised a conflict')
      const run = await ask(QUESTION)
      await run.locator(tid('run-decision')).waitFor()
      await claimNode('planned for June 12').waitFor()
      await claimNode('Marketing confirmed').waitFor()
    })

    const notesId = await step('correct A: the preview says B also says this, in other words', async () => {
      await claimNode('planned for June 12').click()
      await page.locator(tid('correction-input')).fill(FIXED)
      await page.locator(tid('correction-preview')).click()
      const line = page.locator(tid('also-other-words'))
      await line.waitFor()
      const heading = await page.locator(`${tid('also-states')} h4`).allInnerTexts()
      check(heading.includes('Also says this, in other words'), `the preview's headings are ${heading.join(' | ')}`)
      const text = await line.innerText()
      check(text.includes(NOTES_B), `the line does not quote the notes: "${text}"`)
      check(text.includes('Notes B'), `the line does not name the notes' source: "${text}"`)
      check(text.includes('says June 12'), `the line does not say the value read: "${text}"`)
      check((await line.getAttribute('data-left-out')) === 'false', 'the notes start left out')
      check((await page.locator(tid('also-fate')).innerText()) === 'Corrected with it.', 'the notes are not corrected with it')
      const flagged = await page.locator(tid('preview-flagged')).count()
      check(flagged === 1, `${flagged} decisions flagged: the question's decision rests on both`)
      const seen = await page.evaluate(wholeInView, `${tid('also-other-words')}`)
      expect(seen.ok, 'the preview', `the "in other words" line is not in view: ${seen.why}`)
      await noLeaks('the preview')
      return line.getAttribute('data-id')
    })

    await step('leave B out, then take it back', async () => {
      await page.locator(tid('also-leave')).click()
      await page.locator(`${tid('also-other-words')}[data-left-out="true"]`).waitFor()
      const fate = await page.locator(tid('also-fate')).innerText()
      check(fate.includes('open conflict with the correction'), `a claim left out reads "${fate}"`)
      await page.locator(tid('also-leave')).click()
      await page.locator(`${tid('also-other-words')}[data-left-out="false"]`).waitFor()
    })

    await step('apply: A and B are corrected together', async () => {
      await page.locator(tid('correction-apply')).click()
      const note = page.locator(tid('outcome-also-corrected'))
      await note.waitFor()
      check((await note.innerText()).includes('One other claim stating the same'), `the outcome reads "${await note.innerText()}"`)
      await page.locator(`${tid('node-claim')}[data-node-id="${notesId}"]`).and(page.locator('[data-status="superseded"]')).waitFor()
    })

    await step('a fresh run cites June 19 only', async () => {
      const run = await ask(QUESTION)
      const decision = run.locator(tid('run-decision'))
      await decision.waitFor()
      const said = await decision.innerText()
      check(!/needs review/.test(said), `the fresh run's decision reads "${said}"`)
      await decision.locator(tid('link-decision')).click()
      const premises = page.locator(tid('premise-claim'))
      await premises.first().waitFor()
      const cited = await premises.allInnerTexts()
      check(cited.some((c) => c.includes('June 19')), `the fresh decision cites ${cited.join(' | ')}`)
      check(!cited.some((c) => c.includes('June 12')), `the fresh decision still cites June 12: ${cited.join(' | ')}`)
    })

    await step('three memos: one conflict over one fact, two values', async () => {
      await newWorkspace(`three memos ${label}`)
      await addSource('Alice', ALICE)
      await addSource('Bob', BOB)
      await addSource('Steering minutes', MINUTES)
      await page.locator(tid('tab-conflicts')).click()
      const card = page.locator(tid('conflicts-panel')).locator(tid('conflict')).filter({ hasText: ALICE })
      await card.locator(tid('conflict-value')).filter({ hasText: MINUTES }).waitFor()
      check((await page.locator(`${tid('tab-conflicts')} .tab-badge`).innerText()).trim() === '1',
        'the conflicts tab does not count one open conflict')
      const values = card.locator(tid('conflict-value'))
      check((await values.count()) === 2, `${await values.count()} values shown`)
      const september = values.filter({ hasText: ALICE })
      check((await september.innerText()).includes(MINUTES), 'the minutes are not on Alice’s side')
    })

    await step('keep September 15: Bob’s October 1 is superseded, and no conflict is left', async () => {
      await page.locator(tid('tab-conflicts')).click()
      const panel = page.locator(tid('conflicts-panel'))
      const card = panel.locator(tid('conflict')).filter({ hasText: ALICE })
      await card.waitFor()
      const keep = card.locator(tid('conflict-value')).filter({ hasText: ALICE }).locator(tid('conflict-keep'))
      await keep.waitFor()
      await keep.click()
      await panel.locator(`${tid('resolution-preview')}[data-resolution="keep"]`).waitFor()
      const summary = await panel.locator(tid('resolution-summary')).innerText()
      check(summary.includes(BOB), `the preview reads "${summary}"`)
      await panel.locator(tid('conflict-apply')).click()
      const outcome = panel.locator(tid('conflict-outcome'))
      await outcome.waitFor()
      await panel.locator(tid('conflicts-empty')).waitFor()
      check((await page.locator(`${tid('tab-conflicts')} .tab-badge`).count()) === 0, 'the conflicts tab still counts an open conflict')
      await noLeaks('the resolution outcome')
    })
  } catch (error) {
    failures.push(error.message)
  } finally {
    await context.close()
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
  if (failures.length) {
    console.error(`\n${failures.length} check(s) failed:\n- ${failures.join('\n- ')}`)
    process.exit(1)
  }
  console.log('the same fact in other words reads at every size')
}

main().catch((error) => {
  console.error(error.stack ?? error)
  process.exit(1)
})
