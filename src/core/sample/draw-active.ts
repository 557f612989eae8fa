/**
 * Extending an active design (docs/statistics.md#extending-an-active-design): a second Poisson phase,
 * independent of the first, with probabilities from the judge's current labels. The union of
 * independent Poisson phases is a Poisson design whose probabilities are 1 − Π(1 − πₖ), so the
 * sample stays one the estimators weigh as they are.
 */
import { UsageError } from '../common/errors.js'
import { compareCodePoints } from '../json/canonical-json.js'
import { createRandom } from '../stats/random.js'
import { ACTIVE_FLOOR, poissonDraw, refuseExtension } from './draw-judge.js'
import type { DrawRequest, DrawResult, Population, PopulationCase, PopulationFigures } from './draw-types.js'
import type { SampledCase, SampleDraw, SampleFile } from './sample-format.js'

/** The positions of the cases in code-point order of their ids: the order `population_sha256` fingerprints, whatever the order of `cases.json`. */
export function idOrder(cases: readonly Pick<PopulationCase, 'id'>[]): number[] {
  return cases.map((_, index) => index).sort((a, b) => compareCodePoints(cases[a]!.id, cases[b]!.id))
}

/** Every case's probability, from the population's order to the order of its ids, as `inclusion_probabilities` records them. */
export function inIdOrder(cases: readonly Pick<PopulationCase, 'id'>[], probabilities: readonly number[]): number[] {
  return idOrder(cases).map((index) => probabilities[index]!)
}

/** `inclusion_probabilities` as recorded (in the order of the ids), back in the population's order. */
function fromIdOrder(cases: readonly Pick<PopulationCase, 'id'>[], recorded: readonly number[]): number[] {
  const probabilities = new Array<number>(cases.length)
  for (const [position, index] of idOrder(cases).entries()) probabilities[index] = recorded[position]!
  return probabilities
}

/**
 * A second phase of an active design: π2ᵢ = min(1, s·(τ/N + (1 − τ)·uᵢ/Σu)), uᵢ the judge's current
 * uncertainty, with s chosen so that the phase adds `added` cases in expectation,
 * Σ (1 − πᵢ)·π2ᵢ = added, πᵢ the probability of the draws so far (π2ᵢ = 0 where πᵢ = 1: nothing to
 * add). The scale depends on the earlier probabilities only, never on which cases they drew, so the
 * phase is independent of them; `combined` is then 1 − (1 − πᵢ)(1 − π2ᵢ).
 */
export function activeExtensionProbabilities(
  previous: readonly number[],
  uncertainties: readonly number[],
  added: number,
  floor: number = ACTIVE_FLOOR,
): { phase: number[]; combined: number[] } {
  const n = uncertainties.length
  const total = uncertainties.reduce((sum, u) => sum + u, 0)
  const shares = uncertainties.map((u) => (total > 0 ? floor / n + ((1 - floor) * u) / total : 1 / n))
  const left = previous.map((probability) => 1 - probability)
  const open = left.flatMap((weight, i) => (weight > 0 ? [i] : []))
  const capped = new Set<number>()
  let scale = 0
  while (capped.size < open.length) {
    let fixed = 0
    let rest = 0
    for (const i of open) {
      if (capped.has(i)) fixed += left[i]!
      else rest += left[i]! * shares[i]!
    }
    scale = (added - fixed) / rest
    let grew = false
    for (const i of open) {
      if (!capped.has(i) && scale * shares[i]! >= 1) {
        capped.add(i)
        grew = true
      }
    }
    if (!grew) break
  }
  const phase = shares.map((share, i) => (left[i]! <= 0 ? 0 : capped.has(i) ? 1 : Math.min(1, scale * share)))
  const combined = previous.map((probability, i) => (phase[i] === 1 ? 1 : 1 - (1 - probability) * (1 - phase[i]!)))
  return { phase, combined }
}

/**
 * Refuses an extension of an active sample that another design or judge asks for, or whose draws do
 * not record every case's probability (a file written before they were recorded): the recorded
 * probabilities of the last draw, in the order of the ids, when it can be extended.
 */
export function extensionBase(earlier: SampleFile, request: DrawRequest, file: string): readonly number[] {
  const last = earlier.draws[earlier.draws.length - 1]!
  const recorded = last.inclusion_probabilities
  if (recorded === undefined) refuseExtension("actively (by the judge's uncertainty)", file)
  const judge = earlier.draws[0]!.judge
  if (request.method === 'active' && request.judge !== judge) {
    throw new UsageError({
      code: 'USAGE',
      file,
      summary: `the sample was drawn by judge ${judge ?? '?'}'s uncertainty, and an extension draws by the same judge's current labels; --judge ${request.judge ?? '(none)'} was given.`,
      expected: `--judge ${judge ?? '<the judge of the draw>'}`,
      hint: `extend it with --method active --judge ${judge ?? '<name>'}, or start a new sample with --new.`,
    })
  }
  return recorded
}

/**
 * The sample after a further active phase: every earlier case kept, the cases this phase drew added,
 * and every probability, recorded for every case again, brought to 1 − (1 − π)(1 − π2).
 */
export function extendActive(
  earlier: SampleFile,
  recorded: readonly number[],
  population: Population,
  request: DrawRequest,
  figures: PopulationFigures,
): DrawResult {
  const cases = population.cases
  if (cases.some((entry) => entry.judge === undefined)) throw new Error('an active extension needs the judge design of every case')
  const previous = fromIdOrder(cases, recorded)
  const room = previous.reduce((sum, probability) => sum + (1 - probability), 0)
  const most = Math.floor(room + 1e-9)
  if (!Number.isInteger(request.size) || request.size < 1 || request.size > most) {
    throw new UsageError({
      code: 'USAGE',
      file: request.file,
      summary: `--size, the expected number of cases an extension of an active sample adds, must be a whole number from 1 to ${most}, the expected number of cases the draws so far leave (Σ(1 − π) = ${room.toFixed(2)}); found ${String(request.size)}.`,
      expected: `--size between 1 and ${most}`,
      hint: most < 1 ? 'nearly every case is in the sample already: review them, or start a new sample with --new.' : `pass a --size of at most ${most}.`,
    })
  }
  const { phase, combined } = activeExtensionProbabilities(
    previous,
    cases.map((entry) => entry.judge!.uncertainty),
    request.size,
  )
  const position = new Map(cases.map((entry, index) => [entry.id, index]))
  const taken = new Set(earlier.cases.map((drawn) => drawn.id))
  const drawIndex = earlier.draws.length
  const drawn: SampledCase[] = poissonDraw(phase, createRandom(request.seed))
    .filter((i) => !taken.has(cases[i]!.id))
    .map((i) => {
      const entry = cases[i]!
      return {
        id: entry.id,
        draw: drawIndex,
        probability: combined[i]!,
        stratum: null,
        split: entry.split,
        answer_sha256: entry.answerSha256,
        least_sure: { ...entry.judge!.leastSure },
      }
    })
  const kept = earlier.cases.map((drawnCase) => ({ ...drawnCase, probability: combined[position.get(drawnCase.id)!]! }))
  const draw: SampleDraw = {
    seed: request.seed,
    method: 'active',
    size: drawn.length,
    drawn_at: request.now.toISOString(),
    ...figures,
    case_set_sha256: population.caseSetSha256,
    judge: request.judge!,
    floor: ACTIVE_FLOOR,
    expected_size: request.size,
    inclusion_probabilities: inIdOrder(cases, combined),
  }
  return { sample: { ...earlier, draws: [...earlier.draws, draw], cases: [...kept, ...drawn] }, drawn }
}
