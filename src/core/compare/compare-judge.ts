/**
 * The judge-assisted comparison of two systems (`compare A B --judge <name>`): B − A over every
 * paired task of a split, from the judge's decisions on both systems' answers to every task and the
 * human decisions of the tasks drawn into both fixtures' samples, by prediction-powered inference
 * (docs/statistics.md#judge-assisted-paired-comparison).
 */
import { FixtureError } from '../common/errors.js'
import type { Split } from '../common/primitives.js'
import { judgeFile, judgeView } from '../engine/calibration.js'
import type { Decision } from '../contract/decision.js'
import { kindContext, type SomeFixture } from '../engine/fixture.js'
import { populationFigures } from '../sample/draw.js'
import { decisionLabel } from '../sample/estimate.js'
import { answerBindings, samplePlace } from '../sample/sample.js'
import { readSampleFile, SAMPLE_FILE, type SampleFile } from '../sample/sample-file.js'
import { splitProbabilities } from '../sample/split-probability.js'
import { ppiDifference, type PpiDifferenceResult, type PpiPairedCase } from '../stats/ppi-difference.js'
import type { PpiCounts } from '../stats/ppi.js'
import { standingOf } from './compare-figures.js'

/** Why the judge gives no decision of one system's answers, counted over a split's paired tasks. */
export interface JudgeGaps {
  /** The judge has not labelled the answer. */
  readonly missing: number
  /** Its labels are stale (the answer, the source or the rubric changed since) or malformed: its decision is refused. */
  readonly stale: number
  /** Its labels leave the decision pending (an uncertain rating, a criterion left out). */
  readonly undecided: number
}

/** Refusals the comparison makes before the estimator is asked: the sample is not one design, or the judge is stale. */
export interface JudgeAssistedRefusal extends PpiCounts {
  readonly status: 'unsupported'
  readonly reason: 'samples-differ' | 'judge-stale' | 'judge-missing'
  readonly message: string
}

/** The judge-assisted figures of one split. */
export interface JudgeAssistedSplit {
  readonly split: Split
  readonly standing: 'result' | 'development'
  readonly label: string | null
  /** N: the tasks of the split in both fixtures. */
  readonly tasks: number
  /** The tasks drawn in both fixtures' samples: the paired sample. */
  readonly sampled: number
  /** Sampled tasks with a side not decided, and each side's status. */
  readonly pending: readonly { readonly id: string; readonly a: string; readonly b: string }[]
  /** Tasks decided in both fixtures but not in the paired sample: not drawn at random, so left out. */
  readonly outside_reviews: number
  readonly judge_gaps: { readonly a: JudgeGaps; readonly b: JudgeGaps }
  /** Tasks one sample drew and the other did not, and tasks both drew with different probabilities or strata. */
  readonly samples_differ: { readonly a_only: readonly string[]; readonly b_only: readonly string[]; readonly design: readonly string[] }
  /** ppiDifference's estimate of B − A, or why there is none. */
  readonly result: PpiDifferenceResult | JudgeAssistedRefusal
}

/** The judge-assisted part of a comparison. */
export interface JudgeAssistedComparison {
  readonly judge: string
  /** The judge's files in A and in B, as shown. */
  readonly judge_files: { readonly a: string; readonly b: string }
  /** The two samples, as shown. */
  readonly samples: { readonly a: string; readonly b: string }
  /**
   * Per fixture, its cases at its sample's last draw and now, when they differ (a case added,
   * removed or moved): the inclusion probabilities describe the cases as they were. `null` when unchanged.
   */
  readonly population_changed: {
    readonly a: { readonly atDraw: number; readonly now: number } | null
    readonly b: { readonly atDraw: number; readonly now: number } | null
  }
  /**
   * Per fixture, the sampled tasks whose answer changed since the draw (or since `sample --like`
   * copied the design): its fingerprint differs from the one the sample recorded, so a review made
   * before describes another answer.
   */
  readonly answers_changed: { readonly a: readonly string[]; readonly b: readonly string[] }
  readonly splits: readonly JudgeAssistedSplit[]
}

type Pair = readonly [Decision & { readonly id: string; readonly split: Split }, Decision & { readonly id: string; readonly split: Split }]

/** Reads a fixture's sample, or refuses with `SAMPLE_MISSING`: a judge-assisted figure needs the tasks drawn at random. */
async function requiredSample(fixture: SomeFixture, cwd: string): Promise<{ sample: SampleFile; file: string }> {
  const place = samplePlace(fixture, cwd)
  const file = `${place.displayDir}/${SAMPLE_FILE}`
  const { sample } = await readSampleFile(place, { cases: fixture.cases })
  if (sample === undefined) {
    throw new FixtureError({
      code: 'SAMPLE_MISSING',
      file,
      summary: 'the fixture has no sample: a judge-assisted comparison needs the tasks drawn for review at random, with their inclusion probabilities.',
      expected: `${SAMPLE_FILE}, written by \`vitest-rubric sample\``,
      hint: `draw one in each fixture with the same --size, --seed and method (\`vitest-rubric sample ${place.displayDir} --size <n> --seed <s>\`): over the same cases in the same order the two draws are the same tasks.`,
    })
  }
  return { sample, file }
}

const noGaps = (): { missing: number; stale: number; undecided: number } => ({ missing: 0, stale: 0, undecided: 0 })

function list(ids: readonly string[]): string {
  return `${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''}`
}

/**
 * The judge-assisted figures of each split's pairs: the judge's decision of both answers to every
 * paired task, and the human decisions of the tasks both samples drew. The two samples must be one
 * design: every paired task drawn in both or in neither, with the same probability and stratum.
 */
export async function judgeAssistedComparison(
  fixtures: { readonly a: SomeFixture; readonly b: SomeFixture },
  pairsBySplit: readonly { readonly split: Split; readonly pairs: readonly Pair[] }[],
  options: { readonly judge: string; readonly cwd: string; readonly level: number },
): Promise<JudgeAssistedComparison> {
  const { a, b } = fixtures
  const files = { a: judgeFile(a, options.judge).display, b: judgeFile(b, options.judge).display }
  const samples = { a: await requiredSample(a, options.cwd), b: await requiredSample(b, options.cwd) }
  const contexts = { a: kindContext(a), b: kindContext(b) }
  const entries = { a: new Map(a.cases.map((entry) => [entry.id, entry])), b: new Map(b.cases.map((entry) => [entry.id, entry])) }
  const drawn = { a: new Map(samples.a.sample.cases.map((entry) => [entry.id, entry])), b: new Map(samples.b.sample.cases.map((entry) => [entry.id, entry])) }
  const probabilityOf = splitProbabilities(samples.a.sample)
  const splits = pairsBySplit.map(({ split, pairs }): JudgeAssistedSplit => {
    const judge: { a: (0 | 1 | null)[]; b: (0 | 1 | null)[] } = { a: [], b: [] }
    const gaps = { a: noGaps(), b: noGaps() }
    const sample: PpiPairedCase[] = []
    const pending: { id: string; a: string; b: string }[] = []
    const differ: { a_only: string[]; b_only: string[]; design: string[] } = { a_only: [], b_only: [], design: [] }
    const unlabelled: string[] = []
    let outside = 0
    for (const [left, right] of pairs) {
      const index = judge.a.length
      for (const side of ['a', 'b'] as const) {
        const fixture = fixtures[side]
        const view = judgeView(fixture, contexts[side], entries[side].get(left.id)!, options.judge)
        if (view === undefined) gaps[side].missing++
        else if (view.decision.status === 'refused') gaps[side].stale++
        else if (decisionLabel(view.decision) === null) gaps[side].undecided++
        judge[side].push(decisionLabel(view?.decision))
      }
      if (judge.a[index] === null || judge.b[index] === null) unlabelled.push(left.id)
      const human = { a: decisionLabel(left), b: decisionLabel(right) }
      const inA = drawn.a.get(left.id)
      const inB = drawn.b.get(left.id)
      if (inA === undefined || inB === undefined) {
        if (inA !== undefined) differ.a_only.push(left.id)
        if (inB !== undefined) differ.b_only.push(left.id)
        if (human.a !== null && human.b !== null) outside++
        continue
      }
      if (inA.probability !== inB.probability || inA.stratum !== inB.stratum) differ.design.push(left.id)
      if (human.a === null || human.b === null) pending.push({ id: left.id, a: left.status, b: right.status })
      sample.push({ index, probability: probabilityOf(inA), a: human.a, b: human.b, ...(inA.stratum === null ? {} : { stratum: inA.stratum }) })
    }
    const counts: PpiCounts = { cases: pairs.length, sampled: sample.length, decided: sample.length - pending.length, pending: pending.length }
    return {
      split,
      ...standingOf(split),
      tasks: pairs.length,
      sampled: sample.length,
      pending,
      outside_reviews: outside,
      judge_gaps: gaps,
      samples_differ: differ,
      result: refusal(differ, gaps, unlabelled, counts, samples) ?? ppiDifference({ judge, sample }, { level: options.level }),
    }
  })
  const changed = (fixture: SomeFixture, sample: SampleFile) => {
    const last = sample.draws[sample.draws.length - 1]!
    const now = populationFigures(fixture.cases.map((entry) => ({ id: entry.id, split: entry.split, answerSha256: null })))
    return now.population_sha256 === last.population_sha256 ? null : { atDraw: last.population, now: now.population }
  }
  return {
    judge: options.judge,
    judge_files: files,
    samples: { a: samples.a.file, b: samples.b.file },
    population_changed: { a: changed(a, samples.a.sample), b: changed(b, samples.b.sample) },
    answers_changed: { a: changedAnswers(a, samples.a.sample), b: changedAnswers(b, samples.b.sample) },
    splits,
  }
}

function refusal(
  differ: JudgeAssistedSplit['samples_differ'],
  gaps: JudgeAssistedSplit['judge_gaps'],
  unlabelled: readonly string[],
  counts: PpiCounts,
  samples: { readonly a: { readonly file: string }; readonly b: { readonly file: string } },
): JudgeAssistedRefusal | null {
  const oneSided = differ.a_only.length + differ.b_only.length
  if (oneSided > 0 || differ.design.length > 0) {
    const parts = [
      differ.a_only.length > 0 ? `${differ.a_only.length} drawn in A's sample only (${list(differ.a_only)})` : '',
      differ.b_only.length > 0 ? `${differ.b_only.length} drawn in B's sample only (${list(differ.b_only)})` : '',
      differ.design.length > 0 ? `${differ.design.length} drawn in both with different inclusion probabilities or strata (${list(differ.design)})` : '',
    ].filter((part) => part !== '')
    return {
      status: 'unsupported',
      reason: 'samples-differ',
      message:
        `${samples.a.file} and ${samples.b.file} are not one draw of the paired tasks: ${parts.join('; ')}. ` +
        'A paired estimate needs each task drawn in both samples or in neither, with one inclusion probability: ' +
        'draw both with the same --size, --seed and method over the same cases in the same order (`vitest-rubric sample <dir> … --new`), or draw A and copy its design to B (`vitest-rubric sample <B> --like <A> --new`), and review both answers of every drawn task',
      ...counts,
    }
  }
  if (gaps.a.stale + gaps.b.stale > 0) {
    const where = [gaps.a.stale > 0 ? `${gaps.a.stale} in A` : '', gaps.b.stale > 0 ? `${gaps.b.stale} in B` : ''].filter((part) => part !== '').join(', ')
    return {
      status: 'unsupported',
      reason: 'judge-stale',
      message: `the judge's labels of ${where} of the ${counts.cases} tasks are stale (the answer, the source or the rubric changed since it labelled them) or refused: run the judge on them again`,
      ...counts,
    }
  }
  if (unlabelled.length > 0) {
    const where = (gap: JudgeGaps, side: string) =>
      gap.missing + gap.undecided === 0 ? '' : `${side}: ${gap.missing} not labelled, ${gap.undecided} left undecided`
    const sides = [where(gaps.a, 'A'), where(gaps.b, 'B')].filter((part) => part !== '').join('; ')
    return {
      status: 'unsupported',
      reason: 'judge-missing',
      message: `${unlabelled.length} of the ${counts.cases} tasks have no decision of the judge on both answers (${sides}; ${list(unlabelled)}): the judge's B − A would not be over every task; run the judge on them`,
      ...counts,
    }
  }
  return null
}

/** The sampled tasks of a fixture whose answer's fingerprint is not the one its sample recorded. */
function changedAnswers(fixture: SomeFixture, sample: SampleFile): string[] {
  const bindings = answerBindings(fixture)
  return sample.cases.filter((entry) => bindings.has(entry.id) && bindings.get(entry.id) !== entry.answer_sha256).map((entry) => entry.id)
}
