import type { Split } from '../criteria/schemas.js'
import { BindingError, type SerializedRubricError } from '../errors.js'
import type { PathSegment } from '../json-path.js'
import { safeParseReporting, schemaError } from '../schema-error.js'
import { fingerprintAt } from '../json-at.js'
import { explainStaleBytes } from '../line-endings.js'
import { checkReviewBindings, checkReviewRevision, type CaseAt, type Located, type ScoredFileNames } from './bindings.js'
import { summarizeCard, type ScoreCard } from './case-rule.js'
import type { BaselineOutcome, ScoredDecision } from './decision.js'
import type { ScoredCaseEntry } from './load.js'
import { checkBaselineProvenance, checkDebateProvenance, type ReviewAt } from './provenance.js'
import type { BoundEvaluationRubric } from './rubric.js'
import { scoreBaselineCase, scoreDebateCase } from './score-card.js'
import { BaselineReviewSchema, DebateReviewSchema, ScoredCaseSchema, type ScoredCase, type System } from './schemas.js'

/** What a case is assessed against: the bound rubric, the file names and the benchmark's split. */
export interface AssessContext {
  readonly rubric: BoundEvaluationRubric
  readonly files: ScoredFileNames
  readonly split: Split
}

/** The reviews of one case, by system; `null` when the system has none. */
export interface CaseReviews {
  readonly debate: Located | null
  readonly baseline: Located | null
}

/**
 * Decides one case for the debate system and scores the baseline beside it, after every binding
 * and provenance check.
 *
 * Order: the case's format and its rubric revision (a failure refuses the case and its baseline
 * alike); then, for each system on its own, the acknowledged review revision, a missing review, the
 * review's format, its bindings (rubric, case spec, output) and its excerpts; only then the
 * dimensions and the per-case rule. A failed check of the debate review refuses the case; a failed
 * check of the baseline review refuses only the baseline, which leaves the comparison undecided.
 */
export function assessScoredCase(context: AssessContext, testCase: ScoredCaseEntry, reviews: CaseReviews): ScoredDecision {
  const at: CaseAt = { id: testCase.id, path: testCase.path }
  let theCase: ScoredCase
  try {
    theCase = checkCase(context, testCase, at)
  } catch (error) {
    const refused = refusal(error)
    return { status: 'refused', id: at.id, split: context.split, ...refused, baseline: { status: 'refused', ...refused } }
  }
  const debate = judge(context, theCase, at, 'debate', reviews.debate)
  const baseline = judge(context, theCase, at, 'baseline', reviews.baseline)
  const base = { id: at.id, split: context.split, baseline }
  switch (debate.status) {
    case 'refused':
      return { status: 'refused', ...base, reason: debate.reason, error: debate.error }
    case 'not_reviewed':
      return { status: 'pending', ...base, reason: 'no review', card: null }
    case 'scored':
      return decide(context, base, debate.card)
  }
}

function decide(context: AssessContext, base: { id: string; split: Split; baseline: BaselineOutcome }, card: ScoreCard): ScoredDecision {
  const reason = summarizeCard(card, context.rubric.rules)
  switch (card.verdict) {
    case 'pass':
      return { status: 'accepted', ...base, reason, card }
    case 'fail':
      return { status: 'rejected', ...base, reason, card }
    case 'manual_review':
      return { status: 'pending', ...base, reason, card }
  }
}

function checkCase(context: AssessContext, testCase: Located, at: CaseAt): ScoredCase {
  const { files, rubric } = context
  const parsed = safeParseReporting(ScoredCaseSchema, testCase.value)
  if (!parsed.success) {
    throw schemaError(
      {
        ErrorClass: BindingError,
        code: 'CASE_INVALID',
        file: files.cases,
        basePath: testCase.path,
        caseId: at.id,
        hint: 'a case holds id, spec { input, ideal_debate_resolution, max_rounds, ground_truth { planted_issues, final_verdict? } }, outputs { debate { transcript }, baseline { answer, self_critique } } and expected { rubric_sha256, debate_review_sha256, baseline_review_sha256 } (see the README).',
      },
      parsed.error.issues,
    )
  }
  const theCase = parsed.data
  const issues = theCase.spec.ground_truth.planted_issues
  issues.forEach((issue, index) => {
    const earlier = issues.findIndex((other) => other.id === issue.id)
    if (earlier !== index) {
      throw new BindingError({
        code: 'DUPLICATE_PLANTED_ISSUE',
        file: files.cases,
        path: [...testCase.path, 'spec', 'ground_truth', 'planted_issues', index, 'id'],
        caseId: at.id,
        summary: `the planted issue id is already used by planted_issues[${earlier}].`,
        found: JSON.stringify(issue.id),
        hint: 'give every planted issue its own id: claims find planted issues by id.',
      })
    }
  })
  if (theCase.expected.rubric_sha256 !== rubric.sha256) {
    throw new BindingError(
      explainStaleBytes(
        {
          code: 'CASE_RUBRIC_STALE',
          file: files.cases,
          path: [...testCase.path, 'expected', 'rubric_sha256'],
          caseId: at.id,
          summary: `the case was bound to another revision of ${files.rubric}; the rubric is fixed once execution begins.`,
          expected: `${rubric.sha256} (SHA-256 of ${files.rubric} now)`,
          found: theCase.expected.rubric_sha256,
          hint: `restore the rubric the benchmark was run under; if it really changed, re-review every output under it and bind the case and its reviews to ${rubric.sha256}.`,
        },
        files.rubric,
        theCase.expected.rubric_sha256,
        rubric.conversions,
      ),
    )
  }
  return theCase
}

type Judged = { readonly status: 'scored'; readonly card: ScoreCard } | Exclude<BaselineOutcome, { status: 'scored' }>

function judge(context: AssessContext, theCase: ScoredCase, at: CaseAt, system: System, review: Located | null): Judged {
  try {
    return judgeOrThrow(context, theCase, at, system, review)
  } catch (error) {
    return { status: 'refused', ...refusal(error) }
  }
}

function judgeOrThrow(context: AssessContext, theCase: ScoredCase, at: CaseAt, system: System, review: Located | null): Judged {
  const { files, rubric } = context
  checkReviewRevision(files, at, system, review, theCase.expected[`${system}_review_sha256`])
  if (review === null) return { status: 'not_reviewed' }

  const specPath: PathSegment[] = [...at.path, 'spec']
  const outputPath: PathSegment[] = [...at.path, 'outputs', system]
  const targets = {
    rubricSha256: rubric.sha256,
    rubricConversions: rubric.conversions,
    // Loading fingerprints the whole cases.json first, so a spec or output without a canonical form never gets here.
    // Stryker disable next-line ObjectLiteral: see above
    specSha256: fingerprintAt(theCase.spec, { file: files.cases, path: specPath, caseId: at.id }),
    // Stryker disable next-line ObjectLiteral: see above
    outputSha256: fingerprintAt(theCase.outputs[system], { file: files.cases, path: outputPath, caseId: at.id }),
    specPath,
    outputPath,
  }
  const reviewAt: ReviewAt = { files, caseId: at.id, casePath: at.path, reviewPath: review.path }
  const invalid = (issues: Parameters<typeof schemaError>[1]) =>
    schemaError(
      {
        ErrorClass: BindingError,
        code: 'REVIEW_INVALID',
        file: files.annotations,
        basePath: review.path,
        caseId: at.id,
        hint: `a ${system} review holds case_id, system, rubric_sha256, spec_sha256, output_sha256, claims, resolution, empirical_test and final_verdict (see the README for each field).`,
      },
      issues,
    )
  if (system === 'debate') {
    const parsed = safeParseReporting(DebateReviewSchema, review.value)
    if (!parsed.success) throw invalid(parsed.error.issues)
    checkReviewBindings(files, at, system, parsed.data, review.path, targets)
    checkDebateProvenance(reviewAt, theCase, parsed.data)
    return { status: 'scored', card: scoreDebateCase({ spec: theCase.spec, output: theCase.outputs.debate, review: parsed.data }, rubric.rules) }
  }
  const parsed = safeParseReporting(BaselineReviewSchema, review.value)
  if (!parsed.success) throw invalid(parsed.error.issues)
  checkReviewBindings(files, at, system, parsed.data, review.path, targets)
  checkBaselineProvenance(reviewAt, theCase, parsed.data)
  return { status: 'scored', card: scoreBaselineCase({ spec: theCase.spec, review: parsed.data }, rubric.rules) }
}

/** A binding failure as a refusal; anything else is a defect of this package and is rethrown. */
function refusal(error: unknown): { reason: string; error: SerializedRubricError } {
  // Stryker disable next-line ConditionalExpression: the checks throw only BindingErrors; the rethrow keeps a defect from reading as a refusal
  if (!(error instanceof BindingError)) throw error
  return { reason: error.summary, error: error.toJSON() }
}
