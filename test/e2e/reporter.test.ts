import { cp, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { runVitest, type VitestRun } from '../helpers/run-vitest.js'
import { bundledProject, makeProject, removeFileScratch } from '../helpers/scratch.js'

afterAll(removeFileScratch)

/**
 * One run over the unedited bundled fixtures, shared by the tests that only read it: it also
 * writes the JSON report (the default path, below its root) and a GitHub job summary.
 */
let shared: Promise<{ root: string; run: VitestRun; summary: string }> | undefined
function bundledRun(): Promise<{ root: string; run: VitestRun; summary: string }> {
  shared ??= (async () => {
    const root = await bundledProject(undefined, 'file')
    const summary = join(root, 'summary.md')
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary)
    try {
      return { root, run: await runVitest({ root, plugin: { reporter: { outputFile: '.vitest-rubric/report.json' } } }), summary }
    } finally {
      vi.unstubAllEnvs()
    }
  })()
  return shared
}

function rubricBlock(run: VitestRun): string {
  return run.stdout.slice(run.stdout.indexOf(' Rubric coverage')).trimEnd()
}

describe('the rubric coverage report', () => {
  test('the bundled fixtures: execution coverage apart from review coverage and outcomes', async () => {
    const { run } = await bundledRun()
    expect(run.counts).toBe('10 passed | 7 failed | 3 todo')
    expect(rubricBlock(run)).toMatchInlineSnapshot(`
      " Rubric coverage

        fixtures/debate-benchmark · debate-benchmark (scored)
          origin              Authored example transcripts and reviewer annotations for ten benchmark cases; not a run of a real debate system and not a human-rating study.
          execution coverage  9 of 10 cases executed · 1 todo · 0 filtered out
          review coverage     9 of 10 scored · 1 pending (manual review or no review) · 0 refused
          outcomes            6 passed · 3 failed of 9 scored · 67% passed (95% interval 35%–88%)
          pending    unscoreable-silent-critique [development]: manual review: only 2 of 6 dimensions applicable (at least 4 needed)
          benchmark                           system    baseline
            issue_discovery_recall            0.9688      0.8750
            issue_discovery_precision         0.9074      0.9375
            defense_calibration               0.7972      0.1875
            debate_resolution_quality         0.8333      0.4375
            empirical_test_diagnosticity      0.5000      0.5000
            final_verdict_correctness         0.8571      0.3333
            pass fraction                     0.6667      0.2500
            passed / scoreable                 6 / 9       2 / 8
            mean                              0.8474      0.5625
            unscoreable (manual review)            1           2
            margin over the baseline 0.2849 (enough, at least 0.10 needed)
            pass fraction 0.6667, Wilson 95% interval [0.3542, 0.8794] over 9 scoreable cases
            mean score 0.8474, SE 0.0605; baseline 0.5625, SE 0.0498
            paired margin 0.2815 over 8 cases scoreable for both, SE 0.108, paired bootstrap 95% interval [0.0619, 0.4469]; its lower bound does not clear 0.10
            the baseline gate compares the point estimate, as the rubric states it
          ✗ benchmark passes: fails: 6 of 9 scoreable cases pass, 0.6667 < benchmark_pass_fraction 0.75; mean score 0.8474 ≥ overall_case_pass 0.65; 1 case excluded for manual review
          ✓ beats the trivial baseline by ≥ 0.10: beats the baseline: debate mean 0.8474 − baseline mean 0.5625 = margin 0.2849 ≥ 0.10 (debate over 9 scoreable cases, baseline over 8)

        fixtures/docuctl-rollback · docuctl-rollback-contrasts (criteria)
          origin              Authored example judgements for eight contrast answers; not a human-rating study and not a model judge.
          execution coverage  6 of 8 cases executed · 2 todo · 0 filtered out
          review coverage     6 of 8 graded · 2 pending · 0 refused
          outcomes            3 accepted · 3 rejected of 6 graded · 50% accepted (95% interval 19%–81%)
          pending    uncertain-wording [development]: uncertain on support
                     not-reviewed [development]: no review
          criteria   command: 1 failed · verification: 1 failed · support: 2 failed, 1 uncertain

        total · 2 fixtures
          execution coverage  15 of 18 cases executed · 3 todo · 0 filtered out
          review coverage     15 of 18 graded · 3 pending · 0 refused
          outcomes            scored: 6 passed · 3 failed of 9 scored · 67% passed (95% interval 35%–88%); criteria: 3 accepted · 3 rejected of 6 graded · 50% accepted (95% interval 19%–81%)"
    `)
  })

  test('a -t filter shrinks what ran, never the candidates', async () => {
    const root = await bundledProject(['docuctl-rollback'])
    const run = await runVitest({ root, cli: { testNamePattern: 'paraphrase' } })
    expect(run.counts).toBe('1 passed | 7 skipped')
    expect(rubricBlock(run)).toMatchInlineSnapshot(`
      " Rubric coverage

        fixtures/docuctl-rollback · docuctl-rollback-contrasts (criteria)
          origin              Authored example judgements for eight contrast answers; not a human-rating study and not a model judge.
          execution coverage  1 of 8 cases executed · 0 todo · 7 filtered out
          review coverage     6 of 8 graded · 2 pending · 0 refused
          outcomes            3 accepted · 3 rejected of 6 graded · 50% accepted (95% interval 19%–81%)
          pending    uncertain-wording [development]: uncertain on support
                     not-reviewed [development]: no review
          criteria   command: 1 failed · verification: 1 failed · support: 2 failed, 1 uncertain"
    `)
  })

  test('n blob shards merged print exactly what one run prints', async () => {
    const root = await bundledProject()
    await cp(join(root, 'fixtures/docuctl-rollback'), join(root, 'fixtures/docuctl-copy'), { recursive: true })
    const single = await runVitest({ root })
    const blobs = join(root, '.blobs')
    for (const index of [1, 2]) {
      await runVitest({ root, cli: { shard: `${index}/2`, reporters: ['blob'], outputFile: join(blobs, `${index}.json`) } })
    }
    const merged = await runVitest({ root, cli: { mergeReports: blobs } })
    expect(rubricBlock(merged)).toBe(rubricBlock(single))
    expect(rubricBlock(single)).toContain('total · 3 fixtures')
    expect(rubricBlock(single)).toContain('execution coverage  21 of 26 cases executed · 5 todo · 0 filtered out')
  })

  test('refused cases are counted apart from graded and pending, each with its error', async () => {
    const root = await makeProject({
      'fixtures/docuctl-rollback': async (fixture) => {
        await fixture.editCases((cases) => {
          cases.cases[0]!.input.question = 'How do I roll back production?'
          cases.cases[3]!.input.answer.text += ' Also, it is fast.'
        })
      },
    })
    const run = await runVitest({ root })
    expect(rubricBlock(run)).toMatchInlineSnapshot(`
      " Rubric coverage

        fixtures/docuctl-rollback · docuctl-rollback-contrasts (criteria)
          origin              Authored example judgements for eight contrast answers; not a human-rating study and not a model judge.
          execution coverage  6 of 8 cases executed · 2 todo · 0 filtered out
          review coverage     4 of 8 graded · 2 pending · 2 refused
          outcomes            2 accepted · 2 rejected of 4 graded · 50% accepted (95% interval 15%–85%)
          pending    uncertain-wording [development]: uncertain on support
                     not-reviewed [development]: no review
          refused    complete [development]: fixtures/docuctl-rollback/cases.json › cases[0] › input › question (case "complete"): the question differs from the task fixtures/docuctl-rollback/rubric.json was written for, so its criteria do not apply.
                     unsupported-guarantee [development]: fixtures/docuctl-rollback/annotations.json › reviews[3] › answer_sha256 (case "unsupported-guarantee"): the answer changed since it was reviewed: the judgement describes another answer.
          criteria   command: 1 failed · verification: 1 failed · support: 1 failed, 1 uncertain"
    `)
  })

  test('zero graded cases: no completed reviews and no quality figure', async () => {
    const root = await makeProject({
      'fixtures/docuctl-rollback': async (fixture) => {
        await fixture.editAnnotations((annotations) => {
          annotations.reviews = []
        })
        for (const id of ['complete', 'paraphrase', 'negation', 'unsupported-guarantee', 'missing-verification', 'wrong-command', 'uncertain-wording']) {
          await fixture.acknowledgeReview(id)
        }
      },
    })
    const run = await runVitest({ root })
    expect(run.counts).toBe('8 todo')
    expect(rubricBlock(run)).toMatchInlineSnapshot(`
      " Rubric coverage

        fixtures/docuctl-rollback · docuctl-rollback-contrasts (criteria)
          origin              Authored example judgements for eight contrast answers; not a human-rating study and not a model judge.
          execution coverage  0 of 8 cases executed · 8 todo · 0 filtered out
          review coverage     0 of 8 graded · 8 pending · 0 refused
          outcomes            no completed reviews: no quality figure
          pending    complete [development]: no review
                     paraphrase [development]: no review
                     negation [development]: no review
                     unsupported-guarantee [development]: no review
                     missing-verification [development]: no review
                     wrong-command [development]: no review
                     uncertain-wording [development]: no review
                     not-reviewed [development]: no review"
    `)
    expect(rubricBlock(run)).not.toMatch(/\d+ accepted/)
  })

  test('a refused fixture is shown with its error instead of figures', async () => {
    const root = await makeProject({
      'fixtures/docuctl-rollback': async (fixture) => {
        await fixture.editCases((cases) => {
          cases.cases[1]!.id = 'complete'
        })
      },
    })
    const run = await runVitest({ root })
    expect(rubricBlock(run)).toContain('fixture refused: fixtures/docuctl-rollback/cases.json › cases[1] › id: the case id is already used by cases[0].')
  })
})

describe('the JSON report and the CI summary', () => {
  test('the JSON report holds the figures, every decision and both identities of each case set', async () => {
    const { root } = await bundledRun()
    const report = JSON.parse(await readFile(join(root, '.vitest-rubric/report.json'), 'utf8'))
    const docuctl = report.fixtures.find((fixture: { fixture: string }) => fixture.fixture === 'fixtures/docuctl-rollback')
    expect(docuctl.total).toEqual({
      split: 'all',
      execution: { candidates: 8, executed: 6, todo: 2, filtered: 0 },
      review: {
        candidates: 8,
        graded: 6,
        pending: 2,
        refused: 0,
        outcomes: { accepted: 3, rejected: 3, rate: 0.5, interval: [expect.closeTo(0.1876, 4), expect.closeTo(0.8124, 4)] },
      },
    })
    expect(docuctl.splits).toEqual([
      {
        split: 'development',
        execution: { candidates: 8, executed: 6, todo: 2, filtered: 0 },
        review: {
          candidates: 8,
          graded: 6,
          pending: 2,
          refused: 0,
          outcomes: { accepted: 3, rejected: 3, rate: 0.5, interval: [expect.closeTo(0.1876, 4), expect.closeTo(0.8124, 4)] },
        },
      },
    ])
    expect(docuctl.record.decisions['wrong-command']).toMatchObject({ status: 'rejected', reason: 'command, support' })
    // Who made the judgements, as annotations.json › origin says: a CI artifact tells a study from an authored example.
    const annotations = JSON.parse(await readFile(join(root, 'fixtures/docuctl-rollback/annotations.json'), 'utf8'))
    expect(docuctl.origin).toBe(annotations.origin)
    expect(docuctl.record.identities).toEqual({
      caseSetSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      gradedSetSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      files: {
        'rubric.json': '3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228',
        'source.txt': '2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2',
        'cases.json': expect.stringMatching(/^[0-9a-f]{64}$/),
        'annotations.json': expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    })
    const debate = report.fixtures.find((fixture: { fixture: string }) => fixture.fixture === 'fixtures/debate-benchmark')
    expect(debate.summary.system).toMatchObject({ scoreable: 9, passed: 6, unscoreable: 1 })
    expect(debate.summary.margin).toBeCloseTo(0.2849, 4)
    expect(report.total).toMatchObject({ fixtures: 2, review: { candidates: 18, graded: 15, pending: 3, refused: 0 } })
    expect(report.total.outcomes).toEqual({
      scored: expect.objectContaining({ accepted: 6, rejected: 3 }),
      criteria: expect.objectContaining({ accepted: 3, rejected: 3, rate: 0.5 }),
    })
    expect(report.pendingGates).toEqual([
      {
        project: '',
        policy: 'todo',
        pending: 3,
        where: ['fixtures/debate-benchmark: unscoreable-silent-critique', 'fixtures/docuctl-rollback: uncertain-wording, not-reviewed'],
        passed: true,
      },
    ])
  })

  test('with GITHUB_STEP_SUMMARY set, a Markdown table of the same figures is appended', async () => {
    const { summary } = await bundledRun()
    expect(await readFile(summary, 'utf8')).toMatchInlineSnapshot(`
      "## Rubric coverage

      | fixture | split | executed | todo | filtered | graded | pending | refused | outcomes |
      |---|---|--:|--:|--:|--:|--:|--:|---|
      | \`fixtures/debate-benchmark\` | all | 9/10 | 1 | 0 | 9/10 | 1 | 0 | 6 passed, 3 failed; 67% passed (95% interval 35%–88%) |
      | \`fixtures/docuctl-rollback\` | all | 6/8 | 2 | 0 | 6/8 | 2 | 0 | 3 accepted, 3 rejected; 50% accepted (95% interval 19%–81%) |
      | **total** | all | 15/18 | 3 | 0 | 15/18 | 3 | 0 | scored: 6 passed, 3 failed; 67% passed (95% interval 35%–88%); criteria: 3 accepted, 3 rejected; 50% accepted (95% interval 19%–81%) |

      **Who made the judgements** (\`annotations.json › origin\`):

      - \`fixtures/debate-benchmark\`: Authored example transcripts and reviewer annotations for ten benchmark cases; not a run of a real debate system and not a human-rating study.
      - \`fixtures/docuctl-rollback\`: Authored example judgements for eight contrast answers; not a human-rating study and not a model judge.

      **Pending review** (neither passed nor failed):

      - \`fixtures/debate-benchmark\` unscoreable-silent-critique (development): manual review: only 2 of 6 dimensions applicable (at least 4 needed)
      - \`fixtures/docuctl-rollback\` uncertain-wording (development): uncertain on support
      - \`fixtures/docuctl-rollback\` not-reviewed (development): no review

      **Benchmark \`fixtures/debate-benchmark\`**: margin over the baseline 0.2849 (at least 0.10 needed); benchmark gate failed, baseline margin passed.

      | | system | baseline |
      |---|--:|--:|
      | issue_discovery_recall | 0.9688 | 0.8750 |
      | issue_discovery_precision | 0.9074 | 0.9375 |
      | defense_calibration | 0.7972 | 0.1875 |
      | debate_resolution_quality | 0.8333 | 0.4375 |
      | empirical_test_diagnosticity | 0.5000 | 0.5000 |
      | final_verdict_correctness | 0.8571 | 0.3333 |
      | pass fraction | 0.6667 (6/9) | 0.2500 (2/8) |
      | mean | 0.8474 | 0.5625 |
      | unscoreable (manual review) | 1 | 2 |

      - pass fraction 0.6667, Wilson 95% interval [0.3542, 0.8794] over 9 scoreable cases
      - mean score 0.8474, SE 0.0605; baseline 0.5625, SE 0.0498
      - paired margin 0.2815 over 8 cases scoreable for both, SE 0.108, paired bootstrap 95% interval [0.0619, 0.4469]; its lower bound does not clear 0.10
      - the baseline gate compares the point estimate, as the rubric states it

      **Checks** of \`fixtures/debate-benchmark\`:

      - ✗ failed: benchmark passes: fails: 6 of 9 scoreable cases pass, 0.6667 < benchmark_pass_fraction 0.75; mean score 0.8474 ≥ overall_case_pass 0.65; 1 case excluded for manual review
      - ✓ passed: beats the trivial baseline by ≥ 0.10: beats the baseline: debate mean 0.8474 − baseline mean 0.5625 = margin 0.2849 ≥ 0.10 (debate over 9 scoreable cases, baseline over 8)
      "
    `)
  })
})

test('development and held_out are never merged into one figure', async () => {
  const root = await makeProject({
    'fixtures/docuctl-rollback': async (fixture) => {
      await fixture.editCases((cases) => {
        for (const index of [1, 4, 7]) cases.cases[index]!.split = 'held_out'
      })
    },
  })
  const run = await runVitest({ root })
  expect(rubricBlock(run)).toMatchInlineSnapshot(`
    " Rubric coverage

      fixtures/docuctl-rollback · docuctl-rollback-contrasts (criteria)
        origin              Authored example judgements for eight contrast answers; not a human-rating study and not a model judge.
        execution coverage  6 of 8 cases executed · 2 todo · 0 filtered out
        review coverage     6 of 8 graded · 2 pending · 0 refused
        outcomes            3 accepted · 3 rejected of 6 graded · 50% accepted (95% interval 19%–81%)
        development
          execution coverage  4 of 5 cases executed · 1 todo · 0 filtered out
          review coverage     4 of 5 graded · 1 pending · 0 refused
          outcomes            2 accepted · 2 rejected of 4 graded · 50% accepted (95% interval 15%–85%)
        held_out
          execution coverage  2 of 3 cases executed · 1 todo · 0 filtered out
          review coverage     2 of 3 graded · 1 pending · 0 refused
          outcomes            1 accepted · 1 rejected of 2 graded · 50% accepted (95% interval 9%–91%)
        pending    uncertain-wording [development]: uncertain on support
                   not-reviewed [held_out]: no review
        criteria   command: 1 failed · verification: 1 failed · support: 2 failed, 1 uncertain"
  `)
  expect(run.tests.find((item) => item.name === 'paraphrase')?.fullName).toBe('held_out > paraphrase')
})

test('named explicitly in reporters as well as added by the plugin, the block is printed once', async () => {
  const { RubricReporter } = await import('../../src/reporter/index.js')
  const root = await bundledProject(['docuctl-rollback'])
  const run = await runVitest({ root, cli: { reporters: ['default', new RubricReporter({ outputFile: false })] } })
  expect(run.stdout.split(' Rubric coverage').length - 1).toBe(1)
})

test("a fixture whose origin is still init's placeholder is shown with its origin not given, and how to give it", async () => {
  const root = await makeProject({})
  const init = await runCli(['init', 'fixtures/lab', '--template', 'docuctl'], root)
  expect(init.code).toBe(0)
  const run = await runVitest({ root })
  expect(rubricBlock(run)).toContain(
    '    origin              not given (annotations.json › origin): `vitest-rubric origin <dir> --set` says who or what made the judgements',
  )
})
