import { z } from 'zod'
import { REVIEWER_NAME, reviewerName } from '../core/engine/panel.js'
import { globs } from './glob-option.js'

/**
 * One estimate gate: on each fixture it checks, the judge-assisted (PPI++) acceptance rate of one
 * split, from `judge`'s decisions on every case and the human decisions of the fixture's review
 * sample (`sample.json`), is at least `min`, as `vitest-rubric estimate` computes it.
 */
export interface EstimateGateOptions {
  /** The judge whose decisions cover every case (the name of its file `judges/<name>.json`). */
  readonly judge: string
  /**
   * The split estimated. Held-out cases give the result; development cases are development
   * material, so their check is always todo, never a pass.
   * @default 'held_out'
   */
  readonly split?: 'held_out' | 'development'
  /**
   * The least acceptance rate, a proportion from 0 to 1: the check passes when the lower bound of
   * the estimate's 95% interval is at least `min`.
   */
  readonly min: number
  /**
   * Globs of the fixture directories the gate checks, matched as `include` is; a named fixture
   * without the judge's labels or without a sample fails. Left out, the gate checks the fixtures
   * that hold the judge's labels.
   */
  readonly fixtures?: string | readonly string[]
}

/** An estimate gate with its defaults applied and its globs as a list. */
export interface ResolvedEstimateGate {
  readonly judge: string
  readonly split: 'held_out' | 'development'
  readonly min: number
  /** `undefined`: the fixtures that hold the judge's labels. */
  readonly fixtures: readonly string[] | undefined
}

const MIN = 'an acceptance rate from 0 to 1 (0.7 is 70%)'

const JUDGE = 'a judge name (the name of its file judges/<name>.json): letters and digits, then also ".", "_", "-"'

export const EstimateGateSchema = z.strictObject({
  judge: z.string({ error: JUDGE }).regex(REVIEWER_NAME, { error: JUDGE }),
  split: z.enum(['held_out', 'development'], { error: 'one of "held_out", "development"' }).optional(),
  min: z.number({ error: MIN }).min(0, { error: MIN }).max(1, { error: MIN }),
  fixtures: globs.optional(),
})

/** The `estimate` option of rubric(): one gate, or a list of them. */
export const EstimateGatesSchema = z.union([EstimateGateSchema, z.array(EstimateGateSchema)], {
  error: 'an estimate gate { judge, min, split, fixtures }, or a list of them',
})

/** The gates with their defaults, in the order given. */
export function resolveEstimateGates(
  value: z.infer<typeof EstimateGatesSchema> | undefined,
  globs: (value: string | readonly string[]) => string[],
): ResolvedEstimateGate[] {
  if (value === undefined) return []
  return (Array.isArray(value) ? value : [value]).map((gate) => ({
    judge: reviewerName(gate.judge),
    split: gate.split ?? 'held_out',
    min: gate.min,
    fixtures: gate.fixtures === undefined ? undefined : globs(gate.fixtures),
  }))
}
