import { applyCaseRule, type ScoreCard } from './case-rule.js'
import { DIMENSION_NAMES, DIMENSIONS, type BaselineScoringInput, type DebateScoringInput, type DimensionName } from './dimensions/index.js'
import type { DimensionScore } from './dimensions/score.js'
import type { RubricRules } from './rubric.js'

/** The debate system's card for one case: every dimension computed, then the per-case rule. */
export function scoreDebateCase(input: DebateScoringInput, rules: RubricRules): ScoreCard {
  return applyCaseRule(
    scoreAll((name) => DIMENSIONS[name].debate(input)),
    rules,
  )
}

/** The trivial baseline's card for one case, under the rubric's adaptations for the baseline. */
export function scoreBaselineCase(input: BaselineScoringInput, rules: RubricRules): ScoreCard {
  return applyCaseRule(
    scoreAll((name) => DIMENSIONS[name].baseline(input)),
    rules,
  )
}

function scoreAll(score: (name: DimensionName) => DimensionScore): Record<DimensionName, DimensionScore> {
  // Cast: Object.fromEntries over every DimensionName gives each a score.
  return Object.fromEntries(DIMENSION_NAMES.map((name) => [name, score(name)])) as Record<DimensionName, DimensionScore>
}
