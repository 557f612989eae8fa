/** A compare gate with a judge: non-inferiority read on the judge-assisted (PPI++) interval of B − A over every paired task. */
import { plural, type Split } from '../common/primitives.js'
import type { JudgeAssistedSplit } from './compare-judge.js'
import { pointsRange } from './compare-judge-text.js'
import { boundAndThreshold, DEVELOPMENT_LABEL, ONE_SIDED, points, pointsText, versus } from './compare-figures.js'

/** Refusals that need an action other than more reviews (redraw, run the judge): the gate fails on them rather than waiting. */
const FAILING_REFUSALS: ReadonlySet<string> = new Set(['samples-differ', 'judge-stale', 'judge-missing'])

/**
 * What a compare gate with a judge decides on one split's judge-assisted figures: passed when the
 * lower bound L of the PPI++ interval of B − A is at least −margin and still is at the worst case
 * over the pending sampled pairs; todo when only the decided pairs' L clears it, while the estimate
 * waits on reviews (too few decided or discordant pairs, a stratum too small, no variation), and on
 * development cases; failed when L is below −margin, or when the estimate is refused for a reason
 * more reviews cannot cure (the samples are not one draw, a judge decision is stale or missing).
 */
export function judgeAssistedVerdict(
  section: JudgeAssistedSplit,
  judge: string,
  gate: { readonly split: Split; readonly margin: number },
): { status: 'passed' | 'failed' | 'todo'; message: string; holds_regardless: boolean | null } {
  const { result } = section
  const sampleLine = `${section.sampled} of ${plural(section.tasks, 'task')} drawn in both samples, ${result.decided} decided in both, ${result.pending} pending`
  if (result.status === 'unsupported') {
    const message = `no judge-assisted estimate of B − A (judge ${judge}, ${result.reason}): ${result.message}; ${sampleLine}`
    const failing = FAILING_REFUSALS.has(result.reason) && gate.split !== 'development'
    return { holds_regardless: null, status: failing ? 'failed' : 'todo', message }
  }
  const difference = `B − A = ${points(result.estimate)} points, ${100 * result.level}% interval ${pointsRange(result)} (judge-assisted, PPI++, judge ${judge})`
  if (gate.split === 'development') return { holds_regardless: null, status: 'todo', message: `${DEVELOPMENT_LABEL}: ${difference}; ${sampleLine}` }
  const threshold = -gate.margin
  const [bound, least] = boundAndThreshold(result.low, threshold)
  const shown = `B − A = ${points(result.estimate)} points, ${100 * result.level}% interval [${bound}, ${points(result.high)}] (judge-assisted, PPI++, judge ${judge})`
  const pending = plural(result.pending, 'pending sampled pair')
  const worstLow = result.worstCase?.low ?? null
  if (result.low >= threshold) {
    if (result.pending === 0 || (worstLow !== null && worstLow >= threshold)) {
      const regardless =
        result.pending === 0 ? 'every sampled pair is decided' : `it holds regardless of the ${pending}: at the worst case, ${versus(worstLow, threshold)}`
      return {
        holds_regardless: true,
        status: 'passed',
        message: `${shown}: the lower bound ${bound} is at least ${least} (${ONE_SIDED}); ${regardless}; ${sampleLine}`,
      }
    }
    return {
      holds_regardless: false,
      status: 'todo',
      message:
        `${shown}: the lower bound ${bound} is at least ${least} (${ONE_SIDED}) on the decided pairs, but not regardless of the ${pending}: ` +
        `at the worst case, ${versus(worstLow, threshold)}; decide ${result.pending === 1 ? 'it' : 'them'}; ${sampleLine}`,
    }
  }
  const message = [
    `${shown}: the lower bound ${bound} is below ${least} (${ONE_SIDED}), so B may be more than ${pointsText(gate.margin)} worse than A${result.pending === 0 ? '' : ` (with ${pending}, assumed missing at random)`}`,
    sampleLine,
    `human-only, same sample: B − A = ${points(result.classical.estimate)} points, interval ${pointsRange(result.classical)}; judge-only (biased): B − A = ${points(result.judgeOnly.difference)} points`,
  ].join('\n')
  return { holds_regardless: result.pending === 0, status: 'failed', message }
}
