import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { importGraph } from '../helpers/import-graph.js'

// The plugin and the printing reporter both read the run's state (options, plans, chunks, gates):
// it lives in src/run/, below both, and only the plugin's entry (src/plugin.ts) joins the two.
const graph = importGraph(fileURLToPath(new URL('../../src', import.meta.url)))
const under = (folder: string) => (module: string) => module.startsWith(`${folder}/`)

/** Every import from a file under `from/` of a file under one of `to`, as `a.ts → b.ts`, over type and value imports. */
function crossing(from: string, ...to: string[]): string[] {
  return [...graph].flatMap(([module, targets]) =>
    under(from)(module) ? targets.filter((target) => to.some((folder) => under(folder)(target))).map((target) => `${module} → ${target}`) : [],
  )
}

describe('folder seams in src/, over type and value imports', () => {
  test('no file in plugin/ imports reporter/', () => {
    expect(crossing('plugin', 'reporter')).toEqual([])
  })

  test('no file in reporter/ imports plugin/', () => {
    expect(crossing('reporter', 'plugin')).toEqual([])
  })

  test('run/, below both, imports neither plugin/ nor reporter/', () => {
    expect(crossing('run', 'plugin', 'reporter')).toEqual([])
  })

  test('the seam is watched: the plugin entry imports both folders', () => {
    expect(graph.get('plugin.ts')).toEqual(expect.arrayContaining(['plugin/vite-plugin.ts', 'reporter/rubric-reporter.ts']))
  })
})
