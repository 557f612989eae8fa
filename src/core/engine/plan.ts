import { isOriginPlaceholder } from '../common/origin.js'
import { plural, own } from '../common/primitives.js'
import { countCoverage } from './coverage.js'
import type { Coverage } from '../contract/results.js'
import type { Decision } from '../contract/decision.js'
import { evaluateCases, type SomeEvaluation } from './evaluate.js'
import { kindContext, type KindFixture, type SomeFixture } from './fixture.js'
import type { FixtureIdentities, FixtureNote } from '../contract/results.js'
import { panelAgreement, type AgreementReport } from './agreement.js'
import { calibrateJudges, calibrationRatingsOf, matrixLines, type CalibrationReport, type CriterionCalibration, type JudgeCalibration } from './calibration.js'
import type { CalibrationRatings } from '../contract/kind.js'
import { JUDGES_DIR } from './panel.js'
import type { PanelPolicy } from './panel-rule.js'
import type { PlannedCase, PlannedCheck } from '../contract/results.js'

/** What a plan asks of its fixture beyond the files: the several-reviewer rule and the agreement gate. */
export interface PlanOptions {
  readonly panel?: PanelPolicy
  /** Add a check per criterion: reviewers agree on it with Krippendorff's alpha at least `min`. */
  readonly agreementGate?: { readonly min: number }
  /** Add a check per criterion and judge: the judge agrees with the reviewers, over enough cases. */
  readonly judgeGates?: Readonly<Record<string, JudgeGate>>
  /** The seed of every bootstrap interval. */
  readonly seed?: number | string
  /** How the scored kind's baseline gate reads the margin: the point estimate, or its interval's lower bound too. */
  readonly marginGate?: 'point' | 'lower-bound'
}

/**
 * When a judge is trusted on a criterion: at least `minCases` cases, the kappa interval's lower
 * bound at least `minKappa`, and no more false accepts than `maxFalseAccepts`.
 */
export interface JudgeGate {
  readonly minKappa: number
  readonly minCases: number
  /** A count of false accepts, or `{ rate }`: a share of the judgements the reviewers rated failing. No limit when left out. */
  readonly maxFalseAccepts?: number | { readonly rate: number }
  /**
   * The globs that name this fixture for the gate, as the user wrote them: the fixture is checked
   * even without the judge's labels (and fails for the lack of them). Left out, the gate checks
   * the fixture only if it holds the judge's labels.
   */
  readonly named?: string
}

/**
 * What the test runtime needs to turn one evaluated fixture into tests: plain JSON, tagged by the
 * fixture's kind, with the kind's summary `S`.
 */
export interface TestPlan<S = unknown> {
  readonly kind: string
  /** The fixture directory as shown to the user. */
  readonly dir: string
  readonly name: string
  /** `annotations.json › origin`: who or what made the judgements; `null` while it is the placeholder `init` writes. */
  readonly origin: string | null
  readonly coverage: Coverage
  readonly identities: FixtureIdentities
  /** One test per case, in the fixture's order. */
  readonly cases: readonly PlannedCase[]
  readonly checks: readonly PlannedCheck[]
  /** The kind's fixture-level figures (a benchmark's), for the reporter. */
  readonly summary: S
  /** Explanations that hold for the whole fixture, given once (a file whose line endings changed). */
  readonly notes: readonly FixtureNote[]
  /** How far the independent reviews agree; `null` for a fixture without any. */
  readonly agreement: AgreementReport | null
  /** How far each automated judge agrees with the reviewers; `null` for a fixture without judges. */
  readonly calibration: CalibrationReport | null
}

/** The tests an evaluation becomes in Vitest: one per case, the kind's fixture-level checks, and its summary. */
export function planFixtureTests<E extends SomeEvaluation>(evaluation: E, options?: PlanOptions): TestPlan<E['summary']>
export function planFixtureTests(evaluation: SomeEvaluation, options: PlanOptions = {}): TestPlan {
  const { fixture } = evaluation
  const definition = fixture.definition
  const context = kindContext(fixture)
  const seed = options.seed === undefined ? {} : { seed: options.seed }
  const agreement = fixture.panel.reviewers.length === 0 ? null : panelAgreement(fixture, seed)
  const calibration = calibrationOf(evaluation, options)
  const judges = judgeChecks(evaluation, calibration, options.judgeGates)
  return {
    kind: fixture.kind,
    dir: fixture.displayDir,
    name: fixture.name,
    origin: isOriginPlaceholder(fixture.origin) ? null : fixture.origin,
    coverage: evaluation.coverage,
    identities: evaluation.identities,
    cases: plannedCases(fixture, evaluation.decisions),
    // A fixture without cases yet (just scaffolded) has nothing to check: it is one todo, never a failed gate.
    checks:
      fixture.cases.length === 0
        ? []
        : [...definition.present.checks(evaluation.summary, context), ...agreementChecks(agreement, options.agreementGate), ...judges.checks],
    summary: evaluation.summary,
    notes: [...evaluation.notes, ...judges.notes],
    agreement,
    calibration,
  }
}

/** Each decision as its test: status and reason, the failure text, and the kind's figures. */
function plannedCases<R, C, V, D extends Decision, S>(fixture: KindFixture<R, C, V, D, S>, decisions: readonly D[]): PlannedCase[] {
  const definition = fixture.definition
  const context = kindContext(fixture)
  return decisions.map((decision): PlannedCase => {
    const detail = definition.present.plannedCase(decision, context)
    const base = { id: decision.id, split: decision.split, status: decision.status, reason: decision.reason }
    return decision.status === 'refused' ? { ...base, code: decision.error.code, ...detail } : { ...base, ...detail }
  })
}

/** One of the test modules a large fixture is split into: its number (from 1) and how many there are. */
export interface CaseChunk {
  readonly index: number
  readonly count: number
}

/**
 * The cases of a chunk, as indexes into `cases.json` (`start` included, `end` not): the cases are
 * dealt in order into `count` chunks whose sizes differ by at most one, so that every case is in
 * exactly one chunk whatever the number of cases.
 */
export function chunkRange(cases: number, chunk: CaseChunk): { readonly start: number; readonly end: number } {
  return { start: Math.floor(((chunk.index - 1) * cases) / chunk.count), end: Math.floor((chunk.index * cases) / chunk.count) }
}

/**
 * The tests of one chunk of a fixture: its cases, decided as the whole fixture's plan decides
 * them, and their coverage. What needs every case (identities, checks, summary, agreement,
 * calibration) is only in the whole fixture's plan.
 */
export interface ChunkPlan {
  readonly kind: string
  /** The fixture directory as shown to the user. */
  readonly dir: string
  readonly name: string
  readonly chunk: CaseChunk
  /** The coverage of this chunk's cases. */
  readonly coverage: Coverage
  readonly cases: readonly PlannedCase[]
}

/** Plans one chunk of a loaded fixture: only its cases are assessed and decided. */
export function planChunkTests(fixture: SomeFixture, chunk: CaseChunk, options: PlanOptions = {}): ChunkPlan {
  const evaluation = evaluateCases(fixture, chunkRange(fixture.cases.length, chunk), {
    ...(options.panel === undefined ? {} : { panel: options.panel }),
  })
  return chunkPlanOf(fixture, chunk, evaluation.decisions, evaluation.coverage)
}

/**
 * Plans one chunk from the decisions of the whole fixture, as {@link planChunkTests} plans it: a run
 * that decides the whole fixture anyway (for the reporter) decides each case once, not twice.
 */
export function planChunkOfEvaluation(evaluation: SomeEvaluation, chunk: CaseChunk): ChunkPlan {
  const { start, end } = chunkRange(evaluation.fixture.cases.length, chunk)
  const decisions = evaluation.decisions.slice(start, end)
  return chunkPlanOf(evaluation.fixture, chunk, decisions, countCoverage(decisions))
}

function chunkPlanOf(fixture: SomeFixture, chunk: CaseChunk, decisions: readonly Decision[], coverage: Coverage): ChunkPlan {
  return { kind: fixture.kind, dir: fixture.displayDir, name: fixture.name, chunk, coverage, cases: plannedCases(fixture, decisions) }
}

/**
 * The agreement gate: one check per item, passing when Krippendorff's alpha reaches the minimum,
 * failing with the figures and the disagreeing cases, and todo while there is no figure.
 */
function agreementChecks(agreement: AgreementReport | null, gate: PlanOptions['agreementGate']): PlannedCheck[] {
  if (gate === undefined) return []
  if (agreement === null)
    return [{ name: `reviewers agree (α ≥ ${gate.min})`, ok: false, todo: true, message: 'no independent reviews yet: there is no figure to check' }]
  return Object.entries(agreement.items).map(([item, figures]) => {
    const name = `reviewers agree on ${item} (α ≥ ${gate.min})`
    if (figures.alpha === null) return { name, ok: false, todo: true, message: `no figure: ${figures.reason}` }
    const interval =
      figures.alpha_ci === null
        ? ` (no interval: ${figures.alpha_ci_reason ?? 'none'})`
        : ` [95% interval ${figures.alpha_ci[0].toFixed(3)}, ${figures.alpha_ci[1].toFixed(3)}]`
    const cases = plural(figures.units, 'case')
    const disagreements = figures.disagreements.length === 0 ? 'no disagreement' : `disagreements: ${figures.disagreements.join(', ')}`
    const ok = figures.alpha >= gate.min
    return { name, ok, message: `alpha ${figures.alpha.toFixed(3)}${interval} ${ok ? '≥' : '<'} ${gate.min} over ${cases}; ${disagreements}` }
  })
}

/** The calibration of the fixture's judges: `null` without any, or for a kind whose labels are not calibrated. */
function calibrationOf(evaluation: SomeEvaluation, options: PlanOptions): CalibrationReport | null {
  const { fixture } = evaluation
  if (fixture.judges.names.length === 0 || calibrationRatingsOf(fixture.definition) === undefined) return null
  return calibrateJudges(evaluation, options.seed === undefined ? {} : { seed: options.seed })
}

/**
 * The judge gate: per judge and criterion, a check that passes when the judge labelled at least
 * `minCases` cases the reviewers rated, its kappa interval's lower bound reaches `minKappa` and its
 * false accepts are within `maxFalseAccepts`. It fails otherwise, with the matrix, the false accepts
 * and the labels excluded as stale. A gate checks a fixture that holds its judge's labels or that
 * its globs name; one named without labels fails, saying so. A kind whose labels are not calibrated
 * (scored) is not checked: a note says why.
 */
function judgeChecks(
  evaluation: SomeEvaluation,
  calibration: CalibrationReport | null,
  gates: PlanOptions['judgeGates'],
): { checks: PlannedCheck[]; notes: FixtureNote[] } {
  const checks: PlannedCheck[] = []
  const notes: FixtureNote[] = []
  if (gates === undefined) return { checks, notes }
  const { fixture } = evaluation
  const ratings = calibrationRatingsOf(fixture.definition)
  for (const [judge, gate] of Object.entries(gates)) {
    const file = `${fixture.displayDir}/${JUDGES_DIR}/${judge}.json`
    const labelled = own(fixture.judges.files, judge) !== undefined
    if (!labelled && gate.named === undefined) continue
    const { calibration: rule } = fixture.definition.panel
    if (ratings === undefined || 'uncalibrated' in rule) {
      const why = 'uncalibrated' in rule ? `: ${rule.uncalibrated.check}` : ''
      notes.push({
        file: labelled ? file : fixture.displayDir,
        text: `the gate of judge ${judge} skips this fixture: scored calibration does not exist yet${why}`,
      })
      continue
    }
    const figures = own(calibration?.judges, judge)
    if (figures === undefined) {
      const message = `the gate names this fixture (fixtures: ${gate.named ?? ''}), and there are no labels by this judge: ${file} does not exist`
      checks.push({ name: `judge ${judge} agrees with reviewers`, ok: false, message })
      continue
    }
    for (const [criterion, item] of Object.entries(figures.criteria)) {
      checks.push({ name: `judge ${judge} agrees with reviewers on ${criterion}`, ...judgeVerdict(item, figures, gate, ratings) })
    }
  }
  return { checks, notes }
}

function judgeVerdict(item: CriterionCalibration, figures: JudgeCalibration, gate: JudgeGate, ratings: CalibrationRatings): { ok: boolean; message: string } {
  const problems: string[] = []
  const accepts = falseAcceptVerdict(item, gate.maxFalseAccepts, ratings)
  if (item.n < gate.minCases) problems.push(`${item.n} of ${plural(gate.minCases, 'required case')}`)
  if (item.kappa === null) problems.push(`no kappa: ${item.kappa_reason ?? ''}`)
  else if (item.kappa_ci === null) {
    problems.push(`kappa ${item.kappa.toFixed(3)}, no interval (${item.kappa_ci_reason ?? 'none'}), so no lower bound to compare with ${gate.minKappa}`)
  } else if (item.kappa_ci[0] < gate.minKappa) {
    problems.push(`kappa ${item.kappa.toFixed(3)}, interval lower bound ${item.kappa_ci[0].toFixed(3)} < ${gate.minKappa}`)
  }
  const kappa =
    item.kappa === null
      ? 'no kappa'
      : `kappa ${item.kappa.toFixed(3)}${item.kappa_ci === null ? '' : ` [${item.kappa_ci[0].toFixed(3)}, ${item.kappa_ci[1].toFixed(3)}]`}`
  if (accepts !== undefined && !accepts.ok) problems.push(accepts.text)
  if (problems.length === 0)
    return { ok: true, message: `${kappa} over ${plural(item.n, 'case')}; lower bound ≥ ${gate.minKappa}${accepts === undefined ? '' : `; ${accepts.text}`}` }
  const lines = [`${problems.join('; ')}`, ...matrixLines(item), `false accepts: ${item.false_accepts.length === 0 ? 'none' : item.false_accepts.join(', ')}`]
  if (figures.stale > 0) {
    const reasons = [...new Set(figures.stale_cases.map((label) => label.reason))]
    lines.push(`${figures.stale} ${figures.stale === 1 ? 'label is' : 'labels are'} stale: ${reasons.join('; ')}`)
  }
  return { ok: false, message: lines.join('\n') }
}

/** The false accepts of a criterion against the gate's limit; `undefined` when the gate sets none. */
function falseAcceptVerdict(
  item: CriterionCalibration,
  limit: JudgeGate['maxFalseAccepts'],
  ratings: CalibrationRatings,
): { ok: boolean; text: string } | undefined {
  if (limit === undefined) return undefined
  const count = item.false_accepts.length
  const named = count === 0 ? '' : ` (${item.false_accepts.join(', ')})`
  const plural = (n: number) => `${n} false accept${n === 1 ? '' : 's'}`
  if (typeof limit === 'number') {
    const ok = count <= limit
    return { ok, text: `${plural(count)}${named}, ${ok ? 'within' : 'more than'} the ${limit} allowed` }
  }
  // The rate is of the judgements the reviewers rated failing: the ones a judge can falsely accept.
  const failing = Object.values(item.matrix[ratings.fail] ?? {}).reduce((sum, n) => sum + n, 0)
  const rate = failing === 0 ? 0 : count / failing
  const ok = rate <= limit.rate
  const share = `${plural(count)}${named} of ${failing} judgement${failing === 1 ? '' : 's'} the reviewers rated ${ratings.fail}`
  return { ok, text: `false-accept rate ${rate.toFixed(3)}, ${share}, ${ok ? 'within' : 'above'} the rate ${limit.rate} allowed` }
}
