/**
 * One dimension of one case for one system: a score in 0..1, or `null` when the dimension is N/A
 * (excluded from the case's mean), with the computation or the reason it does not apply.
 */
export interface DimensionScore {
  readonly score: number | null
  /** How the score was reached (`1.5 of 2 planted issues found: …`), or why it is N/A. */
  readonly detail: string
}

/** An applicable dimension's score with how it was reached. */
export function scored(score: number, detail: string): DimensionScore {
  return { score, detail }
}

/** A dimension that does not apply to the case, with the reason. */
export function notApplicable(detail: string): DimensionScore {
  return { score: null, detail }
}

/** A figure for messages: at most four decimals, no trailing zeros (`0.375`, `0.6667`, `1`). */
export function formatFigure(value: number): string {
  return String(Number(value.toFixed(4)))
}

/** A threshold for messages, with at least two decimals (`0.10`, `0.65`, `0.125`). */
export function formatThreshold(value: number): string {
  const text = formatFigure(value)
  const decimals = text.split('.')[1]?.length ?? 0
  // Stryker disable next-line EqualityOperator: with exactly two decimals, toFixed(2) prints the same text
  return decimals >= 2 ? text : value.toFixed(2)
}

/** The mean of a non-empty list. */
export function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}
