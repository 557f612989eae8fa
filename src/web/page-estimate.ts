import { RubricError } from '../core/common/errors.js'
import type { SomeEvaluation } from '../core/engine/evaluate.js'
import { fixtureEstimate, hasSampleFile } from '../core/sample/fixture-estimate.js'
import type { PageEstimate } from './protocol.js'

/**
 * The judge of a page's estimate: a name, taken when the fixture has its labels (the first estimate
 * gate's, for a report a run writes), or `{ required }`, the judge `serve --judge` names, whose
 * labels a fixture with a sample must have (else the estimate says so, rather than show another's).
 */
export type EstimateJudge = string | { readonly required: string }

/**
 * The overview's estimate of a fixture with a review sample and a judge: with the judge named when
 * the fixture has its labels, else its only judge or the first by name; `null` without a sample or
 * a judge. A sample file that cannot be read, or a required judge without labels, is shown with its
 * error rather than failing the page. It is read from the fixture directory.
 */
export async function pageEstimate(evaluation: SomeEvaluation, judge?: EstimateJudge): Promise<PageEstimate | null> {
  const { fixture } = evaluation
  try {
    if (typeof judge === 'object' && !fixture.judges.names.includes(judge.required)) {
      if (!(await hasSampleFile(fixture.dir))) return null
      const others = fixture.judges.names.length === 0 ? 'it has no judge' : `its judges are ${[...fixture.judges.names].sort().join(', ')}`
      return {
        error: `${fixture.displayDir}: judge ${judge.required} has no labels here (${others}): run \`vitest-rubric judge ${fixture.displayDir} --judge ${judge.required} --run <module>\`, or serve with another --judge.`,
      }
    }
    const named = typeof judge === 'object' ? judge.required : judge !== undefined && fixture.judges.names.includes(judge) ? judge : undefined
    return await fixtureEstimate(evaluation, { cwd: fixture.dir, judge: named })
  } catch (error) {
    if (error instanceof RubricError) return { error: error.message }
    throw error
  }
}
