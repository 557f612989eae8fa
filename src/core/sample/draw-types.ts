// What a draw of a review sample is made from and gives: the population, the request and the
// result. Types only, shared by the draw and its designs.
import type { Split } from '../common/primitives.js'
import type { JudgeCaseDesign } from './judge-design.js'
import type { SampledCase, SampleDraw, SampleFile, SampleMethod, SampleStrata } from './sample-format.js'

/** A case of the fixture as a draw sees it. */
export interface PopulationCase {
  readonly id: string
  readonly split: Split
  /** The fingerprint of its answer as reviews bind it; `null` when it has none. */
  readonly answerSha256: string | null
  /** The judge's decision and uncertainty of it, for a design drawn by the judge. */
  readonly judge?: JudgeCaseDesign | undefined
}

/** What a draw is made from: every case of the fixture, in the order of `cases.json`. */
export interface Population {
  readonly cases: readonly PopulationCase[]
  /** The evaluation identity `caseSetSha256`, recorded with the draw. */
  readonly caseSetSha256: string | null
}

/** What `vitest-rubric sample` asks for. */
export interface DrawRequest {
  /** How many cases to add to the sample. */
  readonly size: number
  readonly seed: string
  readonly method: SampleMethod
  /** A stratified draw's strata. @default 'split' */
  readonly strata?: SampleStrata | undefined
  /** The judge a design drawn by the judge reads (every population case then has `judge`). */
  readonly judge?: string | undefined
  /** Start a new sample, replacing the one there is. */
  readonly fresh: boolean
  readonly now: Date
  /** The sample file as messages show it. */
  readonly file: string
}

/** The sample after a draw, and the cases this draw added, in the order drawn. */
export interface DrawResult {
  readonly sample: SampleFile
  readonly drawn: readonly SampledCase[]
}

/** N, N_h and the fingerprint of the cases' ids and splits, as a draw records them. */
export type PopulationFigures = Pick<SampleDraw, 'population' | 'splits' | 'population_sha256'>
