import type { BaselineReview, CaseSpec, DebateOutput, DebateReview } from '../schemas.js'
import { scoreBaselineCalibration, scoreDebateCalibration } from './calibration.js'
import { scoreBaselineDiagnosticity, scoreDebateDiagnosticity } from './diagnosticity.js'
import { scorePrecision } from './precision.js'
import { scoreRecall } from './recall.js'
import { scoreBaselineResolution, scoreDebateResolution } from './resolution.js'
import type { DimensionScore } from './score.js'
import { scoreVerdict } from './verdict.js'
import { lastRoundOf } from '../transcript.js'

/** What the debate system's dimensions are computed from: the case, the transcript and its review. */
export interface DebateScoringInput {
  readonly spec: CaseSpec
  readonly output: DebateOutput
  readonly review: DebateReview
}

/** What the trivial baseline's dimensions are computed from: the case and its review. */
export interface BaselineScoringInput {
  readonly spec: CaseSpec
  readonly review: BaselineReview
}

interface DimensionComputation {
  readonly debate: (input: DebateScoringInput) => DimensionScore
  readonly baseline: (input: BaselineScoringInput) => DimensionScore
}

/**
 * The dimensions this package knows how to compute, for the debate system and under the baseline's
 * adaptations. Which of them a benchmark scores, and in which order, is read from its rubric file.
 */
export const DIMENSIONS = {
  issue_discovery_recall: {
    debate: ({ spec, review }) => scoreRecall(spec.ground_truth.planted_issues, review.claims),
    baseline: ({ spec, review }) => scoreRecall(spec.ground_truth.planted_issues, review.claims),
  },
  issue_discovery_precision: {
    debate: ({ review }) => scorePrecision(review.claims),
    baseline: ({ review }) => scorePrecision(review.claims),
  },
  defense_calibration: {
    debate: ({ review }) => scoreDebateCalibration(review.claims),
    baseline: ({ review }) => scoreBaselineCalibration(review.claims),
  },
  debate_resolution_quality: {
    debate: ({ spec, output, review }) =>
      scoreDebateResolution({
        ideal: spec.ideal_debate_resolution,
        critiqueFinal: review.resolution.critique_final,
        defenseFinal: review.resolution.defense_final,
        moreRoundsThanNecessary: review.resolution.more_rounds_than_necessary,
        rounds: lastRoundOf(output.transcript),
        maxRounds: spec.max_rounds,
      }),
    baseline: ({ spec, review }) => scoreBaselineResolution(spec.ideal_debate_resolution, review.resolution.reached),
  },
  empirical_test_diagnosticity: {
    debate: ({ spec, review }) =>
      scoreDebateDiagnosticity(
        spec.ideal_debate_resolution,
        review.empirical_test === null ? null : { quality: review.empirical_test.quality, by: review.empirical_test.proposed_by },
      ),
    baseline: ({ review }) =>
      scoreBaselineDiagnosticity(review.empirical_test === null ? null : { quality: review.empirical_test.quality, by: 'self-critique' }),
  },
  final_verdict_correctness: {
    debate: ({ spec, review }) => scoreVerdict(spec.ground_truth.final_verdict, review.final_verdict),
    baseline: ({ spec, review }) => scoreVerdict(spec.ground_truth.final_verdict, review.final_verdict),
  },
} as const satisfies Record<string, DimensionComputation>

/** The name of a dimension this package computes (see {@link DIMENSION_NAMES}). */
export type DimensionName = keyof typeof DIMENSIONS

/** The names of the dimensions this package can compute, in the order the specification lists them. */
// Cast: Object.keys of a record keyed by DimensionName gives those names.
export const DIMENSION_NAMES = Object.keys(DIMENSIONS) as readonly DimensionName[]

/** Whether a dimension name in a rubric file is one this package can compute. */
export function isDimensionName(name: string): name is DimensionName {
  return Object.hasOwn(DIMENSIONS, name)
}
