// Coverage of the overall (pooled) 95% alpha interval when the criteria of a case are correlated.
//
//   npm run build && node test/bench/alpha-coverage.mjs [--panels 400] [--cases 30] [--dist dist]
//   node test/bench/alpha-coverage.mjs --panels 1000 --cases 10,15,20,25,30,40,60
//
// Runs against the built package (dist/ by default, or --dist <dir> for another build), seeded and
// bounded (400 panels × 1,000 replicates take a few seconds). `--cases` takes one panel size or a
// comma-separated list: each size draws its panels from the same seed, so the first 400 panels of a
// size are those of `--panels 400`. Not part of `npm test`; the figures are in docs/statistics.md.
//
// The model: a panel has C cases, each judged on J criteria by R reviewers, every judgement given.
// A case has a latent quality q (shared by its criteria) and a latent difficulty h (shared too).
// The true rating of criterion j is `meets` when √½·q + √½·e + b_j > 0 (e independent per
// criterion, b_j the criterion's base rate); each reviewer flips it with the probability
// 1 / (1 + exp(1.7 − 1.2·h)) of the case, independently. Disagreements therefore cluster in the
// hard cases, across all their criteria: case × criterion units are not independent draws.
//
// The true alpha is the limit of pooled alpha as the number of cases grows (complete data, m = R
// values per unit): α∞ = 1 − E[d_u] / (m · 2p(1 − p)), with d_u = Σ_{c≠k} n_uc n_uk / (m − 1) the
// unit's disagreement and p the share of `meets`, both estimated from 2,000,000 simulated cases.
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'

const { values } = parseArgs({
  options: { panels: { type: 'string', default: '400' }, cases: { type: 'string', default: '30' }, dist: { type: 'string', default: 'dist' } },
})
const PANELS = Number(values.panels)
const SIZES = values.cases.split(',').map(Number)
const stats = await import(pathToFileURL(resolve(values.dist, 'core/stats/index.js')).href)
const { alphaBootstrap, krippendorffAlpha, createRandom } = stats

const CRITERIA = [0.8, 0.4, 0, -0.4, 0.8]
const REVIEWERS = 3
const REPLICATES = 1000

function normal(random) {
  // Box–Muller; 1 − u keeps the logarithm finite.
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

/** One case: per criterion, the reviewers' ratings. */
function simulateCase(random) {
  const quality = normal(random)
  const difficulty = normal(random)
  const flip = 1 / (1 + Math.exp(1.7 - 1.2 * difficulty))
  return CRITERIA.map((base) => {
    const truth = Math.SQRT1_2 * quality + Math.SQRT1_2 * normal(random) + base > 0
    return Array.from({ length: REVIEWERS }, () => ((random() < flip ? !truth : truth) ? 'meets' : 'does_not_meet'))
  })
}

function trueAlpha() {
  const random = createRandom('alpha-coverage: truth')
  let disagreement = 0
  let meets = 0
  let units = 0
  for (let c = 0; c < 2_000_000; c++) {
    for (const unit of simulateCase(random)) {
      const k = unit.filter((value) => value === 'meets').length
      disagreement += (2 * k * (REVIEWERS - k)) / (REVIEWERS - 1)
      meets += k
      units++
    }
  }
  const p = meets / (units * REVIEWERS)
  return 1 - disagreement / units / (REVIEWERS * 2 * p * (1 - p))
}

const started = performance.now()
const truth = trueAlpha()
console.log(`build: ${resolve(values.dist)}`)
console.log(`model: cases × ${CRITERIA.length} criteria × ${REVIEWERS} reviewers, correlated criteria; true alpha ${truth.toFixed(4)}`)
console.log(`${PANELS} panels per size; ${REPLICATES} replicates per interval`)
console.log('cases | covered | coverage | 95% interval of the coverage (Wilson) | mean width | no interval | skipped | resampled')
for (const CASES of SIZES) {
  const random = createRandom('alpha-coverage: panels')
  let covered = 0
  let intervals = 0
  let noInterval = 0
  let width = 0
  let skipped = 0
  let drawn = 0
  let resampled = 'case × criterion units'
  for (let panel = 0; panel < PANELS; panel++) {
    const cases = Array.from({ length: CASES }, () => simulateCase(random))
    // Only criteria that vary are pooled (a criterion whose own alpha is null adds no information).
    const varying = CRITERIA.map((_base, j) => j).filter(
      (j) =>
        krippendorffAlpha(
          cases.map((ratings) => ratings[j]),
          'nominal',
        ).alpha !== null,
    )
    const units = []
    const clusters = []
    cases.forEach((ratings, c) => {
      for (const j of varying) {
        units.push(ratings[j])
        clusters.push(c)
      }
    })
    const interval = varying.length === 0 ? null : alphaBootstrap(units, 'nominal', { seed: `panel ${panel}`, samples: REPLICATES, clusters })
    if (interval?.cases !== undefined && interval.cases === CASES) resampled = 'cases'
    if (interval === null || interval === undefined || interval.low === undefined) {
      noInterval++
      continue
    }
    intervals++
    if (interval.low <= truth && truth <= interval.high) covered++
    width += interval.high - interval.low
    skipped += interval.skipped
    drawn += interval.samples + interval.skipped
  }
  const share = covered / intervals
  const z = 1.959963984540054
  const centre = (covered + (z * z) / 2) / (intervals + z * z)
  const half = (z * Math.sqrt((covered * (intervals - covered)) / intervals + (z * z) / 4)) / (intervals + z * z)
  console.log(
    `${CASES} | ${covered} of ${intervals} | ${(100 * share).toFixed(1)}% | ${(100 * (centre - half)).toFixed(1)}%–${(100 * (centre + half)).toFixed(1)}% | ${(width / intervals).toFixed(3)} | ${noInterval} | ${((100 * skipped) / drawn).toFixed(2)}% | ${resampled}`,
  )
}
console.log(`time ${((performance.now() - started) / 1000).toFixed(1)} s`)
