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
//   πᵢ = min(1, n·(0.2/N + 0.8·(1 − cᵢ)/Σ(1 − c))), a mixture with the uniform design that bounds the weights;
//   given `activeProbabilities` (the one `vitest-rubric sample --method active` draws with), those
//   probabilities instead, whose cap at 1 spreads the rest of n over the other cases.
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
export function simulateSplit(random, { cases, rate, judge, design, size, activeProbabilities }) {
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
  } else if (activeProbabilities !== undefined) {
    const probabilities = activeProbabilities(
      confidence.map((c) => 1 - c),
      size,
    )
    for (let i = 0; i < cases; i++) if (random() < probabilities[i]) sample.push({ index: i, probability: probabilities[i], human: human[i] })
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
export function coverage(
  { ppiMean, createRandom, activeProbabilities },
  { seed, replicates, cases, size, rate, judge, design, level = 0.95, estimand = 'split' },
) {
  const random = createRandom(seed)
  const tally = { judgeError: 0, estimates: 0, refused: 0, ppi: 0, classical: 0, ppiWidth: 0, classicalWidth: 0, effectiveReviews: 0, decided: 0, kappa: 0 }
  for (let r = 0; r < replicates; r++) {
    const split = simulateSplit(random, { cases, rate, judge, design, size, activeProbabilities })
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

// Paired splits, for the prediction-powered estimate of B − A (ppiDifference). Each of N tasks has
// two answers, A's and B's, whose human labels fall in the paired 2×2 table with the probabilities
// `table` (both accepted, A only, B only, neither): by default A's rate is 0.70, B's 0.72, and 18% of
// tasks are decided differently. The judge labels each answer on its own, as above, with its own
// confidence. Designs draw tasks, and both answers of a drawn task are reviewed:
// - uniform: n tasks without replacement, π = n/N;
// - stratified: by the judge's B − A (−1, 0, 1), proportional allocation, π = n_h/N_h;
// - active: Poisson, πᵢ = min(1, n·(0.2/N + 0.8·uᵢ/Σu)), uᵢ = (1 − c_Aᵢ) + (1 − c_Bᵢ), the judge's
//   uncertainty about the task's two answers.

/**
 * The judges of the paired grid: those above, labelling both systems' answers alike, and one that
 * favours B (a judge of B's own family, say): calibrated on A's answers, biased to accept on B's.
 */
export const PAIRED_JUDGES = [...JUDGES, { name: 'favours B', floor: 0.7, favours: 'b' }]

/** The paired table of the simulation: A's rate 0.70, B's 0.72, 18% discordant. */
export const PAIRED_TABLE = { both: 0.62, aOnly: 0.08, bOnly: 0.1, neither: 0.2 }

function judgeLabel(random, judge, y) {
  const c = judge.floor + (1 - judge.floor) * random()
  let f = y
  if (judge.bias === undefined) f = random() < c ? y : 1 - y
  else if ((judge.bias === 'accept' && y === 0) || (judge.bias === 'reject' && y === 1)) f = random() < 2 * (1 - c) ? 1 - y : y
  return [f, c]
}

/** One paired split: both systems' human and judge labels on N tasks, and the sample of tasks its design draws. */
export function simulatePairedSplit(random, { cases, table = PAIRED_TABLE, judge, design, size }) {
  const humanA = new Array(cases)
  const humanB = new Array(cases)
  const judgeA = new Array(cases)
  const judgeB = new Array(cases)
  const uncertainty = new Array(cases)
  for (let i = 0; i < cases; i++) {
    const u = random()
    const a = u < table.both + table.aOnly ? 1 : 0
    const b = u < table.both || (u >= table.both + table.aOnly && u < table.both + table.aOnly + table.bOnly) ? 1 : 0
    const [fa, ca] = judgeLabel(random, judge.favours === 'b' ? { floor: judge.floor } : judge, a)
    const [fb, cb] = judgeLabel(random, judge.favours === 'b' ? { floor: judge.floor, bias: 'accept' } : judge, b)
    humanA[i] = a
    humanB[i] = b
    judgeA[i] = fa
    judgeB[i] = fb
    uncertainty[i] = 2 - ca - cb
  }
  const sample = []
  const drawn = (index, probability, stratum) => {
    const pair = { index, probability, a: humanA[index], b: humanB[index] }
    sample.push(stratum === undefined ? pair : { ...pair, stratum })
  }
  if (design === 'uniform') {
    for (const index of choose(random, cases, size)) drawn(index, size / cases)
  } else if (design === 'stratified') {
    for (const value of [-1, 0, 1]) {
      const members = []
      for (let i = 0; i < cases; i++) if (judgeB[i] - judgeA[i] === value) members.push(i)
      const take = Math.min(members.length, Math.round((size * members.length) / cases))
      for (const index of choose(random, cases, take, members)) drawn(index, take / members.length, String(value))
    }
  } else {
    let total = 0
    for (const u of uncertainty) total += u
    for (let i = 0; i < cases; i++) {
      const probability = Math.min(1, size * (0.2 / cases + (0.8 * uncertainty[i]) / total))
      if (random() < probability) drawn(i, probability)
    }
  }
  let truth = 0
  for (let i = 0; i < cases; i++) truth += humanB[i] - humanA[i]
  return { truth: truth / cases, judge: { a: judgeA, b: judgeB }, human: { a: humanA, b: humanB }, sample }
}

/**
 * Runs `replicates` paired splits through `ppiDifference` and tallies how often each interval of
 * B − A covers the truth (the split's own difference, or the table's), with the widths, the
 * effective reviews, the judge's mean kappa (over both systems' answers) and the judge-only error.
 */
export function pairedCoverage(
  { ppiDifference, createRandom },
  { seed, replicates, cases, size, table = PAIRED_TABLE, judge, design, level = 0.95, estimand = 'split' },
) {
  const random = createRandom(seed)
  const tally = { judgeError: 0, estimates: 0, refused: 0, ppi: 0, classical: 0, ppiWidth: 0, classicalWidth: 0, effectiveReviews: 0, decided: 0, kappa: 0 }
  const refusals = {}
  for (let r = 0; r < replicates; r++) {
    const split = simulatePairedSplit(random, { cases, table, judge, design, size })
    const result = ppiDifference({ judge: split.judge, sample: split.sample }, { level, estimand })
    const truth = estimand === 'system' ? table.bOnly - table.aOnly : split.truth
    tally.kappa += (judgeKappa({ judge: split.judge.a, human: split.human.a }) + judgeKappa({ judge: split.judge.b, human: split.human.b })) / 2 / replicates
    let judged = 0
    for (let i = 0; i < cases; i++) judged += split.judge.b[i] - split.judge.a[i]
    tally.judgeError += (judged / cases - truth) / replicates
    if (result.status !== 'estimate') {
      tally.refused++
      refusals[result.reason] = (refusals[result.reason] ?? 0) + 1
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
    refusals,
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
