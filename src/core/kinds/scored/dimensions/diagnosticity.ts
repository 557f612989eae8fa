import type { ResolutionType, TestQuality } from '../schemas.js'
import { notApplicable, scored, type DimensionScore } from './score.js'

const QUALITY: Readonly<Record<TestQuality, number>> = {
  diagnostic: 1, // defined procedure, measurable outcome, outcomes map to critique-wins vs defense-wins
  underspecified: 0.5, // relevant, but e.g. no acceptance criterion or several hypotheses at once
  non_diagnostic: 0, // passes under both hypotheses, or tests another question
}

/** A proposed test as the reviewer judged it. */
export interface ProposedTest {
  readonly quality: TestQuality
  /** Who proposed it: `critique`, `defense` or `self-critique`. */
  readonly by: string
}

/**
 * `empirical_test_diagnosticity` of the debate system: scored when a test is proposed or the ideal
 * resolution is `empirical_test_agreed`. When a test is required but none is proposed the score is
 * 0.0: nothing was proposed that could tell the two positions apart. N/A otherwise.
 */
export function scoreDebateDiagnosticity(ideal: ResolutionType, test: ProposedTest | null): DimensionScore {
  if (test !== null) return scoreTest(test)
  if (ideal === 'empirical_test_agreed') {
    return scored(0, 'required (the ideal resolution is empirical_test_agreed), but no concrete test is proposed')
  }
  return notApplicable(`N/A: no test proposed and the ideal resolution is ${ideal}`)
}

/**
 * `empirical_test_diagnosticity` of the trivial baseline (adaptation 4): scored from the
 * self-critique's proposed test if any, otherwise N/A, whatever the ideal resolution.
 */
export function scoreBaselineDiagnosticity(test: ProposedTest | null): DimensionScore {
  if (test === null) return notApplicable('N/A: the self-critique proposes no test')
  return scoreTest(test)
}

function scoreTest(test: ProposedTest): DimensionScore {
  return scored(QUALITY[test.quality], `test proposed by the ${test.by}: ${test.quality.replace('_', '-')}`)
}
