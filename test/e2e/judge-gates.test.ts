import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { ROOT, type AnnotationsJson, type FixtureCopy } from '../helpers/fixture-copy.js'
import { runVitest, type VitestRun } from '../helpers/run-vitest.js'
import { makeProject } from '../helpers/scratch.js'

/** Where the judge's labels differ from the adopted reviews of the bundled fixture: two false accepts on support, one on command. */
const DISAGREEMENTS: Record<string, string> = {
  'unsupported-guarantee.support': 'meets',
  'wrong-command.command': 'meets',
  'paraphrase.support': 'does_not_meet',
}

/** Labels by judge j1 (or another) of every reviewed case of a fixture, recorded in one import through the CLI. */
async function label(root: string, fixture: string, judge = 'j1'): Promise<void> {
  const annotations = JSON.parse(await readFile(join(root, fixture, 'annotations.json'), 'utf8')) as AnnotationsJson
  const labels = Object.fromEntries(
    annotations.reviews.map((review) => {
      const original = review.answer_id.replace(/-again$/, '')
      const judgements = Object.entries(review.judgements).map(([criterion, judgement]) => [
        criterion,
        {
          rating: DISAGREEMENTS[`${original}.${criterion}`] ?? judgement.rating,
          reason: `The judge's reason for ${criterion}.`,
          answer_span: judgement.answer_span,
        },
      ])
      return [review.answer_id, Object.fromEntries(judgements)]
    }),
  )
  const file = join(root, `labels-${fixture.replace(/\W/g, '-')}.json`)
  await writeFile(file, JSON.stringify(labels))
  const result = await runCli(['review', fixture, '--judge', judge, '--origin', 'model-x, prompt r1', '--from', file], root)
  expect(result.stderr).toBe('')
}

/** Each reviewed case twice (`<id>-again`, same answer and review): 14 reviewed cases, enough for kappa's bootstrap interval. */
async function doubled(fixture: FixtureCopy): Promise<void> {
  const annotations = await fixture.readJson<AnnotationsJson>('annotations.json')
  const reviewed = new Set(annotations.reviews.map((review) => review.answer_id))
  await fixture.editCases((cases) => {
    cases.cases.push(...cases.cases.filter((entry) => reviewed.has(entry.id)).map((entry) => ({ ...structuredClone(entry), id: `${entry.id}-again` })))
  })
  await fixture.editAnnotations((file) => {
    file.reviews.push(...file.reviews.map((review) => ({ ...structuredClone(review), answer_id: `${review.answer_id}-again` })))
  })
  for (const id of reviewed) await fixture.acknowledgeReview(`${id}-again`)
}

const judgeTests = (run: VitestRun) =>
  run.tests.filter((item) => item.name.startsWith('judge ')).map((item) => `${item.module.replace(/\/rubric\.json$/, '')} › ${item.name}: ${item.state}`)

describe('which fixtures a judge gate checks', () => {
  test('without fixtures globs, only the fixtures holding the judge’s labels; with them, the globs decide, and a named fixture without labels fails', {
    timeout: 120_000,
  }, async () => {
    const root = await makeProject({ 'fixtures/docuctl-labelled': null, 'fixtures/docuctl-plain': null })
    await label(root, 'fixtures/docuctl-labelled')

    const gate = { minKappa: -1, minCases: 10 }
    const labelled = await runVitest({ root, plugin: { judges: { j1: gate } } })
    // The fixture without labels is no failure: the gate does not check it.
    expect(judgeTests(labelled)).toEqual([
      'fixtures/docuctl-labelled › judge j1 agrees with reviewers on command: failed',
      'fixtures/docuctl-labelled › judge j1 agrees with reviewers on preconditions: failed',
      'fixtures/docuctl-labelled › judge j1 agrees with reviewers on database_scope: failed',
      'fixtures/docuctl-labelled › judge j1 agrees with reviewers on verification: failed',
      'fixtures/docuctl-labelled › judge j1 agrees with reviewers on support: failed',
    ])
    expect(labelled.stdout).not.toContain('does not exist')

    // A glob naming the fixture without labels: that one is checked, and fails saying why; the labelled one is not checked.
    const named = await runVitest({ root, plugin: { judges: { j1: { ...gate, fixtures: 'fixtures/docuctl-p*' } } } })
    expect(judgeTests(named)).toEqual(['fixtures/docuctl-plain › judge j1 agrees with reviewers: failed'])
    const failure = named.tests.find((item) => item.name === 'judge j1 agrees with reviewers')!
    expect(failure.errors[0]).toBe(
      'the gate names this fixture (fixtures: fixtures/docuctl-p*), and there are no labels by this judge: fixtures/docuctl-plain/judges/j1.json does not exist',
    )

    // A list of globs naming both.
    const both = await runVitest({ root, plugin: { judges: { j1: { ...gate, fixtures: ['fixtures/docuctl-labelled', 'fixtures/docuctl-plain'] } } } })
    expect(judgeTests(both)).toHaveLength(6)
  })

  test('a gate whose name no fixture’s labels bear fails the run at startup, naming the judge it most likely meant', { timeout: 120_000 }, async () => {
    const root = await makeProject({ 'fixtures/docuctl-labelled': null })
    await label(root, 'fixtures/docuctl-labelled')
    const gate = { minKappa: -1, minCases: 10 }
    // The contrast fixture's cases pass as recorded (the record written first, as in CI it is never written): the run's outcome is the gate's.
    expect((await runCli(['decisions', 'fixtures/docuctl-labelled'], root)).code).toBe(0)
    const green = await runVitest({ root, plugin: { expect: 'record' } })
    expect(green.exitCode, green.stdout + green.stderr).toBe(0)

    // `J1` for the labels of `j1`: no check would be added, and the run would pass.
    const typo = await runVitest({ root, plugin: { expect: 'record', judges: { J1: gate } } })
    expect(judgeTests(typo)).toEqual([])
    expect(typo.stderr.replaceAll(root, '<root>')).toContain(
      'vitest-rubric: the judge gate "J1" checks nothing: no fixture under <root> holds its labels (judges/J1.json), so it would add no check. Did you mean "j1" (fixtures/docuctl-labelled/judges/j1.json)? Name the gate as the judge\'s file is named.',
    )
    expect(typo.exitCode).toBe(1)

    // A name like none of the judges': no guess, and what to do instead.
    const none = await runVitest({ root, plugin: { expect: 'record', judges: { 'other-model': gate } } })
    expect(none.stderr).toContain(
      "holds its labels (judges/other-model.json), so it would add no check. Record the judge's labels (vitest-rubric judge, or review --judge), or give the gate fixtures globs",
    )
    expect(none.exitCode).toBe(1)
  })

  test('a gate named as an Object.prototype member checks only the fixtures holding its judge’s labels', { timeout: 120_000 }, async () => {
    const root = await makeProject({ 'fixtures/docuctl-labelled': null, 'fixtures/docuctl-plain': null })
    await label(root, 'fixtures/docuctl-labelled', 'constructor')
    const gate = { minKappa: -1, minCases: 10 }
    const run = await runVitest({ root, plugin: { judges: { constructor: gate, toString: gate } } })
    // No fixture holds toString's labels: its gate adds no check, as its warning says; constructor's checks its one fixture.
    expect(judgeTests(run)).toEqual([
      'fixtures/docuctl-labelled › judge constructor agrees with reviewers on command: failed',
      'fixtures/docuctl-labelled › judge constructor agrees with reviewers on preconditions: failed',
      'fixtures/docuctl-labelled › judge constructor agrees with reviewers on database_scope: failed',
      'fixtures/docuctl-labelled › judge constructor agrees with reviewers on verification: failed',
      'fixtures/docuctl-labelled › judge constructor agrees with reviewers on support: failed',
    ])
    expect(run.stderr).toContain('the judge gate "toString" checks nothing')
    expect(run.stderr).not.toContain('the judge gate "constructor" checks nothing')
    expect(run.stdout).not.toContain('does not exist')
  })

  test('a gate whose fixtures globs name no fixture fails the run at startup, for judge, compare and estimate gates alike', { timeout: 180_000 }, async () => {
    const root = await makeProject({ 'fixtures/docuctl-labelled': null })
    await label(root, 'fixtures/docuctl-labelled')
    expect((await runCli(['decisions', 'fixtures/docuctl-labelled'], root)).code).toBe(0)
    const gates = [
      [{ judges: { j1: { minKappa: -1, minCases: 10, fixtures: 'fixture/docuctl-*' } } }, 'the judge gate "j1"', '"fixture/docuctl-*"'],
      [
        { compare: { against: 'fixtures/docuctl-labelled', margin: 0, fixtures: 'fixture/v2' } },
        'the compare gate against "fixtures/docuctl-labelled"',
        '"fixture/v2"',
      ],
      [{ estimate: { judge: 'j1', min: 0.1, fixtures: 'fixture/docuctl-labelled' } }, 'the estimate gate on judge "j1"', '"fixture/docuctl-labelled"'],
    ] as const
    for (const [options, gate, globs] of gates) {
      const run = await runVitest({ root, plugin: { expect: 'record', ...options } })
      expect(run.stderr.replaceAll(root, '<root>')).toContain(
        `vitest-rubric: ${gate} checks nothing: its fixtures ${globs} match no fixture directory under <root> (a fixture directory holds rubric.json, or evaluation_rubric.json). Set its fixtures globs to where the fixtures it checks are.`,
      )
      expect(run.exitCode).toBe(1)
    }
  })

  test('a scored fixture is skipped with a note, never failed', { timeout: 60_000 }, async () => {
    const root = await makeProject({ 'fixtures/debate-benchmark': { from: join(ROOT, 'fixtures/debate-benchmark') } })
    const run = await runVitest({ root, plugin: { judges: { j1: { minKappa: 0.6, minCases: 20, fixtures: 'fixtures/*' } } } })
    expect(judgeTests(run)).toEqual([])
    expect(run.stdout).toContain(
      "note       on fixtures/debate-benchmark: the gate of judge j1 skips this fixture: scored calibration does not exist yet: a scored fixture's judges are not calibrated",
    )
  })
})

describe('maxFalseAccepts', () => {
  const support = (run: VitestRun) => run.tests.find((item) => item.name === 'judge j1 agrees with reviewers on support')!

  test('a count and a rate: the gate passes within the limit and fails above it, naming the cases', { timeout: 120_000 }, async () => {
    const root = await makeProject({ 'fixtures/lab': doubled })
    await label(root, 'fixtures/lab')
    // support: 4 judgements the reviewers rated does_not_meet, 2 of them labelled meets by the judge.
    const gate = { minKappa: -1, minCases: 10 }

    const count = await runVitest({ root, plugin: { judges: { j1: { ...gate, maxFalseAccepts: 2 } } } })
    expect(support(count).state).toBe('passed')
    const fewer = await runVitest({ root, plugin: { judges: { j1: { ...gate, maxFalseAccepts: 1 } } } })
    expect(support(fewer).state).toBe('failed')
    expect(support(fewer).errors[0]!.split('\n')[0]).toBe('2 false accepts (unsupported-guarantee, unsupported-guarantee-again), more than the 1 allowed')
    expect(support(fewer).errors[0]).toContain('false accepts: unsupported-guarantee, unsupported-guarantee-again')

    const rate = await runVitest({ root, plugin: { judges: { j1: { ...gate, maxFalseAccepts: { rate: 0.5 } } } } })
    expect(support(rate).state).toBe('passed')
    const lower = await runVitest({ root, plugin: { judges: { j1: { ...gate, maxFalseAccepts: { rate: 0.25 } } } } })
    expect(support(lower).state).toBe('failed')
    expect(support(lower).errors[0]!.split('\n')[0]).toBe(
      'false-accept rate 0.500, 2 false accepts (unsupported-guarantee, unsupported-guarantee-again) of 4 judgements the reviewers rated does_not_meet, above the rate 0.25 allowed',
    )
    // Without a limit, the same false accepts pass: the limit is what fails the gate.
    const none = await runVitest({ root, plugin: { judges: { j1: gate } } })
    expect(support(none).state).toBe('passed')
  })
})
