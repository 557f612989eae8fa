import { writeFile, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { panelAgreement } from '../../../src/core/engine/agreement.js'
import { addCases } from '../../../src/core/engine/authoring/add.js'
import { fileSource } from '../../../src/core/engine/authoring/draft.js'
import { recordReview } from '../../../src/core/engine/authoring/review.js'
import { bindFixture } from '../../../src/core/engine/bind.js'
import { calibrateJudges } from '../../../src/core/engine/calibration.js'
import { compareKindFixtures } from '../../../src/core/compare/compare.js'
import { comparisonText } from '../../../src/core/compare/compare-text.js'
import { runJudge } from '../../../src/core/judges/judge-run.js'
import { evaluateFixture } from '../../../src/core/engine/evaluate.js'
import { evaluationJson } from '../../../src/core/engine/evaluation-json.js'
import { loadFixture } from '../../../src/core/engine/fixture.js'
import { createRegistry } from '../../../src/core/engine/registry.js'
import { fixtureStatus } from '../../../src/core/engine/status.js'
import { kinds } from '../../../src/core/registry.js'
import { pageCase, pageFixture } from '../../../src/web/page-data.js'
import { scratchDir } from '../../helpers/scratch.js'
import { verdictFixture } from '../../kinds/verdict/fixture.js'
import { verdictKind } from '../../kinds/verdict/index.js'

// A kind is its folder and one entry in a registry: the verdict kind (test/kinds/verdict/) is
// registered here only, and the engine loads, decides, binds, records, compares, judges and shows its
// fixtures as it does the shipped kinds', with no change anywhere else.

const registry = createRegistry([...kinds.kinds, verdictKind])
const source = fileSource('the test')

/** A verdict fixture with three answers, each pending until it is reviewed. */
async function capitals(): Promise<{ cwd: string; dir: string; options: { cwd: string; kinds: typeof registry } }> {
  const { cwd, dir } = await verdictFixture()
  const options = { cwd, kinds: registry }
  await addCases(
    dir,
    [
      { id: 'paris', answer: 'Paris.' },
      { id: 'lyon', answer: 'Lyon.' },
      { id: 'open', answer: 'Marseille?' },
    ],
    source,
    options,
  )
  return { cwd, dir, options }
}

describe('a third kind, registered only in this test', () => {
  test('is told by its marker file, and only by a registry that holds it', async () => {
    const { cwd, dir } = await verdictFixture()
    await expect(loadFixture(registry, dir, { cwd })).resolves.toMatchObject({ kind: 'verdict', name: 'capitals' })
    await expect(loadFixture(kinds, dir, { cwd })).rejects.toMatchObject({ code: 'FIXTURE_KIND_UNKNOWN' })
  })

  test('evaluates, reports its status, records reviews, binds, and reaches agreement, calibration and the page', async () => {
    const { cwd, dir, options } = await capitals()

    // Evaluate: every case added is pending until it is reviewed.
    const added = evaluateFixture(await loadFixture(registry, dir, { cwd }))
    expect(added.decisions.map((decision) => [decision.id, decision.status, decision.reason])).toEqual([
      ['paris', 'pending', 'no review'],
      ['lyon', 'pending', 'no review'],
      ['open', 'pending', 'no review'],
    ])

    // Review through recordReview: the adopted review decides the case.
    await recordReview(dir, { verdict: 'yes', reason: 'Paris is the capital.' }, source, { ...options, caseId: 'paris', replace: false })
    await recordReview(dir, { verdict: 'no', reason: 'Lyon is not the capital.' }, source, { ...options, caseId: 'lyon', replace: false })
    const reviewed = evaluateFixture(await loadFixture(registry, dir, { cwd }))
    expect(reviewed.decisions.map((decision) => decision.status)).toEqual(['accepted', 'rejected', 'pending'])
    expect(evaluationJson(reviewed)).toMatchObject({
      fixture: { kind: 'verdict', rubric: 'capital@1' },
      decisions: { paris: { status: 'accepted', verdict: 'yes' }, lyon: { status: 'rejected', verdict: 'no' }, open: { status: 'pending', verdict: null } },
      coverage: { candidates: 3, graded: 2, pending: 1, refused: 0 },
    })

    // Status: the open case is in the kind's own group.
    const status = fixtureStatus(await loadFixture(registry, dir, { cwd }))
    expect(status.cases.find((each) => each.id === 'open')).toMatchObject({ findings: [{ group: 'unreviewed', detail: 'no review' }] })
    expect(status.blocked).toBe(false)

    // Bind: a revised question makes every review stale; binding records the new question.
    const rubricPath = join(cwd, dir, 'verdict.json')
    await writeFile(rubricPath, (await readFile(rubricPath, 'utf8')).replace('"version": 1', '"version": 2'))
    const stale = fixtureStatus(await loadFixture(registry, dir, { cwd }))
    expect(stale.blocked).toBe(true)
    // The kind's own binding target names the group: no engine list of targets knows it.
    expect(stale.groups.map((group) => group.key)).toContain('stale-question')
    expect(stale.cases.find((each) => each.id === 'paris')?.findings.map((finding) => finding.group)).toContain('stale-question')
    expect(evaluateFixture(await loadFixture(registry, dir, { cwd })).decisions.map((decision) => decision.status)).toEqual(['refused', 'refused', 'refused'])
    const bound = await bindFixture(dir, { ...options, cases: 'all', dryRun: false })
    expect(bound.cases.map((each) => each.id)).toEqual(['paris', 'lyon', 'open'])
    expect(evaluateFixture(await loadFixture(registry, dir, { cwd })).decisions.map((decision) => decision.status)).toEqual(['accepted', 'rejected', 'pending'])

    // Agreement: two reviewers review the open case independently, and disagree.
    await recordReview(dir, { verdict: 'yes', reason: 'Marseille is a city of France.' }, source, {
      ...options,
      caseId: 'open',
      replace: false,
      reviewer: 'alice',
    })
    await recordReview(dir, { verdict: 'no', reason: 'Marseille is not the capital.' }, source, { ...options, caseId: 'open', replace: false, reviewer: 'bob' })
    const panel = await loadFixture(registry, dir, { cwd })
    const agreement = panelAgreement(panel)
    expect(agreement).toMatchObject({ kind: 'verdict', reviewers: ['alice', 'bob'], cases: 1 })
    expect(agreement.items['verdict']?.disagreements).toEqual(['open'])
    expect(evaluateFixture(panel).decisions[2]).toMatchObject({ status: 'pending', reason: expect.stringContaining('reviewers disagree on verdict') })

    // Calibration: a judge's labels against the adopted reviews, on the kind's ratings.
    for (const [caseId, verdict] of [
      ['paris', 'yes'],
      ['lyon', 'yes'],
    ] as const) {
      await recordReview(dir, { verdict, reason: 'the judge says so' }, source, {
        ...options,
        caseId,
        replace: false,
        judge: 'model',
        origin: 'a model, prompt v1',
      })
    }
    const calibration = calibrateJudges(evaluateFixture(await loadFixture(registry, dir, { cwd })))
    expect(calibration.judges['model']?.criteria['verdict']).toMatchObject({
      n: 2,
      matrix: { yes: { yes: 1, no: 0, unsure: 0 }, no: { yes: 1, no: 0, unsure: 0 } },
      false_accepts: ['lyon'],
    })

    // The page: the overview and a case, drawn as the kind's table.
    const shown = await loadFixture(registry, dir, { cwd })
    const overview = await pageFixture(shown, 0)
    expect(overview).toMatchObject({ kind: 'verdict', page: { view: 'table', ratings: [] }, criteria: ['verdict'], reviewers: ['alice', 'bob'] })
    expect(overview.cases.map((row) => [row.id, row.status, row.failed, row.text])).toEqual([
      ['paris', 'accepted', [], 'Paris.'],
      ['lyon', 'rejected', ['verdict'], 'Lyon.'],
      ['open', 'pending', [], 'Marseille?'],
    ])
    expect(pageCase(shown, 0, 'lyon', { role: 'reader' })).toMatchObject({
      kind: 'verdict',
      answer: 'Lyon.',
      table: { caption: 'verdict', rows: [{ cells: ['no'], low: true }] },
      decision: { status: 'rejected', verdict: 'no' },
    })
    expect(pageCase(shown, 0, 'open', { role: 'reviewer', name: 'carol' })).toMatchObject({
      decision: { status: 'pending', reason: 'no review by carol yet' },
      reviewers: 'hidden',
    })
  })

  test('is compared with its own figures and words, and a kind without a comparison is refused', async () => {
    const cwd = await scratchDir('verdict-compare')
    const question = 'Does the answer name the capital of France?'
    for (const dir of ['a', 'b']) {
      await mkdir(join(cwd, dir))
      await writeFile(join(cwd, dir, 'verdict.json'), `${JSON.stringify({ id: 'capital', version: 1, question }, null, 2)}\n`)
      await writeFile(join(cwd, dir, 'cases.json'), `${JSON.stringify({ name: `answers-${dir}`, cases: [] }, null, 2)}\n`)
      await writeFile(join(cwd, dir, 'annotations.json'), `${JSON.stringify({ origin: 'a reviewer', reviews: [] }, null, 2)}\n`)
    }
    const options = { cwd, kinds: registry }
    const answers = { a: ['Paris.', 'Lyon.', 'Nice.'], b: ['Paris, the capital.', 'Paris.', 'Nice?'] }
    const verdicts = { a: ['yes', 'no', 'no'], b: ['yes', 'yes', 'unsure'] }
    for (const dir of ['a', 'b'] as const) {
      const ids = ['paris', 'lyon', 'nice']
      await addCases(
        dir,
        ids.map((id, i) => ({ id, answer: answers[dir][i]! })),
        source,
        options,
      )
      for (const [i, caseId] of ids.entries())
        await recordReview(dir, { verdict: verdicts[dir][i]!, reason: 'as read' }, source, { ...options, caseId, replace: false })
    }

    const comparison = await compareKindFixtures('a', 'b', { cwd, kinds: registry })
    // The kind's own figure of the two fixtures stands beside what every comparison says.
    expect(comparison).toMatchObject({ kind: 'verdict', question, unpaired: { a_only: [], b_only: [] }, split_mismatch: [], leaks: [] })
    expect(comparison.splits.map((section) => section.split)).toEqual(['held_out', 'development'])
    // Every case is a development case: B says yes to lyon where A said no, and leaves nice unsure.
    expect(comparison.splits[1]).toMatchObject({
      standing: 'development',
      coverage: { paired: 3, decided: 2, pending: { a: 0, b: 1 }, line: '2 of 3 tasks decided in both; 1 pending in B' },
      acceptance: { n: 2, table: { both: 1, a_only: 0, b_only: 1, neither: 0 }, a: { passed: 1 }, b: { passed: 2 }, difference: 0.5 },
      worst_case: { undecided: 1, n: 3, table: { both: 1, a_only: 0, b_only: 1, neither: 1 } },
      discordant: { a_accepted_b_rejected: [], b_accepted_a_rejected: ['lyon'] },
      same_verdict: { pairs: 1, of: 2 },
    })

    // Its words: the page's and the command's one text.
    const text = comparisonText(comparison, registry)
    expect(text.same).toBe(`same verdict.json (SHA-256 ${comparison.rubric_sha256}), asking "${question}"`)
    expect(text.nouns).toEqual({ accepted: 'yes', rejected: 'no' })
    expect(text.splits[0]?.scores).toBeNull()
    expect(text.splits[1]).toMatchObject({
      discordant: ['A yes, B no: none', 'B yes, A no: lyon'],
      scores: 'the same verdict on 1 of 2 pairs decided in both',
      criteria: [],
    })

    // A kind that defines no comparison cannot be compared, and says so.
    const { compare: _, ...uncomparable } = verdictKind
    await expect(compareKindFixtures('a', 'b', { cwd, kinds: createRegistry([...kinds.kinds, uncomparable]) })).rejects.toMatchObject({
      code: 'FIXTURES_NOT_COMPARABLE',
      message: expect.stringContaining('fixtures of the verdict kind cannot be compared'),
    })
  })

  test("is judged by a judge run: the judge is shown what the kind gives, and its verdicts become the kind's labels", async () => {
    const { cwd, dir, options } = await capitals()
    await recordReview(dir, { verdict: 'yes', reason: 'Paris is the capital.' }, source, { ...options, caseId: 'paris', replace: false })
    await recordReview(dir, { verdict: 'no', reason: 'Lyon is not the capital.' }, source, { ...options, caseId: 'lyon', replace: false })

    const shown: unknown[] = []
    // The judge module's types (JudgeCriterionInput, JudgeVerdict) are the criteria kind's: this judge is typed as the verdict kind shows it, and cast below.
    const run = {
      perCriterion: (input: { readonly question: string; readonly answer: { readonly text: string }; readonly criterion: unknown }) => {
        shown.push({ question: input.question, answer: input.answer.text, criterion: input.criterion })
        // One answer the judge gets wrong (Lyon), and one verdict that is no verdict of the kind.
        if (input.answer.text === 'Marseille?') return { rating: 'maybe', reason: 'not sure' }
        return { rating: 'yes', reason: `${input.answer.text} names a city of France` }
      },
    }
    const result = await runJudge(dir, { ...options, judge: 'bot', run: run as never, retries: 0, backoffMs: 0 })
    expect(result).toMatchObject({ total: 3, current: 0, written: 2, failures: [{ caseId: 'open', criterion: 'verdict', attempts: 1 }] })
    expect(result.failures[0]?.error).toMatch(/^invalid verdict for verdict › rating: /)
    expect(shown).toContainEqual({
      question: 'Does the answer name the capital of France?',
      answer: 'Paris.',
      criterion: { id: 'verdict', question: 'Does the answer name the capital of France?' },
    })

    // The labels are the kind's: calibrated against the adopted reviews on its ratings.
    const calibration = calibrateJudges(evaluateFixture(await loadFixture(registry, dir, { cwd })))
    expect(calibration.judges['bot']?.criteria['verdict']).toMatchObject({
      n: 2,
      matrix: { yes: { yes: 1, no: 0, unsure: 0 }, no: { yes: 1, no: 0, unsure: 0 } },
      false_accepts: ['lyon'],
    })
    // A second run calls the judge only for the case without a current label.
    shown.length = 0
    const again = await runJudge(dir, { ...options, judge: 'bot', run: run as never, retries: 0, backoffMs: 0 })
    expect(again).toMatchObject({ total: 1, current: 2, written: 0 })
    expect(shown).toHaveLength(1)

    // A kind that defines no judging is refused, naming the kinds a judge runs on.
    const { judging: _, ...unjudged } = verdictKind
    await expect(runJudge(dir, { cwd, kinds: createRegistry([...kinds.kinds, unjudged]), judge: 'bot', run: run as never })).rejects.toMatchObject({
      message: expect.stringContaining('a judge runs on a criteria fixture; this one is verdict'),
    })
  })
})
