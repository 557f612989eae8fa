import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL, type AnnotationsJson } from '../helpers/fixture-copy.js'
import { runVitest } from '../helpers/run-vitest.js'
import { scratchDir } from '../helpers/scratch.js'

/** Where the judge's labels differ from the adopted reviews of the bundled fixture, as `case.criterion`. */
const DISAGREEMENTS: Record<string, string> = {
  'unsupported-guarantee.support': 'meets', // a false accept
  'wrong-command.command': 'meets', // a false accept
  'paraphrase.support': 'does_not_meet',
  'complete.verification': 'uncertain',
  'uncertain-wording.support': 'meets', // a pending case: a prediction
}

/** The bundled fixture with a judge's labels of every reviewed case, recorded through the CLI. */
async function labelled(
  origin: string | null = 'model-x, prompt r1',
): Promise<{ root: string; dir: string; run: (...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }> }> {
  const root = await scratchDir('judges')
  const dir = join(root, 'fixtures/lab')
  await cp(DOCUCTL, dir, { recursive: true })
  const run = (...args: string[]) => runCli(args, root)
  const annotations = JSON.parse(await readFile(join(dir, 'annotations.json'), 'utf8')) as AnnotationsJson
  for (const review of annotations.reviews) {
    const labels = Object.fromEntries(
      Object.entries(review.judgements).map(([criterion, judgement]) => [
        criterion,
        {
          rating: DISAGREEMENTS[`${review.answer_id}.${criterion}`] ?? judgement.rating,
          reason: `The judge's reason for ${criterion}.`,
          answer_span: judgement.answer_span,
        },
      ]),
    )
    const file = join(root, `labels-${review.answer_id}.json`)
    await writeFile(file, JSON.stringify(labels))
    const result = await run(
      'review',
      'fixtures/lab',
      '--case',
      review.answer_id,
      '--judge',
      'j1',
      ...(origin === null ? [] : ['--origin', origin]),
      '--from',
      file,
    )
    expect(result.stderr, review.answer_id).toBe('')
  }
  return { root, dir, run }
}

const row = (meets: number, doesNotMeet: number, uncertain: number) => ({ meets, does_not_meet: doesNotMeet, uncertain })

describe('judge calibration', () => {
  test('calibrate --json gives the known matrix, recalls, kappa and false accepts; the labels decide nothing', { timeout: 60_000 }, async () => {
    const { root, dir, run } = await labelled()
    const file = JSON.parse(await readFile(join(dir, 'judges/j1.json'), 'utf8'))
    expect(file.origin).toBe('model-x, prompt r1')
    expect(file.reviews).toHaveLength(7)

    const report = JSON.parse((await run('calibrate', 'fixtures/lab', '--json')).stdout)
    const j1 = report.judges.j1
    expect(j1.cases).toBe(7)
    expect(j1.stale).toBe(0)
    // With two independent reviews required, no case has them: each stays pending, and none is compared.
    const held = JSON.parse((await run('calibrate', 'fixtures/lab', '--json', '--min-reviews', '2')).stdout).judges.j1
    expect(held.cases).toBe(0)
    expect(held.predictions.pending).toBe(8)
    for (const criterion of Object.values(held.criteria) as { n: number }[]) expect(criterion.n).toBe(0)
    // command: six meets, all labelled meets; the one does_not_meet labelled meets.
    expect(j1.criteria.command).toMatchObject({
      n: 7,
      matrix: { meets: row(6, 0, 0), does_not_meet: row(1, 0, 0) },
      failure_recall: 0,
      pass_recall: 1,
      false_accepts: ['wrong-command'],
    })
    // The judge said meets everywhere: p_o = p_e = 6/7, so kappa is 0 (not undefined: the reviewers varied).
    expect(j1.criteria.command.kappa).toBeCloseTo(0, 12)
    // verification: p_o = 6/7, p_e = (6·5 + 1·1)/49, kappa = 11/18.
    expect(j1.criteria.verification).toMatchObject({ n: 7, matrix: { meets: row(5, 0, 1), does_not_meet: row(0, 1, 0) }, failure_recall: 1, false_accepts: [] })
    expect(j1.criteria.verification.pass_recall).toBeCloseTo(5 / 6, 12)
    expect(j1.criteria.verification.kappa).toBeCloseTo(11 / 18, 12)
    expect(j1.criteria.verification.percent_agreement).toBeCloseTo(6 / 7, 12)
    // support: the uncertain adopted judgement is no reference, so n = 6; p_o = 4/6, p_e = 20/36, kappa = 1/4.
    expect(j1.criteria.support).toMatchObject({
      n: 6,
      matrix: { meets: row(3, 1, 0), does_not_meet: row(1, 1, 0) },
      failure_recall: 0.5,
      pass_recall: 0.75,
      false_accepts: ['unsupported-guarantee'],
    })
    expect(j1.criteria.support.kappa).toBeCloseTo(0.25, 12)
    expect(j1.criteria.support.base_rate).toBeCloseTo(4 / 6, 12)
    // No variation is no kappa, with the reason, never 1.
    expect(j1.criteria.preconditions).toMatchObject({
      n: 7,
      kappa: null,
      kappa_ci: null,
      kappa_reason: 'no variation: the reviewers and the judge rated every case "meets"',
    })
    // Six cases are too few for a bootstrap interval: none, with the reason (intervals: test/core/engine/calibration.test.ts).
    expect(j1.criteria.support).toMatchObject({
      kappa_ci: null,
      kappa_bootstrap: null,
      kappa_ci_reason: 'cases to resample: 6, fewer than the 10 a bootstrap interval needs',
    })
    // Two pending cases: the judge labelled one, and predicts it accepted.
    expect(j1.predictions).toEqual({ pending: 2, labelled: 1, accepted: 1, rejected: 0, undecided: 0 })

    // The same labels again are no revision: nothing is written, and the command says so.
    const same = await run('review', 'fixtures/lab', '--case', 'complete', '--judge', 'j1', '--from', join(root, 'labels-complete.json'), '--replace')
    expect(same.stdout).toContain('the label was already so: nothing was written')

    const text = (await run('calibrate', 'fixtures/lab')).stdout
    expect(text).toContain('prediction, not review coverage: the judge predicts 1 accepted, 0 rejected of 2 pending cases (1 without a current label)')

    // The labels decide nothing: the decisions and the coverage are those of the fixture without them.
    const withJudge = JSON.parse((await run('evaluate', 'fixtures/lab', '--json')).stdout)
    const bare = JSON.parse((await runCli(['evaluate', DOCUCTL, '--json'], root)).stdout)
    expect(withJudge.coverage).toEqual(bare.coverage)
    expect(withJudge.decisions).toEqual(bare.decisions)
    // …and the decision record's identities do not name them: a new label asks no record update.
    expect(withJudge.identities).toEqual(bare.identities)
  })

  test('the judge gate: a check per criterion; editing the rubric makes every label stale, and the gate fails with that reason', {
    timeout: 120_000,
  }, async () => {
    const { root, dir, run } = await labelled()
    const plugin = { judges: { j1: { minKappa: -1, minCases: 10 } } }
    const first = await runVitest({ root, plugin })
    const checks = first.tests.filter((item) => item.name.startsWith('judge '))
    // With 6 or 7 cases there is no interval, so no lower bound to clear, even minKappa -1.
    expect(checks.map((item) => `${item.name}: ${item.state}`)).toEqual([
      'judge j1 agrees with reviewers on command: failed',
      'judge j1 agrees with reviewers on preconditions: failed',
      'judge j1 agrees with reviewers on database_scope: failed',
      'judge j1 agrees with reviewers on verification: failed',
      'judge j1 agrees with reviewers on support: failed',
    ])
    expect(checks[1]!.errors[0]).toContain('no kappa: no variation')
    expect(checks[4]!.errors[0]).toContain(
      'kappa 0.250, no interval (cases to resample: 6, fewer than the 10 a bootstrap interval needs), so no lower bound to compare with -1',
    )
    // The reporter's calibration block, and the pending cases' states unchanged by the labels.
    expect(first.stdout).toMatch(/judge calibration {3}j1 \(model-x, prompt r1\) · 7 cases with a current review and label/)
    expect(first.stdout).toMatch(/support +κ 0\.250 · n 6 · failure recall 0\.500 · false accepts: unsupported-guarantee/)
    expect(first.tests.filter((item) => item.state === 'todo').map((item) => item.name.split(' — ')[0])).toEqual(['uncertain-wording', 'not-reviewed'])

    const strict = await runVitest({ root, plugin: { judges: { j1: { minKappa: 0.6, minCases: 30 } } } })
    const support = strict.tests.find((item) => item.name === 'judge j1 agrees with reviewers on support')!
    expect(support.state).toBe('failed')
    expect(support.errors[0]).toContain('6 of 30 required cases')
    expect(support.errors[0]).toMatch(/reviewers \\ judge +meets +does_not_meet +uncertain\nmeets +3 +1 +0\ndoes_not_meet +1 +1 +0/)
    expect(support.errors[0]).toContain('false accepts: unsupported-guarantee')

    // A changed rubric: every label (and every adopted review) is stale.
    const rubric = join(dir, 'rubric.json')
    const text = await readFile(rubric, 'utf8')
    await writeFile(rubric, text.replace('"version": 1', '"version": 2'))
    const report = JSON.parse((await run('calibrate', 'fixtures/lab', '--json')).stdout).judges.j1
    expect(report.stale).toBe(7)
    expect(report.cases).toBe(0)
    expect(new Set(report.stale_cases.map((label: { reason: string }) => label.reason))).toEqual(
      new Set(['the rubric changed since these labels were produced: run the judge again']),
    )
    expect(report.criteria.support).toMatchObject({ n: 0, kappa: null, kappa_reason: 'no case has both a current adopted review and a current label' })

    const stale = await runVitest({ root, plugin })
    const after = stale.tests.filter((item) => item.name.startsWith('judge '))
    expect(after.map((item) => item.state)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed'])
    expect(after[0]!.errors[0]).toContain('0 of 10 required cases')
    expect(after[0]!.errors[0]).toContain('7 labels are stale: the rubric changed since these labels were produced: run the judge again')
  })

  test('a judge file for another fixture, a label of an unknown criterion, and one case labelled twice', { timeout: 60_000 }, async () => {
    const { dir, run } = await labelled()
    const path = join(dir, 'judges/j1.json')
    const original = await readFile(path, 'utf8')
    const document = JSON.parse(original)

    // Labels of another fixture's cases refuse the fixture, naming the file and the path.
    await writeFile(path, JSON.stringify({ ...document, reviews: [{ ...document.reviews[0], answer_id: 'another-fixtures-case' }] }))
    let result = await run('calibrate', 'fixtures/lab')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      /^fixtures\/lab\/judges\/j1\.json › reviews\[0\] › answer_id: the review names a case that fixtures\/lab\/cases\.json does not hold\./,
    )

    await writeFile(path, JSON.stringify({ ...document, reviews: [...document.reviews, document.reviews[1]] }))
    result = await run('calibrate', 'fixtures/lab')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^fixtures\/lab\/judges\/j1\.json › reviews\[7\] › answer_id: case "paraphrase" already has a review at reviews\[1\]/)

    // A label judging a criterion the rubric does not define is excluded from the figures, saying why.
    const unknown = structuredClone(document)
    unknown.reviews[0].judgements.nonsense = unknown.reviews[0].judgements.command
    await writeFile(path, JSON.stringify(unknown))
    const report = JSON.parse((await run('calibrate', 'fixtures/lab', '--json')).stdout).judges.j1
    expect(report.refused_cases).toEqual([{ id: 'complete', reason: 'the review judges a criterion that fixtures/lab/rubric.json does not define.' }])
    expect(report.cases).toBe(6)
    // …and cannot be recorded in the first place.
    result = await run('review', 'fixtures/lab', '--case', 'not-reviewed', '--judge', 'j1', '--rating', 'nonsense=meets', '--reason', 'nonsense=x')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^--rating nonsense: the rubric defines no criterion "nonsense"; nothing was written\./)
    // Nothing was rewritten behind the user's back.
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(unknown)

    // A judge is never interactive, never also a reviewer, and a judge without labels is named.
    expect((await run('review', 'fixtures/lab', '--case', 'complete', '--judge', 'j1')).stderr).toMatch(/a judge's labels come from its own run/)
    expect(
      (await run('review', 'fixtures/lab', '--case', 'complete', '--judge', 'j1', '--reviewer', 'alice', '--rating', 'command=meets', '--reason', 'command=x'))
        .stderr,
    ).toMatch(/^--judge: a review is by a reviewer or by a judge, not both; nothing was written\./)
    result = await run('calibrate', 'fixtures/lab', '--judge', 'j2')
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^fixtures\/lab\/judges\/j2\.json: there are no labels by the judge "j2"\.\n {2}expected: one of "j1"/)
  })

  test('a judge file whose origin is still the placeholder is shown as not given, never as an origin', { timeout: 60_000 }, async () => {
    const { root, dir, run } = await labelled(null)
    const file = JSON.parse(await readFile(join(dir, 'judges/j1.json'), 'utf8'))
    expect(file.origin).toBe('Labels by the automated judge j1: say which model and which revision of its prompt.')
    const text = (await run('calibrate', 'fixtures/lab')).stdout
    expect(text).toContain(
      '  judge j1 (fixtures/lab/judges/j1.json): origin not given (fixtures/lab/judges/j1.json › origin is still the placeholder: say there which model and which revision of its prompt, or pass --origin with the next label)\n',
    )
    const summary = join(root, 'summary.md')
    const before = process.env['GITHUB_STEP_SUMMARY']
    process.env['GITHUB_STEP_SUMMARY'] = summary
    try {
      const vitest = await runVitest({ root })
      expect(vitest.stdout).toMatch(/judge calibration {3}j1 \(origin not given\) · 7 cases with a current review and label/)
      expect(await readFile(summary, 'utf8')).toContain('`j1` (origin not given), 7 cases; 0 stale labels excluded.')
    } finally {
      if (before === undefined) delete process.env['GITHUB_STEP_SUMMARY']
      else process.env['GITHUB_STEP_SUMMARY'] = before
      await rm(summary, { force: true })
    }
  })
})
