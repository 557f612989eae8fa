import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { expect, test } from 'vitest'

// The kind contract's types are named from src/core/contract/ alone: a module that re-exports one
// is a second path to it, and an import through it names the engine for what is the contract's.
// Only the public entries re-export the contract, as users import it.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SRC = join(ROOT, 'src')

/** The source files of package.json's `exports` entries (`dist/index.d.ts` → `src/index.ts`). */
function publicEntries(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> }
  return new Set(
    Object.values(manifest.exports).flatMap((target) =>
      typeof target === 'object' && target.types !== undefined ? [target.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts')] : [],
    ),
  )
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return tsFiles(path)
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : []
  })
}

test('no module but a public entry re-exports a type of src/core/contract/', () => {
  const entries = publicEntries()
  expect(entries.has('index.ts')).toBe(true)
  const reexports = tsFiles(SRC).flatMap((file) => {
    const module = relative(SRC, file)
    if (module.startsWith('core/contract/') || entries.has(module)) return []
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    return source.statements.flatMap((statement) =>
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      /(^|\/)contract\//.test(statement.moduleSpecifier.text)
        ? [`${module}: ${statement.getText(source)}`]
        : [],
    )
  })
  expect(reexports).toEqual([])
})
