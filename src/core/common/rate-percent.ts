/**
 * A rate and its interval as percentages, with as few decimals as tell the interval's ends apart:
 * whole percents, or up to three decimals where whole ones would print an interval of some width as
 * `99%–99%`, which reads as no uncertainty at all. An interval of no width prints as whole percents.
 */
export function ratePercents(rate: number, interval: readonly [number, number]): readonly [string, string, string] {
  const [low, high] = interval
  const digits = low === high ? 0 : ([0, 1, 2].find((places) => (low * 100).toFixed(places) !== (high * 100).toFixed(places)) ?? 3)
  const text = (value: number) => `${(value * 100).toFixed(digits)}%`
  return [text(rate), text(low), text(high)]
}

/** `75% accepted (95% interval 30–95%)`: the Wilson interval keeps a rate over 4 cases from reading like one over 4,000. */
export function rateText(outcomes: { readonly rate: number; readonly interval: readonly [number, number] }, positive: string): string {
  const [rate, low, high] = ratePercents(outcomes.rate, outcomes.interval)
  return `${rate} ${positive} (95% interval ${low}–${high})`
}
