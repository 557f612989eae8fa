/**
 * Student's t quantile for any positive (not only whole) degrees of freedom, as the
 * prediction-powered interval needs with Satterthwaite's degrees of freedom (docs/statistics.md).
 * The upper tail P(T > t) = ½·I_x(ν/2, ½), x = ν/(ν + t²), is the regularized incomplete beta
 * function (Abramowitz & Stegun 26.7.1), computed by its continued fraction (Press et al. 2007,
 * §6.4) and inverted by bisection, which needs no starting guess and converges for every ν.
 */
import { checkLevel, twoSidedZ } from './normal-quantile.js'

// Lanczos (1964) approximation of ln Γ, g = 7 with nine coefficients (relative error below 10⁻¹⁵).
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
  9.9843695780195716e-6, 1.5056327351493116e-7,
]

/** From here on the expansion in 1/ν is used: its first neglected term, of order ν⁻⁵, is below 10⁻¹⁴·z. */
const LARGE_DEGREES = 1000

function logGamma(x: number): number {
  // Only called with x ≥ ½ here, where the reflection formula is not needed.
  const shifted = x - 1
  let sum = LANCZOS[0]!
  for (let k = 1; k < LANCZOS.length; k++) sum += LANCZOS[k]! / (shifted + k)
  const t = shifted + 7.5
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum)
}

/** The continued fraction of I_x(a, b) by the modified Lentz method. */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300
  let c = 1
  let d = 1 - ((a + b) * x) / (a + 1)
  if (Math.abs(d) < tiny) d = tiny
  d = 1 / d
  let fraction = d
  for (let m = 1; m <= 10_000; m++) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m))
    d = 1 + even * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + even / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    fraction *= d * c
    const odd = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1))
    d = 1 + odd * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + odd / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const step = d * c
    fraction *= step
    if (Math.abs(step - 1) < 1e-16) break
  }
  return fraction
}

/** I_x(a, b), given x and 1 − x separately so that neither loses digits near 0 or 1. */
function regularizedBeta(a: number, b: number, x: number, complement: number): number {
  if (x <= 0) return 0
  if (complement <= 0) return 1
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(complement))
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, complement)) / b
}

/** P(T > t) for t ≥ 0 and ν degrees of freedom. */
function upperTail(t: number, degrees: number): number {
  const denominator = degrees + t * t
  return 0.5 * regularizedBeta(degrees / 2, 0.5, degrees / denominator, (t * t) / denominator)
}

/**
 * The two-sided critical value of Student's t with `degrees` of freedom (any ν > 0): the t with
 * P(T ≤ t) = (1 + level)/2; 2.2621571628 for ν = 9 at 0.95. Infinite degrees of freedom give the
 * normal quantile.
 */
export function twoSidedT(level: number, degrees: number): number {
  checkLevel(level)
  if (degrees >= LARGE_DEGREES) {
    // Fisher & Cornish's (1960) expansion in 1/ν, exact to double precision here, where the beta
    // function's logarithms lose their digits.
    const z = twoSidedZ(level)
    const z2 = z * z
    const terms = [
      (z2 + 1) / 4,
      ((5 * z2 + 16) * z2 + 3) / 96,
      (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384,
      ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92_160,
    ]
    return z * (1 + terms.reduceRight((sum, term) => (sum + term) / degrees, 0))
  }
  const tail = (1 - level) / 2
  // The t quantile is above the normal one; double an upper end until it holds the quantile.
  let low = twoSidedZ(level)
  let high = Math.max(2 * low, 1)
  while (upperTail(high, degrees) > tail) {
    low = high
    high *= 2
  }
  for (let step = 0; step < 200 && high - low > 1e-15 * high; step++) {
    const middle = (low + high) / 2
    if (upperTail(middle, degrees) > tail) low = middle
    else high = middle
  }
  return (low + high) / 2
}
