// No runtime import cycle in the UI's source: a module that words things imports a leaf
// (format.ts), never a module that imports it back.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importCycles, runtimeImports } from './imports'

const SRC = join(__dirname)

function sources(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) sources(path, out)
    else if (/\.tsx?$/.test(name) && !/\.(test|bench)\.tsx?$/.test(name)) {
      out.set(relative(SRC, path).replaceAll('\\', '/'), readFileSync(path, 'utf8'))
    }
  }
  return out
}

describe('imports', () => {
  it('finds a cycle of runtime imports, and not one of types only', () => {
    const files = new Map([
      ['a.ts', "import { b } from './b'\nexport const a = 1"],
      ['b.ts', "import { c } from './dir/c'\nexport const b = 1"],
      ['dir/c.ts', "import { a } from '../a'\nimport type { T } from '../t'\nexport const c = 1"],
      ['t.ts', "import { type C } from './dir/c'\nexport type T = 1"],
      ['u.ts', "export { a } from './a'\nimport './u'"],
    ])
    expect(importCycles(runtimeImports(files))).toEqual([['a.ts', 'b.ts', 'dir/c.ts'], ['u.ts']])
    files.set('dir/c.ts', "import type { A } from '../a'\nexport const c = 1")
    expect(importCycles(runtimeImports(files))).toEqual([['u.ts']])
  })

  it('web/src has no runtime import cycle', () => {
    const files = sources(SRC)
    expect(files.size).toBeGreaterThan(50)
    expect(importCycles(runtimeImports(files))).toEqual([])
  })
})
