import { duplicateIdDetails } from '../../common/errors.js'
import type { CaseAt, KindContext, Problem, ReviewUnderCheck } from '../../contract/kind.js'
import { checkBaselineProvenance, checkDebateProvenance } from './provenance.js'
import type { ScoredRubric } from './rubric.js'
import type { BaselineReview, DebateReview, ScoredCase } from './schemas.js'

/** Within one case, every planted issue has its own id: claims find planted issues by id. */
export function checkScoredCase(context: KindContext<ScoredRubric>, theCase: ScoredCase, at: CaseAt): Problem[] {
  const issues = theCase.spec.ground_truth.planted_issues
  const problems: Problem[] = []
  const seen = new Map<string, number>()
  issues.forEach((issue, index) => {
    const earlier = seen.get(issue.id)
    if (earlier === undefined) {
      seen.set(issue.id, index)
      return
    }
    const path = [...at.path, 'spec', 'ground_truth', 'planted_issues', index, 'id']
    const hint = 'give every planted issue its own id: claims find planted issues by id.'
    problems.push(
      duplicateIdDetails({
        code: 'DUPLICATE_PLANTED_ISSUE',
        file: context.files.cases?.display,
        path,
        caseId: at.id,
        what: 'planted issue',
        earlier: `planted_issues[${earlier}]`,
        id: issue.id,
        hint,
      }),
    )
  })
  return problems
}

/**
 * The provenance of a review whose format holds: its claims, responses, test and verdict quote the
 * output it describes, and its sub-judgements are there exactly where the rubric needs them.
 */
export function checkScoredReview(
  context: KindContext<ScoredRubric>,
  theCase: ScoredCase,
  review: ReviewUnderCheck<DebateReview | BaselineReview>,
  at: CaseAt,
): Problem[] {
  if (review.parsed === undefined) return []
  const reviewAt = {
    files: { cases: context.files.cases?.display ?? 'cases.json', annotations: review.file },
    caseId: at.id,
    casePath: at.path,
    reviewPath: review.path,
    problems: noProblems(),
  }
  if (review.parsed.system === 'debate') checkDebateProvenance(reviewAt, theCase, review.parsed)
  else checkBaselineProvenance(reviewAt, theCase, review.parsed)
  return reviewAt.problems
}

function noProblems(): Problem[] {
  return []
}
