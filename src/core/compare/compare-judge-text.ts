/** The judge-assisted figures of a split in words: the lines `compare --judge` prints and the gate's message quotes. */
import { plural } from '../common/primitives.js'
import type { JudgeAssistedSplit } from './compare-judge.js'
import { percent, points } from './compare-figures.js'

/** `[−1.0, +5.2]`, the bounds in points. */
export function pointsRange(bounds: { readonly low: number; readonly high: number }): string {
  return `[${points(bounds.low)}, ${points(bounds.high)}]`
}

/** `B − A = +2.1 points, 95% interval [−1.0, +5.2] (judge-assisted, PPI++, judge j)`, or `null` without an estimate. */
export function judgeAssistedDifference(section: JudgeAssistedSplit, judge: string): string | null {
  const { result } = section
  if (result.status !== 'estimate') return null
  return `B − A = ${points(result.estimate)} points, ${100 * result.level}% interval ${pointsRange(result)} (judge-assisted, PPI++, judge ${judge})`
}

function gapText(section: JudgeAssistedSplit): string | null {
  const side = (name: string, gap: JudgeAssistedSplit['judge_gaps']['a']) =>
    [gap.missing > 0 ? `${gap.missing} not labelled` : '', gap.stale > 0 ? `${gap.stale} stale` : '', gap.undecided > 0 ? `${gap.undecided} undecided` : '']
      .filter((part) => part !== '')
      .map((part) => `${part} in ${name}`)
  const parts = [...side('A', section.judge_gaps.a), ...side('B', section.judge_gaps.b)]
  return parts.length === 0 ? null : `without a current decision of the judge: ${parts.join(', ')}`
}

/**
 * The judge-assisted lines of one split: the estimate of B − A beside the human-only one on the same
 * pairs and the judge-only difference, the effective reviews, the sample and its pending pairs with
 * the worst case, and the reviews left out; or why there is no estimate.
 */
export function judgeAssistedLines(section: JudgeAssistedSplit, judge: string): string[] {
  const { result } = section
  const lines = [
    `judge-assisted sample: ${section.sampled} of ${plural(section.tasks, 'task')} drawn in both samples (${result.decided} decided in both, ${result.pending} pending)`,
  ]
  if (result.status === 'unsupported') lines.push(`judge-assisted: no estimate (${result.reason}): ${result.message}`)
  else {
    lines.push(
      `judge-assisted: ${judgeAssistedDifference(section, judge)}, λ = ${result.lambda.toFixed(3)}`,
      `human-only, same sample: B − A = ${points(result.classical.estimate)} points, ${100 * result.level}% interval ${pointsRange(result.classical)} over ${plural(result.decided, 'decided pair')} (${result.discordant} discordant)`,
      `judge-only: A ${percent(result.judgeOnly.a)}, B ${percent(result.judgeOnly.b)}, B − A = ${points(result.judgeOnly.difference)} points: biased by the judge's errors, not an estimate`,
      `effective reviews: ${result.effectiveReviews.toFixed(1)} pairs (from ${result.decided} decided)`,
    )
    if (result.worstCase !== null) lines.push(`worst case over the ${plural(result.pending, 'pending pair')}: ${pointsRange(result.worstCase)}`)
  }
  if (section.pending.length > 0) {
    const shown = section.pending.slice(0, 10).map((pair) => `${pair.id} (A ${pair.a}, B ${pair.b})`)
    lines.push(`pending sampled tasks: ${shown.join(', ')}${section.pending.length > 10 ? ', …' : ''}`)
  }
  const gaps = gapText(section)
  if (gaps !== null) lines.push(gaps)
  if (section.outside_reviews > 0) {
    lines.push(`left out: ${plural(section.outside_reviews, 'task')} decided in both outside the sample (not drawn at random, so not used)`)
  }
  return lines
}
