import { fingerprint } from '../canonical-json.js'
import { countCoverage, type Coverage } from '../coverage.js'
import type { FixtureIdentities } from '../criteria/record.js'
import { assessScoredCase } from './assess.js'
import { benchmarkFigures, type BenchmarkFigures } from './benchmark.js'
import type { ScoredDecision } from './decision.js'
import type { ScoredFixture } from './load.js'

/** Every case of a scored fixture decided, with its coverage and the benchmark figures. */
export interface ScoredEvaluation {
  readonly fixture: ScoredFixture
  /** One decision per case, in the order of `cases.json`. */
  readonly decisions: readonly ScoredDecision[]
  readonly coverage: Coverage
  readonly benchmark: BenchmarkFigures
  /** The full case set, the graded subset (cases that passed or failed) and every file. */
  readonly identities: FixtureIdentities
}

/** Applies the bindings, the dimensions and the rubric's rules to every case; one refused case never stops the others. */
export function evaluateScoredFixture(fixture: ScoredFixture): ScoredEvaluation {
  const context = { rubric: fixture.rubric, files: fixture.fileNames, split: fixture.split }
  const decisions = fixture.cases.map((entry) => {
    const reviews = fixture.reviews.get(entry.id)
    return assessScoredCase(context, entry, { debate: reviews?.debate ?? null, baseline: reviews?.baseline ?? null })
  })
  const graded = new Set(decisions.filter((decision) => decision.status === 'accepted' || decision.status === 'rejected').map((decision) => decision.id))
  return {
    fixture,
    decisions,
    coverage: countCoverage(decisions),
    benchmark: benchmarkFigures(decisions, fixture.rubric.rules),
    identities: {
      caseSetSha256: fixture.caseSetSha256,
      // Case values were fingerprinted whole at load, so this cannot fail.
      gradedSetSha256: fingerprint(fixture.cases.filter((entry) => graded.has(entry.id)).map((entry) => entry.value)),
      files: fixture.files,
    },
  }
}
