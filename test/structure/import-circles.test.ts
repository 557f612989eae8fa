import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { circlesBetween, importGraph } from '../helpers/import-graph.js'
import { scratchDir } from '../helpers/scratch.js'

const SRC = fileURLToPath(new URL('../../src', import.meta.url))
const graph = importGraph(SRC)
const under = (folder: string) => (module: string) => module.startsWith(`${folder}/`)

/** The circles through both folders (or within one), each `a.ts → b.ts → a.ts`, in the message. */
function expectNoCircle(from: string, to: string): void {
  const circles = circlesBetween(graph, under(from), under(to))
  expect(
    circles,
    `import circles through src/${from}/${from === to ? '' : ` and src/${to}/`}:\n${circles.map((circle) => `  ${circle}`).join('\n')}\n`,
  ).toEqual([])
}

describe('import circles in src/, over type and value imports', () => {
  test('none between plugin/ and reporter/', () => {
    expectNoCircle('plugin', 'reporter')
  })

  test('none within core/kinds/, their terminal prompts included', () => {
    expectNoCircle('core/kinds', 'core/kinds')
  })

  test('none within plugin/', () => {
    expectNoCircle('plugin', 'plugin')
  })

  test('none within web/client/', () => {
    expectNoCircle('web/client', 'web/client')
  })

  test('none between core/engine/ and core/kinds/', () => {
    expectNoCircle('core/engine', 'core/kinds')
  })

  test('none anywhere in src/', () => {
    const circles = circlesBetween(
      graph,
      () => true,
      () => true,
    )
    expect(circles, `import circles in src/:\n${circles.map((circle) => `  ${circle}`).join('\n')}\n`).toEqual([])
  })

  test('the kind contract (core/contract/) imports no engine module and no kind', () => {
    const crossing = [...graph].flatMap(([module, targets]) =>
      module.startsWith('core/contract/')
        ? targets.filter((target) => under('core/engine')(target) || under('core/kinds')(target)).map((target) => `${module} → ${target}`)
        : [],
    )
    expect(graph.get('core/contract/kind.ts')).toBeDefined()
    expect(crossing).toEqual([])
  })

  test('no file in core/engine/ imports core/kinds/', () => {
    const crossing = [...graph].flatMap(([module, targets]) =>
      module.startsWith('core/engine/') ? targets.filter(under('core/kinds')).map((target) => `${module} → ${target}`) : [],
    )
    expect(crossing).toEqual([])
  })
})

describe('the import graph', () => {
  test('follows every form of import: type-only, re-exports, dynamic import() and import types', async () => {
    const root = await scratchDir('import-graph')
    await mkdir(join(root, 'lib'))
    const files: Record<string, string> = {
      'a.ts': "import type { B } from './b.js'\nexport type A = B\n",
      'b.ts': "export type { C } from './c.js'\nexport type B = number\n",
      'c.ts': "export type C = import('./lib/index.js').D\nexport const load = () => import('./d.js')\n",
      'd.ts': "import x = require('./a.js')\nimport { readFile } from 'node:fs'\nexport { x, readFile }\n",
      'lib/index.ts': "export * from '../a.js'\nexport type D = string\n",
    }
    for (const [name, text] of Object.entries(files)) await writeFile(join(root, name), text)
    expect(Object.fromEntries(importGraph(root))).toEqual({
      'a.ts': ['b.ts'],
      'b.ts': ['c.ts'],
      'c.ts': ['d.ts', 'lib/index.ts'],
      'd.ts': ['a.ts'],
      'lib/index.ts': ['a.ts'],
    })
    expect(circlesBetween(importGraph(root), (module) => module === 'a.ts', under('lib'))).toEqual(['a.ts → b.ts → c.ts → lib/index.ts → a.ts'])
  })

  test('an import it cannot resolve is an error, never a missing edge', async () => {
    const root = await scratchDir('import-graph')
    await writeFile(join(root, 'a.ts'), "import { b } from './b.js'\nexport const a = b\n")
    expect(() => importGraph(root)).toThrow('a.ts: the import "./b.js" resolves to no file')
  })
})
