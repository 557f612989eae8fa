/**
 * What a design drawn by the judge reads of each case (docs/statistics.md#designs-drawn-by-the-judge):
 * the judge's decision, and how unsure it is of its labels, from the confidence it recorded with
 * each criterion's rating.
 */
import { FixtureError } from '../common/errors.js'
import { isObject } from '../common/primitives.js'
import { judgeFile, judgeView } from '../engine/calibration.js'
import { kindContext, type SomeFixture } from '../engine/fixture.js'
import { isConfidence } from '../common/confidence.js'

/** The judge's decision of a case, as a stratum: `pending` when it has no current decision (no label, a stale one, an uncertain rating). */
export type JudgeDecisionStratum = 'accepted' | 'rejected' | 'pending'

/** The criterion the judge is least sure of in a case, and its confidence in it. */
export interface LeastSure {
  /** `null` when the judge has no current label of the case. */
  readonly criterion: string | null
  /** `null` when the judge gave no confidence, or rated the criterion uncertain. */
  readonly confidence: number | null
}

/** What a design drawn by the judge knows of one case. */
export interface JudgeCaseDesign {
  readonly decision: JudgeDecisionStratum
  /**
   * u ∈ [0, 1]: the largest of 1 − c over the case's criteria, c the confidence of a meets or
   * does-not-meet rating; 1 for a criterion rated uncertain, left out or given no confidence, and
   * for a case without a current label.
   */
  readonly uncertainty: number
  readonly leastSure: LeastSure
}

/** Every case's design inputs by id, and how many criterion ratings of current labels carry a confidence. */
export interface JudgeDesign {
  readonly judge: string
  /** The judge's labels as shown. */
  readonly file: string
  readonly cases: ReadonlyMap<string, JudgeCaseDesign>
  readonly confidences: number
  /** Cases without a current label of the judge: drawn as the least sure. */
  readonly unlabelled: number
}

/** The confidence a judge recorded with its rating of `criterion` in any of its labels of the case. */
function recordedConfidence(labels: Readonly<Record<string, { readonly value: unknown }>> | undefined, criterion: string): number | null {
  for (const label of Object.values(labels ?? {})) {
    const judgements = isObject(label.value) ? label.value['judgements'] : undefined
    const judgement = isObject(judgements) && Object.hasOwn(judgements, criterion) ? judgements[criterion] : undefined
    const confidence = isObject(judgement) ? judgement['confidence'] : undefined
    if (isConfidence(confidence)) return confidence
  }
  return null
}

/** The judge's decision and uncertainty of every case of the fixture. */
export function judgeDesign(fixture: SomeFixture, judge: string): JudgeDesign {
  const file = judgeFile(fixture, judge).display
  const context = kindContext(fixture)
  const criteria = fixture.definition.panel.order(context)
  const cases = new Map<string, JudgeCaseDesign>()
  let confidences = 0
  let unlabelled = 0
  for (const entry of fixture.cases) {
    const view = judgeView(fixture, context, entry, judge)
    if (view === undefined || view.decision.status === 'refused') {
      unlabelled++
      cases.set(entry.id, { decision: 'pending', uncertainty: 1, leastSure: { criterion: null, confidence: null } })
      continue
    }
    const decision = view.decision.status === 'accepted' ? 'accepted' : view.decision.status === 'rejected' ? 'rejected' : 'pending'
    const labels = fixture.judges.reviews.get(entry.id)?.get(judge)
    let uncertainty = -1
    let leastSure: LeastSure = { criterion: null, confidence: null }
    for (const criterion of criteria) {
      const item = Object.hasOwn(view.items, criterion) ? view.items[criterion] : undefined
      const confidence = item === undefined ? null : recordedConfidence(labels, criterion)
      if (confidence !== null) confidences++
      const decided = item?.settled === true && item.value !== null
      const u = decided && confidence !== null ? 1 - confidence : 1
      if (u > uncertainty) {
        uncertainty = u
        // A confidence in an undecided rating (uncertain) is no confidence in a decision.
        leastSure = { criterion, confidence: decided ? confidence : null }
      }
    }
    cases.set(entry.id, { decision, uncertainty: Math.max(0, uncertainty), leastSure })
  }
  return { judge, file, cases, confidences, unlabelled }
}

/** Refuses a design that draws by the judge's confidence when none of its current labels gives one. */
export function requireConfidences(design: JudgeDesign, what: string): void {
  if (design.confidences > 0) return
  throw new FixtureError({
    code: 'SAMPLE_NO_CONFIDENCE',
    file: design.file,
    summary: `${what} draws by the judge's confidence in its ratings, and no current label of the judge "${design.judge}" gives one.`,
    expected: 'labels whose judgements give "confidence", a number from 0 to 1',
    hint: "run a judge module that returns a confidence with each verdict (docs/judges.md#confidence), or draw by the judge's decision with `--by decision`, which needs none.",
  })
}
