// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Model keys and the gateway address are the server's alone (docs/rules.md, rule 15):
// nothing in the browser bundle may name them, and no build-time env var may be baked in.
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : [path]
  })
}

describe('the bundle sources', () => {
  it('never mention a model key, a gateway address or import.meta.env', () => {
    const sources = files(fileURLToPath(new URL('.', import.meta.url))).filter(
      (f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.test.ts') && !f.endsWith('.test.tsx'),
    )
    expect(sources.length).toBeGreaterThan(10)
    const offenders = sources.filter((f) => /OPENAI|api\.openai\.com|import\.meta\.env|sk-[A-Za-z0-9]{8}/.test(readFileSync(f, 'utf8')))
    expect(offenders).toEqual([])
  })
})
