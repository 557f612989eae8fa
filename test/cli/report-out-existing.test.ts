import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { filesIn } from '../helpers/bad-input.js'
import { runCli } from '../helpers/cli.js'
import { runVitest } from '../helpers/run-vitest.js'
import { makeProject } from '../helpers/scratch.js'

/*
 * `report --html --out <file>` (and the reporter's `htmlReport`) replaces an earlier report, and
 * never a file that is not one: a swapped argument (`--out vitest.config.ts`) is refused, naming
 * the file, with nothing written.
 */

const PACKAGE_JSON = '{ "name": "lab", "type": "module" }\n'

describe('report --html --out an existing file', () => {
  test.each([
    ['package.json', PACKAGE_JSON],
    ['vitest.config.ts', 'export default {}\n'],
    ['notes.html', '<!doctype html>\n<p>My own notes.</p>\n'],
  ])('%s, which is no report, is refused and kept as it was', async (name, contents) => {
    const root = await makeProject({ 'fixtures/lab': null })
    await writeFile(join(root, 'package.json'), PACKAGE_JSON)
    await writeFile(join(root, name), contents)
    const before = await filesIn(root)
    const run = await runCli(['report', '--html', 'fixtures/lab', '--out', name], root)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      `${name}: --out names a file that exists and is no report of vitest-rubric, so it would be replaced by the report; nothing was written.\n` +
        '  expected: a new path, or an earlier report (its head names vitest-rubric as its generator)\n' +
        `  fix:      give --out another path, such as .vitest-rubric/report.html, or remove ${name} first if it is meant to go.\n`,
    )
    expect(run.code).toBe(1)
    expect(await filesIn(root)).toEqual(before)
    expect(await readFile(join(root, name), 'utf8')).toBe(contents)
  })

  test('an earlier report is replaced, as is one written before reports named their generator', async () => {
    const root = await makeProject({ 'fixtures/lab': null })
    const first = await runCli(['report', '--html', 'fixtures/lab', '--out', 'report.html'], root)
    expect(first.code).toBe(0)
    const written = await readFile(join(root, 'report.html'), 'utf8')
    expect(written).toContain('<meta name="generator" content="vitest-rubric">')
    expect((await runCli(['report', '--html', 'fixtures/lab', '--out', 'report.html'], root)).code).toBe(0)
    // A report of an earlier version: no generator line, the report's root element after the inline style.
    await writeFile(join(root, 'report.html'), written.replace('<meta name="generator" content="vitest-rubric">\n', ''))
    const again = await runCli(['report', '--html', 'fixtures/lab', '--out', 'report.html'], root)
    expect(again.stderr).toBe('')
    expect(again.code).toBe(0)
    expect(await readFile(join(root, 'report.html'), 'utf8')).toBe(written)
  })
})

test("the reporter's htmlReport refuses a file that is no report, and the run fails saying why", { timeout: 60_000 }, async () => {
  const root = await makeProject({ 'fixtures/lab': null })
  await writeFile(join(root, 'package.json'), PACKAGE_JSON)
  const run = await runVitest({ root, plugin: { reporter: { htmlReport: 'package.json' } } })
  expect(await readFile(join(root, 'package.json'), 'utf8')).toBe(PACKAGE_JSON)
  expect(run.exitCode).toBe(1)
  expect(run.stderr).toContain(
    "package.json: the reporter's htmlReport names a file that exists and is no report of vitest-rubric, so it would be replaced by the report; nothing was written.",
  )
})
