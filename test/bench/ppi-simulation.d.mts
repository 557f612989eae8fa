/** Types of ppi-simulation.mjs, for the coverage test that runs it against the sources. */
import type { createRandom as CreateRandom } from '../../src/core/stats/random.js'
import type { ppiMean as PpiMean } from '../../src/core/stats/ppi.js'
import type { ppiDifference as PpiDifference, PpiPairedCase } from '../../src/core/stats/ppi-difference.js'
import type { PpiSampledCase } from '../../src/core/stats/ppi-input.js'
import type { activeProbabilities as ActiveProbabilities } from '../../src/core/sample/draw-judge.js'

export interface Judge {
  readonly name: string
  /** The judge's confidence is uniform in [floor, 1]; it is right with that probability. */
  readonly floor: number
  readonly bias?: 'accept' | 'reject'
  /** Paired splits only: calibrated on A's answers, biased to accept on B's. */
  readonly favours?: 'b'
}
export type Design = 'uniform' | 'stratified' | 'active'
export const JUDGES: readonly Judge[]
export const DESIGNS: readonly Design[]
export interface Split {
  readonly truth: number
  readonly judge: number[]
  readonly human: number[]
  readonly sample: PpiSampledCase[]
}
export function simulateSplit(
  random: () => number,
  settings: {
    readonly cases: number
    readonly rate: number
    readonly judge: Judge
    readonly design: Design
    readonly size: number
    /** The active design's probabilities from the uncertainties 1 − c and n: `vitest-rubric sample --method active`'s. */
    readonly activeProbabilities?: typeof ActiveProbabilities | undefined
  },
): Split
export function judgeKappa(split: Split): number
export interface Coverage {
  readonly estimates: number
  readonly refused: number
  readonly kappa: number
  /** The mean of the judge-only rate minus the truth. */
  readonly judgeError: number
  readonly ppiCoverage: number
  readonly classicalCoverage: number
  readonly ppiWidth: number
  readonly classicalWidth: number
  readonly effectiveReviews: number
  readonly reviews: number
}
export function coverage(
  stats: { readonly ppiMean: typeof PpiMean; readonly createRandom: typeof CreateRandom; readonly activeProbabilities?: typeof ActiveProbabilities },
  settings: {
    readonly seed: number | string
    readonly replicates: number
    readonly cases: number
    readonly size: number
    readonly rate: number
    readonly judge: Judge
    readonly design: Design
    readonly level?: number
    readonly estimand?: 'split' | 'system'
  },
): Coverage

export const PAIRED_JUDGES: readonly Judge[]
/** The probabilities of the paired 2×2 table: both accepted, A only, B only, neither. */
export interface PairedTable {
  readonly both: number
  readonly aOnly: number
  readonly bOnly: number
  readonly neither: number
}
export const PAIRED_TABLE: PairedTable
export interface PairedSplit {
  readonly truth: number
  readonly judge: { readonly a: number[]; readonly b: number[] }
  readonly human: { readonly a: number[]; readonly b: number[] }
  readonly sample: PpiPairedCase[]
}
export function simulatePairedSplit(
  random: () => number,
  settings: { readonly cases: number; readonly table?: PairedTable; readonly judge: Judge; readonly design: Design; readonly size: number },
): PairedSplit
export function pairedCoverage(
  stats: { readonly ppiDifference: typeof PpiDifference; readonly createRandom: typeof CreateRandom },
  settings: {
    readonly seed: number | string
    readonly replicates: number
    readonly cases: number
    readonly size: number
    readonly table?: PairedTable
    readonly judge: Judge
    readonly design: Design
    readonly level?: number
    readonly estimand?: 'split' | 'system'
  },
): Coverage & { readonly refusals: Readonly<Record<string, number>> }
