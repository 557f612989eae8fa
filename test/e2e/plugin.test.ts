import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { makeProject, removeFileScratch } from '../helpers/scratch.js'
import { runVitest } from '../helpers/run-vitest.js'

const DOCUCTL_STATES = [
  'development > complete: passed',
  'development > paraphrase: passed',
  'development > negation: passed',
  'development > unsupported-guarantee: failed',
  'development > missing-verification: failed',
  'development > wrong-command: failed',
  'development > uncertain-wording — pending: uncertain on support: todo',
  'development > not-reviewed — pending: no review: todo',
]

const states = (run: Awaited<ReturnType<typeof runVitest>>) => run.tests.map((item) => `${item.fullName}: ${item.state}`)

afterAll(removeFileScratch)

/** One run over an unedited copy of the bundled docuctl fixture, shared by the tests that only read it. */
let shared: ReturnType<typeof runVitest> | undefined
function docuctlRun(): ReturnType<typeof runVitest> {
  shared ??= makeProject({ 'fixtures/docuctl-rollback': null }, 'file').then((root) => runVitest({ root }))
  return shared
}

describe('one test per case', () => {
  test('the bundled contrasts: 3 passed, 3 failed, 2 todo', async () => {
    const run = await docuctlRun()
    expect(run.counts).toBe('3 passed | 3 failed | 2 todo')
    expect(states(run)).toEqual(DOCUCTL_STATES)
    expect(run.exitCode).toBe(1)
  })

  test('a rejected case fails with each failed criterion, its reason, quote and span', async () => {
    const run = await docuctlRun()
    const rejected = run.tests.filter((item) => item.name === 'wrong-command' || item.name === 'missing-verification')
    expect(rejected.map((item) => item.errors.join('\n'))).toMatchInlineSnapshot(`
      [
        "rejected: 1 criterion does not meet the rubric
        ✗ verification: Tell the reader to check service health after rollback.
            reason: Omission: the answer never asks for a service health check after the rollback.
            quote:  "After the rollback, check service health."
            span:   no span: omission",
        "rejected: 2 criteria do not meet the rubric
        ✗ command: Give the exact docuctl 3 staging command for release r41.
            reason: Uses an older command syntax instead of the docuctl 3 command the guide gives.
            quote:  "Use \`docuctl releases rollback r41 --environment staging\` to select release r41."
            span:   "\`docuctl rollback r41 --env staging\`"
        ✗ support: Every material claim must be supported by this source; do not invent guarantees.
            reason: The guide does not document this command form, so the answer asserts something the source does not support.
            quote:  "The command changes the deployed service version. It does not restore database contents."
            span:   "docuctl rollback r41 --env staging"",
      ]
    `)
  })

  test("each test carries its decision and split as meta, not its ratings; its module the fixture's coverage", async () => {
    const run = await docuctlRun()
    expect(run.tests.find((item) => item.name === 'wrong-command')?.meta).toEqual({
      role: 'case',
      id: 'wrong-command',
      split: 'development',
      status: 'rejected',
      reason: 'command, support',
    })
    expect(run.tests.find((item) => item.name.startsWith('not-reviewed'))?.meta).toMatchObject({ status: 'pending', reason: 'no review' })
    expect(run.modules[0]?.meta).toMatchObject({
      fixture: 'fixtures/docuctl-rollback',
      kind: 'criteria',
      name: 'docuctl-rollback-contrasts',
      coverage: { candidates: 8, graded: 6, pending: 2, refused: 0, outcomes: { accepted: 3, rejected: 3 } },
    })
  })

  test('a refused case fails with the full binding error while the others are decided', async () => {
    const root = await makeProject({
      'fixtures/docuctl-rollback': async (fixture) => {
        await fixture.editCases((cases) => {
          cases.cases[1]!.input.answer.text += ' Edited after review.'
        })
      },
    })
    const run = await runVitest({ root })
    expect(run.counts).toBe('2 passed | 4 failed | 2 todo')
    const refused = run.tests.find((item) => item.name === 'paraphrase')
    expect(refused?.meta?.status).toBe('refused')
    expect(refused?.errors[0]).toContain('refused: fixtures/docuctl-rollback/annotations.json › reviews[1] › answer_sha256 (case "paraphrase")')
    expect(refused?.errors[0]).toContain(
      'fix:      re-read the answer and revise the review, then run `vitest-rubric bind fixtures/docuctl-rollback --case paraphrase`',
    )
  })

  test('a fixture-level defect fails that module with the error; the others still run', async () => {
    const root = await makeProject({
      'fixtures/good': null,
      'fixtures/broken': async (fixture) => {
        await fixture.editCases((cases) => {
          cases.cases[2]!.id = 'complete'
        })
      },
    })
    const run = await runVitest({ root })
    expect(run.exitCode).toBe(1)
    const broken = run.modules.find((module) => module.id === 'fixtures/broken/rubric.json')
    expect(run.modules.map(({ id, state }) => `${id}: ${state}`).sort()).toEqual(['fixtures/broken/rubric.json: failed', 'fixtures/good/rubric.json: failed'])
    expect(broken?.errors).toEqual([
      'fixtures/broken/cases.json › cases[2] › id: the case id is already used by cases[0].\n  found:    "complete"\n  fix:      give every case its own id: reviews are matched to cases by id.',
    ])
    expect(run.tests.filter((item) => item.module === 'fixtures/good/rubric.json')).toHaveLength(8)
    expect(run.stderr + run.stdout).toContain('FixtureError')
  })

  test('a directory with the markers of both kinds fails both of its modules, with no test run', async () => {
    const debateRubric = await readFile(join(import.meta.dirname, '../../fixtures/debate-benchmark/evaluation_rubric.json'))
    const root = await makeProject({
      'fixtures/both': async (fixture) => writeFile(join(fixture.dir, 'evaluation_rubric.json'), debateRubric),
    })
    const run = await runVitest({ root })
    expect(run.exitCode).toBe(1)
    expect(run.tests).toEqual([])
    expect(run.modules.map(({ id, state, errors }) => [id, state, errors[0]?.split('\n')[0]])).toEqual(
      ['fixtures/both/evaluation_rubric.json', 'fixtures/both/rubric.json'].map((id) => [
        id,
        'failed',
        'fixtures/both: the directory holds the marker files of 2 kinds of fixture, so which one it is would be a guess.',
      ]),
    )
  })

  test("the plugin coexists with the project's own test files", async () => {
    const root = await makeProject({ 'fixtures/docuctl-rollback': null })
    await writeFile(join(root, 'own.test.js'), "import { test, expect } from 'vitest'\ntest('own', () => expect(1).toBe(1))\n")
    const run = await runVitest({ root, cli: { include: ['*.test.js'] } })
    expect(run.tests.map((item) => item.name)).toContain('own')
    expect(run.counts).toBe('4 passed | 3 failed | 2 todo')
  })
})

describe('discovery, filters and shards', () => {
  // A glob that matches nothing fails the run: test/e2e/bad-input.test.ts.
  test('include points discovery at other directories', async () => {
    const root = await makeProject({ 'elsewhere/docuctl': null })
    const found = await runVitest({ root, plugin: { include: 'elsewhere/*' } })
    expect(found.counts).toBe('3 passed | 3 failed | 2 todo')
  })

  test('exclude leaves directories out', async () => {
    const root = await makeProject({ 'fixtures/a': null, 'fixtures/wip/b': null })
    const run = await runVitest({ root, plugin: { exclude: 'fixtures/wip' } })
    expect(run.modules.map((module) => module.id)).toEqual(['fixtures/a/rubric.json'])
  })

  test('a path filter selects one fixture directory and -t one case', async () => {
    const root = await makeProject({ 'fixtures/docuctl-rollback': null, 'fixtures/other': null })
    const run = await runVitest({ root, filters: ['fixtures/docuctl-rollback'], cli: { testNamePattern: 'paraphrase' } })
    expect(run.modules.map((module) => module.id)).toEqual(['fixtures/docuctl-rollback/rubric.json'])
    expect(run.counts).toBe('1 passed | 7 skipped')
    expect(run.exitCode).toBe(0)
  })

  test('shards merged give the same states and counts as one run', async () => {
    const root = await makeProject({
      'fixtures/a': null,
      'fixtures/b': async (fixture) => {
        await fixture.editCases((cases) => {
          cases.cases[0]!.input.question = 'Another question?'
        })
      },
      'fixtures/c': null,
    })
    const single = await runVitest({ root })
    const blobs = join(root, '.blobs')
    for (const index of [1, 2]) {
      await runVitest({ root, cli: { shard: `${index}/2`, reporters: ['blob'], outputFile: join(blobs, `shard-${index}.json`) } })
    }
    const merged = await runVitest({ root, cli: { mergeReports: blobs } })
    expect(merged.counts).toBe(single.counts)
    expect(merged.counts).toBe('8 passed | 10 failed | 6 todo')
    expect(states(merged).sort()).toEqual(states(single).sort())
    expect(merged.exitCode).toBe(1)
  })
})

describe('recorded decisions', () => {
  async function recordedProject() {
    const root = await makeProject({ 'fixtures/docuctl-rollback': null })
    const dir = join(root, 'fixtures/docuctl-rollback')
    expect((await runCli(['decisions', dir], root)).code).toBe(0)
    return { root, dir, record: join(dir, 'decisions.record.json') }
  }

  test('a matching record leaves the run as the decisions make it', async () => {
    const { root } = await recordedProject()
    const run = await runVitest({ root })
    expect(run.counts).toBe('3 passed | 3 failed | 2 todo')
    expect(run.modules[0]?.errors).toEqual([])
  })

  test('a changed decision fails the module with a readable diff; -u rewrites the record', async () => {
    const { root, dir, record } = await recordedProject()
    const fixture = (await import('../helpers/fixture-copy.js')).editableFixture(dir)
    await fixture.editAnnotations((annotations) => {
      annotations.reviews[4]!.judgements['verification']!.rating = 'meets'
    })
    await fixture.acknowledgeReview('missing-verification')
    const before = await readFile(record, 'utf8')

    const run = await runVitest({ root })
    expect(run.counts).toBe('4 passed | 2 failed | 2 todo')
    expect(run.modules[0]?.errors[0]).toMatchInlineSnapshot(`
      "the decisions or bindings differ from decisions.record.json:
        full case set: b7879a046f1a… → c30873c93ead…
        graded subset: b914bb4a60cd… → e348c4160e39…
        cases.json: ee46e4a39ac5… → ef9a8080e97b…
        annotations.json: 4e594169e12e… → 090bbb504e4a…
        missing-verification: rejected (verification) → accepted
      If the change is intended, run \`vitest -u\` to rewrite the record, then review and commit its diff."
    `)
    expect(await readFile(record, 'utf8')).toBe(before)

    const updated = await runVitest({ root, cli: { update: true } })
    expect(updated.modules[0]?.errors).toEqual([])
    const rewritten = JSON.parse(await readFile(record, 'utf8'))
    expect(rewritten.decisions['missing-verification'].status).toBe('accepted')

    const after = await runVitest({ root })
    expect(after.modules[0]?.errors).toEqual([])
  })

  test('-u never creates a record where none is kept', async () => {
    const root = await makeProject({ 'fixtures/docuctl-rollback': null })
    await runVitest({ root, cli: { update: true } })
    await expect(readFile(join(root, 'fixtures/docuctl-rollback/decisions.record.json'))).rejects.toThrow(/ENOENT/)
  })
})

describe('the pending policy', () => {
  test('todo (the default) keeps the run green when only pending cases remain', async () => {
    const root = await makeProject({ 'fixtures/docuctl-rollback': null })
    const run = await runVitest({ root, cli: { testNamePattern: 'complete|uncertain|not-reviewed' } })
    expect(run.counts).toBe('1 passed | 2 todo | 5 skipped')
    expect(run.exitCode).toBe(0)
  })

  test.each([
    ['fail', 'fail' as const, 1],
    ['at most 2', { max: 2 }, 0],
    ['at most 1', { max: 1 }, 1],
  ])('%s', async (_, pending, exitCode) => {
    const root = await makeProject({ 'fixtures/docuctl-rollback': null })
    const run = await runVitest({ root, plugin: { pending }, cli: { testNamePattern: 'complete|uncertain|not-reviewed' } })
    expect(run.counts).toBe('1 passed | 2 todo | 5 skipped')
    expect(run.exitCode).toBe(exitCode)
    if (exitCode === 1) expect(run.stderr).toContain('Pending gate failed: 2 pending cases in this run')
    else expect(run.stderr).not.toContain('Pending gate')
  })
})

test('removing a fixture file refuses the fixture, never runs zero tests silently', async () => {
  const root = await makeProject({ 'fixtures/docuctl-rollback': null })
  await rm(join(root, 'fixtures/docuctl-rollback/annotations.json'))
  const run = await runVitest({ root })
  expect(run.exitCode).toBe(1)
  expect(run.modules[0]?.errors[0]).toContain('annotations.json: the file is missing.')
})

test("matchers: true registers the matchers for the project's own tests", async () => {
  const root = await makeProject({ 'fixtures/docuctl-rollback': null })
  const getCase = JSON.stringify(new URL('../../src/core/kinds/criteria/access.ts', import.meta.url).pathname)
  const loadFixture = JSON.stringify(new URL('../../src/core/registry.ts', import.meta.url).pathname)
  await writeFile(
    join(root, 'own.test.js'),
    [
      "import { test, expect } from 'vitest'",
      `import { getCase } from ${getCase}`,
      `import { loadFixture } from ${loadFixture}`,
      "test('contrast fails support', async () => {",
      "  const fixture = await loadFixture('fixtures/docuctl-rollback')",
      "  expect(getCase(fixture, 'unsupported-guarantee')).toFailCriteria(['support'])",
      '})',
    ].join('\n'),
  )
  const run = await runVitest({ root, plugin: { matchers: true }, cli: { include: ['*.test.js'], testNamePattern: 'contrast' } })
  expect(run.tests.find((item) => item.name === 'contrast fails support')?.state).toBe('passed')
  const without = await runVitest({ root, cli: { include: ['*.test.js'], testNamePattern: 'contrast' } })
  expect(without.tests.find((item) => item.name === 'contrast fails support')?.errors[0]).toContain('Invalid Chai property: toFailCriteria')
})
