import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { rubric } from '../../src/plugin.js'
import { runVitest } from '../helpers/run-vitest.js'
import { makeProject } from '../helpers/scratch.js'

describe('the pending gate counts the pending cases of this run, whatever prints', () => {
  test('with pending: "fail" and a -t filter that runs no pending case, the run passes', async () => {
    const root = await makeProject({ 'fixtures/docuctl-rollback': null })
    const run = await runVitest({ root, plugin: { pending: 'fail' }, cli: { testNamePattern: 'paraphrase' } })
    expect(run.counts).toBe('1 passed | 7 skipped')
    expect(run.stderr).not.toContain('Pending gate')
    expect(run.exitCode).toBe(0)
  })

  test('with pending: "fail" and reporter: false, a run with pending cases fails, and says why', async () => {
    const root = await makeProject({ 'fixtures/docuctl-rollback': null })
    const run = await runVitest({ root, plugin: { pending: 'fail', reporter: false }, cli: { testNamePattern: 'complete|uncertain|not-reviewed' } })
    expect(run.stdout).not.toContain('Rubric coverage')
    expect(run.stderr).toContain('Pending gate failed: 2 pending cases in this run (fixtures/docuctl-rollback: uncertain-wording, not-reviewed)')
    expect(run.exitCode).toBe(1)
  })
})

describe('two Vitest projects, each with rubric()', () => {
  const twoProjects = async () => {
    const root = await makeProject({ 'a/fixtures/docuctl-rollback': null, 'b/fixtures/docuctl-rollback': null })
    return root
  }
  const projectsConfig = (root: string, plugins: (name: string) => ReturnType<typeof rubric>) => ({
    test: {
      projects: ['a', 'b'].map((name) => ({ plugins: [plugins(name)], test: { name, root: join(root, name), include: [] } })),
    },
  })

  test.each([
    ['its own plugin instance', () => (name: string) => rubric({ reporter: { outputFile: false }, pending: name === 'a' ? 'fail' : 'todo' })],
    [
      'one shared plugin instance',
      () => {
        const shared = rubric({ reporter: { outputFile: false }, pending: 'fail' })
        return () => shared
      },
    ],
  ] as const)("each project with %s: both projects' fixtures are reported and gated, named by project", async (_name, makePlugins) => {
    const root = await twoProjects()
    const run = await runVitest({ root, config: projectsConfig(root, makePlugins()) })
    expect(run.tests.filter((item) => item.state === 'passed')).toHaveLength(6)
    const block = run.stdout.slice(run.stdout.indexOf(' Rubric coverage'))
    expect(block).toContain('  fixtures/docuctl-rollback [a] · docuctl-rollback-contrasts (criteria)')
    expect(block).toContain('  fixtures/docuctl-rollback [b] · docuctl-rollback-contrasts (criteria)')
    expect(block).toMatch(/total · 2 fixtures\n {4}execution coverage {2}12 of 16 cases executed · 4 todo/)
    expect(run.stderr).toContain('Pending gate failed of project "a": 2 pending cases in this run (fixtures/docuctl-rollback: uncertain-wording, not-reviewed)')
    expect(run.stderr.includes('Pending gate failed of project "b"')).toBe(_name === 'one shared plugin instance')
    expect(run.exitCode).toBe(1)
  })
})

test("a user's own test importing a fixture's rubric.json gets its JSON, not the fixture's tests", async () => {
  const root = await makeProject({ 'fixtures/docuctl-rollback': null })
  await writeFile(
    join(root, 'own.test.js'),
    [
      "import { expect, test } from 'vitest'",
      "import rubricJson, { criteria } from './fixtures/docuctl-rollback/rubric.json'",
      "test('reads the rubric', () => {",
      '  expect(criteria).toBe(rubricJson.criteria)',
      "  expect(rubricJson.criteria.map((criterion) => criterion.id)).toEqual(['command', 'preconditions', 'database_scope', 'verification', 'support'])",
      '})',
    ].join('\n'),
  )
  const run = await runVitest({ root, cli: { include: ['*.test.js'] } })
  const own = run.tests.filter((item) => item.module === 'own.test.js')
  expect(own.map((item) => `${item.name}: ${item.state}`)).toEqual(['reads the rubric: passed'])
  // The fixture still runs once, as its own module.
  expect(run.tests.filter((item) => item.module === 'fixtures/docuctl-rollback/rubric.json')).toHaveLength(8)
})
