// Pure: the runtime imports between the UI's modules, read from their text, and the cycles
// among them. An import that only brings types (`import type`, or every name marked `type`)
// is erased by the compiler and is no edge; a cycle of runtime imports is one.
export type Sources = ReadonlyMap<string, string>

const IMPORT = /^\s*(import|export)\s+([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm

/** Whether the clause of an import brings only types (erased at run time). */
function typeOnly(kind: string, clause: string): boolean {
  const c = clause.trim()
  if (c.startsWith('type ')) return true
  if (kind === 'export' && (c === '*' || c.startsWith('* as'))) return false
  const braces = /^\{([^}]*)\}$/.exec(c)
  if (!braces) return false
  const names = braces[1].split(',').map((n) => n.trim()).filter(Boolean)
  return names.length > 0 && names.every((n) => n.startsWith('type '))
}

function resolve(from: string, spec: string, files: Sources): string | null {
  if (!spec.startsWith('.')) return null
  const parts = from.split('/').slice(0, -1)
  for (const seg of spec.split('/')) {
    if (seg === '..') parts.pop()
    else if (seg !== '.') parts.push(seg)
  }
  const base = parts.join('/')
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (files.has(candidate)) return candidate
  }
  return null
}

/** Each module's runtime imports of other modules of `files` (path → text). */
export function runtimeImports(files: Sources): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const [path, text] of files) {
    const deps: string[] = []
    for (const m of text.matchAll(IMPORT)) {
      const [, kind, clause, spec, bare] = m
      if (bare) {
        const target = resolve(path, bare, files)
        if (target) deps.push(target)
        continue
      }
      if (typeOnly(kind, clause)) continue
      const target = resolve(path, spec, files)
      if (target) deps.push(target)
    }
    out.set(path, [...new Set(deps)])
  }
  return out
}

/** The cycles of a graph of imports: each strongly connected part of more than one module
 *  (or a module importing itself), its modules sorted. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (v: string) => {
    idx.set(v, index)
    low.set(v, index)
    index += 1
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, idx.get(w)!))
      }
    }
    if (low.get(v) === idx.get(v)) {
      const part: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        part.push(w)
      } while (w !== v)
      if (part.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(part.sort())
    }
  }
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v)
  return cycles
}
