import { cp, lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { readOutputFile, writeOutputFile } from '../../src/core/json/output-file.js'
import { cachedPlan } from '../../src/run/plan-cache.js'
import { splitFixtures } from '../../src/run/chunks.js'
import { writePayload } from '../../src/run/payload.js'
import { runCli } from '../helpers/cli.js'
import { runVitest } from '../helpers/run-vitest.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

const PLANTED = 'export PATH=/home/user/bin:$PATH\n'

/** A project folder holding a copy of the bundled fixture, and a folder beside it that is not part of the project, holding a file. */
async function projectAndOutside(): Promise<{ root: string; dir: string; outside: string; planted: string }> {
  const scratch = await scratchDir('outputs')
  const root = join(scratch, 'project')
  const dir = join(root, 'fixtures/lab')
  const outside = join(scratch, 'elsewhere')
  await mkdir(outside)
  await cp(DOCUCTL, dir, { recursive: true })
  const planted = join(outside, '.bashrc')
  await writeFile(planted, PLANTED)
  return { root, dir, outside, planted }
}

/** The error as shown, the scratch folder replaced so that the snapshot holds no absolute path. */
const shown = (text: string, root: string) => text.replaceAll(join(root, '..'), '<scratch>')

describe('a file the package writes is never written or read through a symbolic link', () => {
  test('report --html replaces a report.html linked to a file outside the project, and leaves that file alone', async () => {
    const { root, planted } = await projectAndOutside()
    await mkdir(join(root, '.vitest-rubric'))
    await symlink(planted, join(root, '.vitest-rubric/report.html'))
    const report = await runCli(['report', '--html', 'fixtures/lab'], root)
    expect(report).toMatchObject({ code: 0, stdout: 'wrote .vitest-rubric/report.html\n', stderr: '' })
    expect(await readFile(planted, 'utf8')).toBe(PLANTED)
    expect((await lstat(join(root, '.vitest-rubric/report.html'))).isFile()).toBe(true)
    expect(await readFile(join(root, '.vitest-rubric/report.html'), 'utf8')).toContain('vitest-rubric report')
  })

  test('report --html refuses a .vitest-rubric/ folder linked outside the project, and writes nothing there', async () => {
    const { root, outside } = await projectAndOutside()
    await symlink(outside, join(root, '.vitest-rubric'))
    const report = await runCli(['report', '--html', 'fixtures/lab'], root)
    expect(report.code).toBe(1)
    expect(shown(report.stderr, root)).toMatchInlineSnapshot(`
      ".vitest-rubric: the path leads outside the project through a symbolic link, so nothing is written through it.
        expected: a folder whose real path lies inside <scratch>/project
        found:    <scratch>/elsewhere
        fix:      replace the link with a folder of its own (remove it: the folder is then made in its place), or run the command from a folder that holds what the link points at.
      "
    `)
    expect(await readdir(outside)).toEqual(['.bashrc'])
  })

  test('report --html --out names a folder outside the project on purpose: it is written there', async () => {
    const { root, outside } = await projectAndOutside()
    const report = await runCli(['report', '--html', 'fixtures/lab', '--out', join(outside, 'artifacts/report.html')], root)
    expect(report.code).toBe(0)
    expect(await readFile(join(outside, 'artifacts/report.html'), 'utf8')).toContain('vitest-rubric report')
  })

  test.each(['.', './', 'x/..'])('report --html --out %j names the project folder itself: refused as a folder, nothing written', async (out) => {
    const { root } = await projectAndOutside()
    const before = (await readdir(root)).sort()
    const report = await runCli(['report', '--html', 'fixtures/lab', '--out', out], root)
    expect(report.code).toBe(1)
    expect(report.stderr).toBe(
      '.: the path is a folder, so the file cannot be written there; nothing was written.\n  expected: a file, or nothing\n  found:    a folder\n  fix:      remove or rename the folder, or write the file elsewhere.\n',
    )
    expect((await readdir(root)).sort()).toEqual(before)
  })

  test.each(['fixtures/lab/cases.json', 'fixtures/lab/annotations.json', 'fixtures/lab/reviews/alice.json'])(
    'report --html --out %s, a file of the fixture reported on, is refused and the file left as it was',
    async (out) => {
      const { root } = await projectAndOutside()
      const before = await readFile(join(root, 'fixtures/lab/cases.json'))
      const report = await runCli(['report', '--html', 'fixtures/lab', '--out', out], root)
      expect(report.code).toBe(2)
      expect(report.stderr).toMatch(new RegExp(`^${out.replaceAll('.', '\\.')}: --out would be written over a file of the fixture fixtures/lab`))
      expect(await readFile(join(root, 'fixtures/lab/cases.json'))).toEqual(before)
      expect(await readdir(join(root, 'fixtures/lab'))).not.toContain('reviews')
    },
  )

  test('schema --out neither reads nor writes a schema file linked outside the project: the link is replaced', async () => {
    const { root, planted } = await projectAndOutside()
    await mkdir(join(root, 'schemas'))
    await symlink(planted, join(root, 'schemas/cases.schema.json'))
    const schema = await runCli(['schema', '--out', 'schemas'], root)
    expect(schema.code).toBe(0)
    expect(schema.stdout).toContain('schemas/cases.schema.json: written')
    expect(await readFile(planted, 'utf8')).toBe(PLANTED)
    expect((await lstat(join(root, 'schemas/cases.schema.json'))).isFile()).toBe(true)
  })

  test('init refuses a fixture folder reached through a link outside the project', async () => {
    const { root, outside } = await projectAndOutside()
    await symlink(outside, join(root, 'fixtures/shared'))
    const init = await runCli(['init', 'fixtures/shared/new'], root)
    expect(init.code).toBe(1)
    // Named by the first file it would write, with where the link leads it: every file is confined before any folder is made.
    expect(shown(init.stderr, root)).toContain(
      'fixtures/shared/new/rubric.json: the path leads outside the project through a symbolic link, so it is neither read nor written.\n  expected: a file or folder whose real path lies inside <scratch>/project\n  found:    <scratch>/elsewhere/new/rubric.json',
    )
    expect(await readdir(outside)).toEqual(['.bashrc'])
  })

  test('a folder linked inside the project is used as a folder', async () => {
    const { root } = await projectAndOutside()
    await mkdir(join(root, 'build/reports'), { recursive: true })
    await symlink(join(root, 'build/reports'), join(root, '.vitest-rubric'))
    expect((await runCli(['report', '--html', 'fixtures/lab'], root)).code).toBe(0)
    expect(await readdir(join(root, 'build/reports'))).toEqual(['report.html'])
  })

  test('readOutputFile does not follow a link, and writeOutputFile refuses a link to nothing on the way', async () => {
    const { root, planted, outside } = await projectAndOutside()
    const place = { boundary: root, cwd: root }
    await symlink(planted, join(root, 'cache.json'))
    expect(await readOutputFile(join(root, 'cache.json'), place)).toBeUndefined()
    await symlink(join(outside, 'gone'), join(root, 'out'))
    await expect(writeOutputFile({ path: join(root, 'out/a.json'), display: 'out/a.json', contents: '{}' }, place)).rejects.toMatchObject({
      code: 'WRITE_FAILED',
      file: 'out',
      summary: 'the path is a symbolic link whose target does not exist, so nothing can be written below it; nothing was written.',
    })
    expect(await readdir(outside)).toEqual(['.bashrc'])
  })
})

describe("the plugin's own files are never written through a symbolic link", () => {
  test.each([
    [{ outputFile: 'fixtures/lab/cases.json' }, "the reporter's outputFile", 'fixtures/lab/cases.json'],
    [{ outputFile: false, htmlReport: 'fixtures/lab/reviews/alice.json' }, "the reporter's htmlReport", 'fixtures/lab/reviews/alice.json'],
  ] as const)(
    'a reporter option naming a fixture file fails the run and leaves the fixture as it was: %j',
    { timeout: 120_000 },
    async (reporter, option, out) => {
      const { root, dir } = await projectAndOutside()
      const before = await readFile(join(dir, 'cases.json'))
      const run = await runVitest({ root, plugin: { reporter } })
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toContain(
        `${out}: ${option} would be written over a file of the fixture fixtures/lab (${out.slice('fixtures/lab/'.length)}); nothing was written.`,
      )
      expect(await readFile(join(dir, 'cases.json'))).toEqual(before)
      expect(await readdir(dir)).not.toContain('reviews')
    },
  )

  test('chunk modules refuse a .vitest-rubric/chunks folder linked outside the project', async () => {
    const { root, dir, outside } = await projectAndOutside()
    await mkdir(join(root, '.vitest-rubric'))
    await symlink(outside, join(root, '.vitest-rubric/chunks'))
    const fixture = { kind: 'criteria', dir, moduleId: join(dir, 'rubric.json') }
    await expect(splitFixtures(root, '', [fixture], 1)).rejects.toMatchObject({ code: 'FILE_OUTSIDE_PROJECT', file: '.vitest-rubric/chunks' })
    expect(await readdir(outside)).toEqual(['.bashrc'])
  })

  test('a payload refuses a folder linked outside the cache folder, and replaces a link standing for a payload', async () => {
    const { root, outside, planted } = await projectAndOutside()
    const cacheDir = join(root, 'node_modules/.vite')
    await mkdir(cacheDir, { recursive: true })
    await symlink(outside, join(cacheDir, 'vitest-rubric'))
    await expect(writePayload(cacheDir, 'fixtures/lab/rubric.json', '{"cases":[]}')).rejects.toMatchObject({ code: 'FILE_OUTSIDE_PROJECT' })
    expect(await readdir(outside)).toEqual(['.bashrc'])

    const path = await writePayload(join(root, 'cache'), 'fixtures/lab/rubric.json', '{"cases":[]}')
    // A link planted under the name the payload will have: the worker must read the payload, not the link's target.
    const again = join(root, 'cache2')
    await mkdir(join(again, 'vitest-rubric'), { recursive: true })
    await symlink(planted, join(again, 'vitest-rubric', basename(path)))
    const written = await writePayload(again, 'fixtures/lab/rubric.json', '{"cases":[]}')
    expect((await lstat(written)).isFile()).toBe(true)
    expect(await readFile(written, 'utf8')).toBe('{"cases":[]}')
    expect(await readFile(planted, 'utf8')).toBe(PLANTED)
  })

  test('the plan cache writes nothing through a plans/ folder linked outside the cache folder, and still plans', async () => {
    const { root, dir, outside } = await projectAndOutside()
    const cacheDir = join(root, 'node_modules/.vite')
    await mkdir(join(cacheDir, 'vitest-rubric'), { recursive: true })
    await symlink(outside, join(cacheDir, 'vitest-rubric/plans'))
    const result = await cachedPlan(dir, root, cacheDir, {}, { child: null })
    expect('plan' in result && result.plan.cases.length).toBeGreaterThan(0)
    expect(await readdir(outside)).toEqual(['.bashrc'])
  })
})
