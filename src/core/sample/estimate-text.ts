/**
 * A fixture's estimate in words, one line per split, as the reporter and `evaluate` print it: the
 * PPI++ estimate and interval beside the human-only and judge-only figures.
 */
import { plural } from '../common/primitives.js'
import type { FixtureEstimate, SplitEstimateFigures } from './fixture-estimate.js'

const rate = (value: number) => value.toFixed(3)

/** `[0.668, 0.780]`. */
export const rateRange = (value: { readonly low: number; readonly high: number }) => `[${rate(value.low)}, ${rate(value.high)}]`

/** Which judge, and why that one: `judge ix`, `judge ix (the first by name of ix, kw)`. */
export function judgeText(estimate: FixtureEstimate): string {
  return estimate.judgeChosen === 'first' ? `judge ${estimate.judge} (the first by name of ${estimate.judges.join(', ')})` : `judge ${estimate.judge}`
}

/** What the estimate rests on: `judge ix · lab/sample.json: 60 cases, uniform`. */
export function estimateHead(estimate: FixtureEstimate): string {
  return `${judgeText(estimate)} · ${estimate.sample.file}: ${plural(estimate.sample.cases, 'case')}, ${estimate.sample.method}`
}

/** One split in one line: the PPI++ estimate and interval beside the human-only and judge-only figures, or why there is none. */
export function splitEstimateText(split: SplitEstimateFigures): string {
  const { result } = split
  if (result.status === 'unsupported') return `no estimate: ${result.message}`
  const worst = result.worstCase === null ? '' : ` (worst case over them ${rateRange(result.worstCase)})`
  return (
    `PPI++ ${rate(result.estimate)} ${rateRange(result)} · human-only ${rate(result.classical.estimate)} ${rateRange(result.classical)} · ` +
    `judge-only ${rate(result.judgeOnly.rate)} (biased) · ${result.decided} of ${split.sampled} sampled decided, ${split.pending} pending${worst} · ` +
    `effective reviews ${result.effectiveReviews.toFixed(1)}`
  )
}

/** What changed since the draw, when anything did: each a line. */
export function estimateWarnings(estimate: FixtureEstimate): string[] {
  const lines: string[] = []
  if (estimate.changedAnswers > 0) lines.push(`${plural(estimate.changedAnswers, 'sampled case')} changed since the draw: reviewed again`)
  if (estimate.populationChanged !== null) {
    const { atDraw, now } = estimate.populationChanged
    lines.push(`the cases changed since the last draw (${atDraw} then, ${now} now): the inclusion probabilities describe the cases as they were`)
  }
  return lines
}
