import { RubricError } from '../core/common/errors.js'
import type { SomeEvaluation } from '../core/engine/evaluate.js'
import { fixtureEstimate } from '../core/sample/fixture-estimate.js'
import type { PageEstimate } from './protocol.js'

/**
 * The overview's estimate of a fixture with a review sample and a judge: with the judge named
 * (the first estimate gate's, for a report a run writes) when the fixture has its labels, else its
 * only judge or the first by name; `null` without a sample or a judge. A sample file that cannot be
 * read is shown with its error rather than failing the page. It is read from the fixture directory.
 */
export async function pageEstimate(evaluation: SomeEvaluation, judge?: string): Promise<PageEstimate | null> {
  try {
    const named = judge !== undefined && evaluation.fixture.judges.names.includes(judge) ? judge : undefined
    return await fixtureEstimate(evaluation, { cwd: evaluation.fixture.dir, judge: named })
  } catch (error) {
    if (error instanceof RubricError) return { error: error.message }
    throw error
  }
}
