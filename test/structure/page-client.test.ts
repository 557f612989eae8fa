// The review page's client (src/web/client/) is modules by view and concern that read what a kind
// shows from the kind's page description the server sends: it names no rating and compares with
// no kind's name, so a new kind needs no change to it. Its sources are read as text, as grep would.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { calibrationRatingsOf } from '../../src/core/engine/calibration.js'
import { kinds } from '../../src/core/registry.js'

const CLIENT = fileURLToPath(new URL('../../src/web/client', import.meta.url))
const sources = readdirSync(CLIENT)
  .filter((name) => name.endsWith('.ts'))
  .sort()
  .map((name) => ({ name, lines: readFileSync(join(CLIENT, name), 'utf8').split('\n') }))

/** Every line of the client that matches, as `file:line: text`. */
function linesMatching(pattern: RegExp): string[] {
  return sources.flatMap(({ name, lines }) => lines.flatMap((line, at) => (pattern.test(line) ? [`${name}:${at + 1}: ${line.trim()}`] : [])))
}

const words = (names: Iterable<string>) => [...new Set(names)].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')

describe('the page client', () => {
  test('is modules of at most 400 lines each', () => {
    expect(sources.length).toBeGreaterThan(8)
    const long = sources.filter(({ lines }) => lines.length > 400).map(({ name, lines }) => `${name}: ${lines.length} lines`)
    expect(long).toEqual([])
  })

  test("names no shipped kind's rating, not even in a comment: the ratings come from the kind's page description", () => {
    const ratings = kinds.kinds.flatMap((definition) => {
      const calibration = calibrationRatingsOf(definition)
      return [...definition.page.ratings, ...definition.panel.categories, ...(calibration === undefined ? [] : Object.values(calibration))]
    })
    expect(ratings).toEqual(expect.arrayContaining(['meets', 'does_not_meet', 'uncertain']))
    expect(linesMatching(new RegExp(`\\b(${words(ratings)})\\b`))).toEqual([])
  })

  test("compares, switches and looks up by no kind's name", () => {
    const names = kinds.kinds.map((definition) => definition.name)
    expect(names).toEqual(expect.arrayContaining(['criteria', 'scored']))
    const quoted = `(['"\`])(?:${words(names)})\\1`
    // A DOM id or class may share a kind's name (the form's section is #criteria); a value compared with one may not.
    const compared = new RegExp(`(?:[=!]==?|\\bcase|\\[|\\(|,)\\s*${quoted}|${quoted}\\s*(?:[=!]==?|\\]|:)`)
    expect(linesMatching(compared)).toEqual([])
    expect(linesMatching(/\.kind\s*[=!]==?/)).toEqual([])
  })

  test('imports nothing but its own modules, the wire protocol and the texts it shares with the reporter', () => {
    const imports = linesMatching(/^import\b|\bfrom\s+['"]/)
    expect(imports.length).toBeGreaterThan(8)
    // The wire protocol is protocol.ts and its parts (save-protocol.ts, …), types only; a shared
    // text (src/core/common/rate-percent.ts) prints a figure as the CLI and the
    // reporter print it, and imports nothing itself, so nothing of Node.js reaches the page.
    const shared = /from '\.\.\/\.\.\/core\/common\/(rate-percent)\.js'$/
    const text = (line: string) => line.split(': ').slice(1).join(': ')
    expect(imports.filter((line) => !/from '(?:\.\/[a-z-]+\.js|\.\.\/(?:[a-z]+-)?protocol\.js)'$/.test(text(line)) && !shared.test(text(line)))).toEqual([])
    const sharedModules = new Set(imports.flatMap((line) => shared.exec(text(line))?.[1] ?? []))
    expect(sharedModules.size).toBeGreaterThan(0)
    for (const name of sharedModules) expect(readFileSync(join(CLIENT, `../../core/common/${name}.ts`), 'utf8')).not.toMatch(/^import\b|\bfrom\s+['"]/m)
  })
})
