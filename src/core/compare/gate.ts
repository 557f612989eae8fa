import { basename } from 'node:path'
import { RubricError } from '../common/errors.js'
import type { Split } from '../common/primitives.js'
import type { PanelPolicy } from '../engine/panel-rule.js'
import type { PlannedCheck } from '../engine/plan.js'
import { compareFixtures, FixturesNotComparableError } from './compare.js'
import { DEVELOPMENT_LABEL, points, pointsInterval, type PairedFigures } from './compare-figures.js'

/** One compare gate: fixture B (the one checked) is not worse than `against` (A) by more than `margin`. */
export interface CompareGate {
  /** Fixture A's directory. */
  readonly against: string
  /** The split compared: held-out cases give the result; development cases are no result. */
  readonly split: Split
  /** The largest drop of B's acceptance rate below A's the gate allows, as a proportion (0.05: 5 points). */
  readonly margin: number
}

/** What a compare gate found for one fixture: its check's outcome, and the paired figures it rests on. */
export interface ComparisonGateReport {
  /** The check's name: `answers-v2 is not worse than answers-v1 by more than 5 points on held-out cases`. */
  readonly name: string
  /** Fixture A's and B's directories, as shown. */
  readonly against: string
  readonly fixture: string
  readonly split: Split
  readonly margin: number
  /**
   * `passed`: the lower bound of B − A is at least −margin; `failed`: it is lower, or the fixtures
   * cannot be compared; `todo`: no pair of the split is decided for both, or the split is
   * development material, which is no result.
   */
  readonly status: 'passed' | 'failed' | 'todo'
  /** Why, with the figures: the check's message. */
  readonly message: string
  /** {@link DEVELOPMENT_LABEL} for the development split; `null` for held-out cases. */
  readonly label: string | null
  /** How many of the split's pairs are decided in both: `8 of 9 tasks decided in both; 1 pending in B`. `null` when not compared. */
  readonly coverage: string | null
  /** Acceptance, paired: the 2×2 table, both rates, B − A and its Newcombe interval. `null` when not compared. */
  readonly acceptance: PairedFigures | null
  /** The discordant cases, A accepted and B rejected first. `null` when not compared. */
  readonly discordant: { readonly a_accepted_b_rejected: readonly string[]; readonly b_accepted_a_rejected: readonly string[] } | null
}

/** Options of {@link compareGate}. */
export interface CompareGateOptions {
  /** Paths in messages are shown relative to this directory. */
  readonly cwd: string
  /** Whether the gate names fixture B itself (its `fixtures` globs): then fixtures that cannot be compared fail rather than being left out. */
  readonly named: boolean
  readonly panel?: PanelPolicy
  readonly seed?: number | string
}

/** The name of a compare gate's check on one fixture. */
export function compareGateName(fixtureDir: string, gate: CompareGate): string {
  return `${basename(fixtureDir)} is not worse than ${basename(gate.against)} by more than ${pointsText(gate.margin)} on ${gate.split === 'held_out' ? 'held-out' : 'development'} cases`
}

/**
 * Compares fixture B (`dir`) with the gate's fixture A, as `vitest-rubric compare A B --split`
 * does, and reads the paired difference of acceptance against the margin. A fixture on another
 * rubric or source is left out (`undefined`) unless the gate names it, when it fails with the
 * differing file; a fixture that cannot be loaded fails with its error.
 */
export async function compareGate(dir: string, gate: CompareGate, options: CompareGateOptions): Promise<ComparisonGateReport | undefined> {
  const name = compareGateName(dir, gate)
  const shown = { name, against: gate.against, fixture: dir, split: gate.split, margin: gate.margin }
  const label = gate.split === 'development' ? DEVELOPMENT_LABEL : null
  let comparison: Awaited<ReturnType<typeof compareFixtures>>
  try {
    comparison = await compareFixtures(gate.against, dir, {
      split: gate.split,
      cwd: options.cwd,
      ...(options.panel === undefined ? {} : { panel: options.panel }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    })
  } catch (error) {
    if (!(error instanceof RubricError)) throw error
    if (error instanceof FixturesNotComparableError && !options.named) return undefined
    return { ...shown, status: 'failed', message: error.message, label, coverage: null, acceptance: null, discordant: null }
  }
  const section = comparison.splits[0]!
  const figures = section.acceptance
  const base = {
    ...shown,
    against: comparison.a.dir,
    fixture: comparison.b.dir,
    label,
    coverage: section.coverage.line,
    acceptance: figures,
    discordant: section.discordant,
  }
  const splitWords = gate.split === 'held_out' ? 'held-out' : 'development'
  if (figures.difference === null || figures.difference_interval === null) {
    return { ...base, status: 'todo', message: `no ${splitWords} pair is decided for both systems yet: ${section.coverage.line}` }
  }
  const lower = figures.difference_interval[0]
  const difference = `B − A = ${points(figures.difference)} points, 95% interval ${pointsInterval(figures.difference_interval)} (Newcombe, paired)`
  if (gate.split === 'development') {
    return { ...base, status: 'todo', message: `${DEVELOPMENT_LABEL}: ${difference}; ${section.coverage.line}` }
  }
  // The bound is compared as printed: a lower bound shown as −5.0 clears a 5-point margin.
  const ok = Math.round(lower * 1000) >= Math.round(-gate.margin * 1000)
  if (ok) {
    return {
      ...base,
      status: 'passed',
      message: `${difference}: the lower bound ${points(lower)} is at least ${points(-gate.margin)}; ${section.coverage.line}`,
    }
  }
  const { table } = figures
  const list = (ids: readonly string[]) => (ids.length === 0 ? 'none' : ids.join(', '))
  const message = [
    `${difference}: the lower bound ${points(lower)} is below ${points(-gate.margin)}, so B may be more than ${pointsText(gate.margin)} worse than A`,
    section.coverage.line,
    `paired table: both accepted ${table.both}, A only ${table.a_only}, B only ${table.b_only}, both rejected ${table.neither}`,
    `A accepted, B rejected: ${list(section.discordant.a_accepted_b_rejected)}`,
    `B accepted, A rejected: ${list(section.discordant.b_accepted_a_rejected)}`,
  ].join('\n')
  return { ...base, status: 'failed', message }
}

/** The report as the fixture's check: todo while it has nothing to decide, else passed or failed with the message. */
export function comparisonCheck(report: ComparisonGateReport): PlannedCheck {
  return { name: report.name, ok: report.status === 'passed', message: report.message, ...(report.status === 'todo' ? { todo: true } : {}) }
}

/** A margin in points: `5 points`, `2.5 points`, `1 point`. */
function pointsText(margin: number): string {
  const value = Number((100 * margin).toFixed(2))
  return `${value} point${value === 1 ? '' : 's'}`
}
