// Cross-checks against a second implementation: scikit-learn (Cohen's kappa), statsmodels (Wilson
// interval), SciPy (normal quantile) and NumPy (type 7 percentiles), run by Debian's
// /usr/bin/python3. These tests fail, never skip, when the packages are missing: CI installs them
// with `apt-get install -y python3-sklearn python3-statsmodels`.
import { spawnSync } from 'node:child_process'
import { describe, expect, test } from 'vitest'
import { cohenKappa, type RatingPair } from '../../../src/core/stats/cohen-kappa.js'
import { wilsonInterval } from '../../../src/core/stats/intervals.js'
import { normalQuantile } from '../../../src/core/stats/normal-quantile.js'
import { percentileInterval } from '../../../src/core/stats/percentile.js'
import { createRandom, randomIndex } from '../../../src/core/stats/random.js'

const PYTHON = '/usr/bin/python3'
const INSTALL = 'apt-get install -y python3-sklearn python3-statsmodels'

// stdin is read before the imports, so that a missing module is reported as such, not as a broken pipe.
const SCRIPT = `
import json, math, sys, warnings
data = json.load(sys.stdin)
import numpy
from scipy.special import ndtri
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.proportion import proportion_confint

warnings.simplefilter('ignore')

def finite(x):
    x = float(x)
    return None if math.isnan(x) else x

out = {
    'kappa': [finite(cohen_kappa_score(case['a'], case['b'])) for case in data['kappa']],
    'wilson': [list(map(float, proportion_confint(c['s'], c['n'], alpha=1 - c['level'], method='wilson'))) for c in data['wilson']],
    'ndtri': [float(ndtri(p)) for p in data['ndtri']],
    'percentile': [list(map(float, numpy.percentile(c['samples'], [50 * (1 - c['level']), 50 * (1 + c['level'])]))) for c in data['percentile']],
}
json.dump(out, sys.stdout)
`

interface Cases {
  readonly kappa: { a: string[]; b: string[] }[]
  readonly wilson: { s: number; n: number; level: number }[]
  readonly ndtri: number[]
  readonly percentile: { samples: number[]; level: number }[]
}

interface Answers {
  readonly kappa: (number | null)[]
  readonly wilson: [number, number][]
  readonly ndtri: number[]
  readonly percentile: [number, number][]
}

function makeCases(): Cases {
  const random = createRandom('second-implementation')
  const labels = ['meets', 'partly', 'does_not_meet', 'not_applicable']
  const kappa = Array.from({ length: 300 }, (_unused, set) => {
    const n = 1 + randomIndex(random, 80)
    const q = 2 + randomIndex(random, 3)
    const skew = random()
    const label = () => (random() < skew ? 'meets' : (labels[randomIndex(random, q)] as string))
    const a = Array.from({ length: n }, label)
    // Every tenth set: the first coder never varies; every fifteenth: neither does (κ undefined).
    if (set % 10 === 0) a.fill('meets')
    const b = a.map((value) => (set % 15 === 0 ? value : random() < 0.6 ? value : label()))
    return { a, b }
  })
  const wilson = Array.from({ length: 200 }, () => {
    const n = 1 + randomIndex(random, 500)
    const s = random() < 0.2 ? (random() < 0.5 ? 0 : n) : randomIndex(random, n + 1)
    const level = [0.8, 0.9, 0.95, 0.99, 0.999][randomIndex(random, 5)] as number
    return { s, n, level }
  })
  const ndtri = [1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.02425, 0.075, 0.5, 0.9, 0.97575, 0.999, 1 - 1e-10]
  for (let i = 0; i < 200; i++) ndtri.push(random() || 0.5)
  const percentile = Array.from({ length: 100 }, () => ({
    samples: Array.from({ length: 1 + randomIndex(random, 300) }, () => random() * 2 - 1),
    level: [0.5, 0.8, 0.9, 0.95, 0.99][randomIndex(random, 5)] as number,
  }))
  return { kappa, wilson, ndtri, percentile }
}

function runPython(cases: Cases): Answers {
  const result = spawnSync(PYTHON, ['-c', SCRIPT], { input: JSON.stringify(cases), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.status === null || result.error !== undefined) {
    const why = result.error?.message ?? `killed by ${String(result.signal)}`
    throw new Error(`cannot run ${PYTHON} (${why}); the cross-checks need it with scikit-learn and statsmodels: ${INSTALL}\n${result.stderr ?? ''}`)
  }
  if (result.status !== 0) {
    const missing = /ModuleNotFoundError|ImportError/.test(result.stderr)
      ? `scikit-learn, statsmodels, SciPy or NumPy is missing for ${PYTHON}; install them with: ${INSTALL}\n`
      : ''
    throw new Error(`${missing}${PYTHON} exited with status ${String(result.status)}:\n${result.stderr}`)
  }
  return JSON.parse(result.stdout) as Answers
}

const cases = makeCases()
let outcome: { answers: Answers } | { error: unknown } | undefined

/** Python's answers, run once; every test that needs them fails (rather than skips) when Python cannot give them. */
function answers(): Answers {
  if (outcome === undefined) {
    try {
      outcome = { answers: runPython(cases) }
    } catch (error) {
      outcome = { error }
    }
  }
  if ('error' in outcome) throw outcome.error
  return outcome.answers
}

describe('second implementation', () => {
  test("Cohen's kappa equals scikit-learn's cohen_kappa_score, null where it is NaN", () => {
    let undefinedCases = 0
    for (const [i, { a, b }] of cases.kappa.entries()) {
      const pairs = a.map((label, unit): RatingPair => [label, b[unit] as string])
      const expected = answers().kappa[i] ?? null
      const actual = cohenKappa(pairs).kappa
      if (expected === null) {
        undefinedCases++
        expect(actual).toBeNull()
      } else expect(actual).toBeCloseTo(expected, 12)
    }
    // The sample must exercise the undefined case, not only the ordinary one.
    expect(undefinedCases).toBeGreaterThan(0)
  })

  test("the Wilson interval equals statsmodels' proportion_confint(method='wilson')", () => {
    for (const [i, { s, n, level }] of cases.wilson.entries()) {
      const [low, high] = answers().wilson[i] as [number, number]
      const interval = wilsonInterval(s, n, { level })
      expect(interval?.low).toBeCloseTo(low, 12)
      expect(interval?.high).toBeCloseTo(high, 12)
    }
  })

  test("the normal quantile equals SciPy's ndtri", () => {
    for (const [i, p] of cases.ndtri.entries()) expect(normalQuantile(p)).toBeCloseTo(answers().ndtri[i] as number, 12)
  })

  test("percentileInterval equals NumPy's default (linear) percentile", () => {
    for (const [i, { samples, level }] of cases.percentile.entries()) {
      const [low, high] = answers().percentile[i] as [number, number]
      expect(percentileInterval(samples, level)?.low).toBeCloseTo(low, 12)
      expect(percentileInterval(samples, level)?.high).toBeCloseTo(high, 12)
    }
  })
})
