import { execFileSync, spawnSync } from 'node:child_process'
import { cp, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { removeFileScratch, scratchDir } from '../helpers/scratch.js'

// The package as a user installs it: `npm pack` of the build, unpacked into a fresh project's
// node_modules, its dependencies linked from this checkout (nothing is fetched).
let project = ''
let packedFiles: readonly string[] = []

beforeAll(async () => {
  const packs = await scratchDir('pack', 'file')
  project = await scratchDir('packed-project', 'file')
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packs], { cwd: ROOT, encoding: 'utf8' })) as {
    filename: string
    files: { path: string }[]
  }[]
  packedFiles = packed!.files.map((file) => file.path)
  await writeFile(join(project, 'package.json'), '{ "type": "module" }\n')
  const modules = join(project, 'node_modules')
  await mkdir(modules)
  execFileSync('tar', ['-xzf', join(packs, packed!.filename), '-C', modules])
  await rename(join(modules, 'package'), join(modules, 'vitest-rubric'))
  for (const entry of await readdir(join(ROOT, 'node_modules'))) {
    if (entry !== 'vitest-rubric' && !entry.startsWith('.')) await symlink(join(ROOT, 'node_modules', entry), join(modules, entry))
  }
}, 120_000)

afterAll(removeFileScratch)

const run = (command: string, args: readonly string[]) =>
  spawnSync(process.execPath, [command, ...args], { cwd: project, encoding: 'utf8', timeout: 120_000, env: { ...process.env, CI: 'true', NO_COLOR: '1' } })
const bin = () => join(project, 'node_modules/vitest-rubric/dist/cli/bin.js')

describe('the packed package in a fresh project', () => {
  test('init --template reaches the shipped rubrics, and the fixture it makes evaluates and runs in Vitest', async () => {
    for (const [name, dir] of [
      ['docuctl', 'fixtures/roll'],
      ['debate', 'fixtures/bench'],
    ]) {
      const init = run(bin(), ['init', dir!, '--template', name!])
      expect(init.stderr).toBe('')
      expect(init.status).toBe(0)
    }
    expect(run(bin(), ['evaluate', 'fixtures/roll', 'fixtures/bench']).status).toBe(0)
    // Each file init wrote names a schema the package ships, where an editor finds it.
    for (const [file, schema] of [
      ['fixtures/roll/cases.json', 'cases.schema.json'],
      ['fixtures/bench/annotations.json', 'scored-annotations.schema.json'],
    ]) {
      const { $schema } = JSON.parse(await readFile(join(project, file!), 'utf8')) as { $schema: string }
      expect($schema).toBe(`../../node_modules/vitest-rubric/dist/schemas/${schema}`)
      expect(JSON.parse(await readFile(join(project, dirname(file!), $schema), 'utf8'))).toEqual(
        JSON.parse(await readFile(join(ROOT, 'src/schemas', schema!), 'utf8')),
      )
    }
    await writeFile(
      join(project, 'vitest.config.mjs'),
      "import { rubric } from 'vitest-rubric/plugin'\nexport default { plugins: [rubric({ reporter: { outputFile: false } })], test: { include: [] } }\n",
    )
    // A scored benchmark without cases fails its gates by design, so the run takes the criteria fixture.
    const vitest = run(join(ROOT, 'node_modules/vitest/vitest.mjs'), ['run', 'fixtures/roll'])
    expect(vitest.stdout).toContain('Rubric coverage')
    expect(vitest.stdout).toMatch(/Tests {2}1 todo \(1\)/)
    expect(vitest.status).toBe(0)
  }, 60_000)

  test('its types bring the test meta: testCase.meta().rubric is typed for a reporter', async () => {
    await writeFile(
      join(project, 'reporter.ts'),
      [
        "import type {} from 'vitest-rubric/plugin'",
        "import type { TestCase } from 'vitest/node'",
        'export function statusOf(test: TestCase): string | undefined {',
        '  const meta = test.meta().rubric',
        "  return meta?.role === 'case' ? meta.status : undefined",
        '}',
      ].join('\n'),
    )
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true },
        files: ['reporter.ts'],
      }),
    )
    const tsc = run(join(ROOT, 'node_modules/typescript/bin/tsc'), ['-p', 'tsconfig.json'])
    expect(tsc.stdout).toBe('')
    expect(tsc.status).toBe(0)
  }, 60_000)

  test('ships the documentation and the JSON Schemas it points to, and no tests or scratch files', () => {
    const paths = packedFiles
    for (const path of ['docs/format.md', 'docs/matchers.md', 'dist/schemas/rubric.schema.json', 'dist/cli/bin.js', 'fixtures/docuctl-rollback/source.txt'])
      expect(paths).toContain(path)
    expect(paths.filter((path) => path.startsWith('test/') || path.startsWith('src/schemas/') || path.startsWith('fixtures/docuctl-rollback/cases'))).toEqual(
      [],
    )
  })

  test('exports the functions docs/statistics.md documents as vitest-rubric/statistics, with StatisticsInputError', async () => {
    // Every function statistics.md names with its arguments is one a user can import: from
    // vitest-rubric/statistics, or from vitest-rubric for those that take a fixture or an evaluation.
    const doc = await readFile(join(ROOT, 'docs/statistics.md'), 'utf8')
    const others = new Set(['String', 'rubric', 'mcnemar', 'proportion_confint'])
    const documented = [...new Set([...doc.matchAll(/`([A-Za-z]\w*)\(/g)].map((match) => match[1]!))].filter((name) => !others.has(name))
    expect(documented).toEqual(expect.arrayContaining(['krippendorffAlpha', 'cohenKappa', 'wilsonInterval', 'ppiMean', 'percentileInterval', 'createRandom']))
    await writeFile(
      join(project, 'statistics.mjs'),
      [
        "import * as statistics from 'vitest-rubric/statistics'",
        "import * as main from 'vitest-rubric'",
        'const names = JSON.parse(process.argv[2])',
        'const kinds = Object.fromEntries(names.map((name) => [name, typeof (statistics[name] ?? main[name])]))',
        "const kappa = statistics.cohenKappa([['meets', 'meets'], ['does_not_meet', 'does_not_meet'], ['meets', 'does_not_meet'], ['meets', 'meets']])",
        'let refused',
        'try {',
        "  statistics.krippendorffAlpha([['meets', 1]], 'nominal')",
        '} catch (error) {',
        '  refused = { statistics: error instanceof statistics.StatisticsInputError, rubric: error instanceof main.RubricError, code: error.code }',
        '}',
        'console.log(JSON.stringify({ kinds, kappa: kappa.kappa, wilson: statistics.wilsonInterval(0, 10), minimum: statistics.MIN_BOOTSTRAP_CASES, refused }))',
      ].join('\n'),
    )
    const result = run(join(project, 'statistics.mjs'), [JSON.stringify(documented)])
    expect(result.stderr).toBe('')
    const printed = JSON.parse(result.stdout) as {
      kinds: Record<string, string>
      kappa: number
      wilson: { low: number; high: number }
      minimum: number
      refused: unknown
    }
    expect(printed.kinds).toEqual(Object.fromEntries(documented.map((name) => [name, 'function'])))
    expect(printed.kappa).toBeCloseTo(0.5, 12)
    expect(printed.wilson.low).toBe(0)
    expect(printed.wilson.high).toBeCloseTo(0.2775327998628892, 12)
    expect(printed.minimum).toBe(10)
    expect(printed.refused).toEqual({ statistics: true, rubric: true, code: 'STATISTICS_INPUT' })
  })

  test('ships the example judges and the example pair the docs run, copied into the project as the docs say', async () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'examples/judges/keyword-judge.mjs',
        'examples/judges/ai-sdk-judge.ts',
        'examples/compare/answers-v1/cases.json',
        'examples/compare/answers-v2/annotations.json',
      ]),
    )
    // The repository's own suite written with the matchers reads fixtures the package does not ship.
    expect(packedFiles.filter((path) => path.startsWith('examples/') && !/^examples\/(judges|compare)\//.test(path))).toEqual([])
    // judges.md and compare.md: `mkdir -p examples && cp -r node_modules/vitest-rubric/examples/<folder> examples/`.
    await mkdir(join(project, 'examples'), { recursive: true })
    for (const folder of ['judges', 'compare'])
      await cp(join(project, 'node_modules/vitest-rubric/examples', folder), join(project, 'examples', folder), { recursive: true })
    const compared = run(bin(), ['compare', 'examples/compare/answers-v1', 'examples/compare/answers-v2'])
    expect(compared.stderr).toBe('')
    expect(compared.stdout).toContain('A: answers-v1 (examples/compare/answers-v1), 13 cases')
    expect(compared.stdout).toBe((await runCli(['compare', 'examples/compare/answers-v1', 'examples/compare/answers-v2'], ROOT)).stdout)
    await cp(join(ROOT, 'fixtures/docuctl-rollback'), join(project, 'fixtures/lab'), { recursive: true })
    const judged = run(bin(), ['judge', 'fixtures/lab', '--judge', 'keywords', '--run', 'examples/judges/keyword-judge.mjs'])
    expect(judged.stderr).not.toMatch(/error|cannot|refused/i)
    expect(judged.stdout).toContain('judge keywords: wrote 40 labels of 40 to judge in 8 cases (0 were current), 0 failed')
    expect(judged.status).toBe(0)
  }, 60_000)

  test('exports the JSON Schemas as vitest-rubric/schemas/*, from the build', () => {
    const require = createRequire(join(project, 'index.js'))
    expect(require.resolve('vitest-rubric/schemas/rubric.schema.json')).toBe(join(project, 'node_modules/vitest-rubric/dist/schemas/rubric.schema.json'))
  })
})
