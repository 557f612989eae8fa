// Synthetic splits for the coverage of the prediction-powered estimate: one model, used by the
// seeded test (test/core/stats/ppi-coverage.test.ts, small) and by test/bench/ppi-coverage.mjs (the
// table in docs/statistics.md). The statistics are passed in, so that the test runs the sources and
// the benchmark the build.
//
// A split has N cases. Case i's human label Yᵢ is 1 with the true rate p. The judge states a
// confidence cᵢ, uniform in [floor, 1], and is right with probability cᵢ: a calibrated judge, whose
// quality the floor sets. A biased judge errs one way only: `accept` turns a 0 into a 1 with
// probability 2(1 − cᵢ) and never a 1 into a 0 (`reject` the reverse), so that it errs as often as a
// calibrated judge of the same floor would, all in one direction.
//
// Designs draw the sample to review, n cases on average:
// - uniform: n cases without replacement, π = n/N;
// - stratified: by the judge's label, n_h = round(n·N_h/N) without replacement in each, π = n_h/N_h;
// - active (Zrnic & Candès 2024): each case independently (Poisson sampling) with
//   πᵢ = min(1, n·(0.2/N + 0.8·(1 − cᵢ)/Σ(1 − c))), a mixture with the uniform design that bounds the weights.
//
// The truth is the rate of the human labels over the N cases (the estimand 'split'), or the true
// rate p (the estimand 'system').

/** @typedef {{ name: string, floor: number, bias?: 'accept' | 'reject' }} Judge */

/** Judges of several qualities, as the issue asks: calibrated ones from good to poor, and two biased ones. */
export const JUDGES = [
  { name: 'excellent', floor: 0.9 },
  { name: 'good', floor: 0.8 },
  { name: 'fair', floor: 0.6 },
  { name: 'poor', floor: 0.3 },
  { name: 'biased to accept', floor: 0.7, bias: 'accept' },
  { name: 'biased to reject', floor: 0.7, bias: 'reject' },
]

export const DESIGNS = ['uniform', 'stratified', 'active']

/** Draws `count` distinct indexes of `0 … total − 1` (a partial Fisher–Yates shuffle). */
function choose(random, total, count, pool = Array.from({ length: total }, (_, i) => i)) {
  const chosen = pool.slice()
  for (let k = 0; k < count; k++) {
    const j = k + Math.floor(random() * (chosen.length - k))
    ;[chosen[k], chosen[j]] = [chosen[j], chosen[k]]
  }
  return chosen.slice(0, count)
}

/** One split: the human labels, the judge's labels and confidences, and the sample its design draws. */
export function simulateSplit(random, { cases, rate, judge, design, size }) {
  const human = new Array(cases)
  const labels = new Array(cases)
  const confidence = new Array(cases)
  for (let i = 0; i < cases; i++) {
    const y = random() < rate ? 1 : 0
    const c = judge.floor + (1 - judge.floor) * random()
    let f = y
    if (judge.bias === undefined) f = random() < c ? y : 1 - y
    else if ((judge.bias === 'accept' && y === 0) || (judge.bias === 'reject' && y === 1)) f = random() < 2 * (1 - c) ? 1 - y : y
    human[i] = y
    labels[i] = f
    confidence[i] = c
  }
  const sample = []
  if (design === 'uniform') {
    for (const index of choose(random, cases, size)) sample.push({ index, probability: size / cases, human: human[index] })
  } else if (design === 'stratified') {
    for (const value of [0, 1]) {
      const members = []
      for (let i = 0; i < cases; i++) if (labels[i] === value) members.push(i)
      const take = Math.min(members.length, Math.round((size * members.length) / cases))
      for (const index of choose(random, cases, take, members)) {
        sample.push({ index, probability: take / members.length, human: human[index], stratum: value === 1 ? 'accept' : 'reject' })
      }
    }
  } else {
    let uncertainty = 0
    for (const c of confidence) uncertainty += 1 - c
    for (let i = 0; i < cases; i++) {
      const probability = Math.min(1, size * (0.2 / cases + (0.8 * (1 - confidence[i])) / uncertainty))
      if (random() < probability) sample.push({ index: i, probability, human: human[i] })
    }
  }
  let truth = 0
  for (const y of human) truth += y
  return { truth: truth / cases, judge: labels, human, sample }
}

/** Cohen's kappa between the judge's and the human labels of a split. */
export function judgeKappa({ judge, human }) {
  const n = human.length
  let agree = 0
  let judgeOnes = 0
  let humanOnes = 0
  for (let i = 0; i < n; i++) {
    if (judge[i] === human[i]) agree++
    judgeOnes += judge[i]
    humanOnes += human[i]
  }
  const expected = (judgeOnes * humanOnes + (n - judgeOnes) * (n - humanOnes)) / (n * n)
  return (agree / n - expected) / (1 - expected)
}

/**
 * Runs `replicates` splits through `ppiMean` and tallies how often each interval covers the truth,
 * their mean widths, the mean effective number of reviews, the judge's mean kappa and the mean
 * error of the judge-only rate.
 */
export function coverage({ ppiMean, createRandom }, { seed, replicates, cases, size, rate, judge, design, level = 0.95, estimand = 'split' }) {
  const random = createRandom(seed)
  const tally = { judgeError: 0, estimates: 0, refused: 0, ppi: 0, classical: 0, ppiWidth: 0, classicalWidth: 0, effectiveReviews: 0, decided: 0, kappa: 0 }
  for (let r = 0; r < replicates; r++) {
    const split = simulateSplit(random, { cases, rate, judge, design, size })
    const result = ppiMean({ judge: split.judge, sample: split.sample }, { level, estimand })
    // The split's own rate, or the rate of the process it was drawn from.
    const truth = estimand === 'system' ? rate : split.truth
    tally.kappa += judgeKappa(split) / replicates
    let judged = 0
    for (const f of split.judge) judged += f
    tally.judgeError += (judged / cases - truth) / replicates
    if (result.status !== 'estimate') {
      tally.refused++
      continue
    }
    tally.estimates++
    if (result.low <= truth && truth <= result.high) tally.ppi++
    if (result.classical.low <= truth && truth <= result.classical.high) tally.classical++
    tally.ppiWidth += result.high - result.low
    tally.classicalWidth += result.classical.high - result.classical.low
    tally.effectiveReviews += result.effectiveReviews
    tally.decided += result.decided
  }
  const k = tally.estimates
  return {
    estimates: k,
    refused: tally.refused,
    kappa: tally.kappa,
    judgeError: tally.judgeError,
    ppiCoverage: tally.ppi / k,
    classicalCoverage: tally.classical / k,
    ppiWidth: tally.ppiWidth / k,
    classicalWidth: tally.classicalWidth / k,
    effectiveReviews: tally.effectiveReviews / k,
    reviews: tally.decided / k,
  }
}
