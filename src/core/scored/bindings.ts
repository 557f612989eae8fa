import { NULL_FINGERPRINT } from '../canonical-json.js'
import { fingerprintAt } from '../json-at.js'
import { BindingError } from '../errors.js'
import { formatLocation, type PathSegment } from '../json-path.js'
import { explainStaleBytes, type ConvertedRevisions } from '../line-endings.js'
import type { System } from './schemas.js'

/** How a scored fixture's files are named in messages. */
export interface ScoredFileNames {
  readonly rubric: string
  readonly cases: string
  readonly annotations: string
}

/** A JSON value and where it stands in its file. */
export interface Located {
  readonly value: unknown
  readonly path: readonly PathSegment[]
}

/** Where a case stands, for messages. */
export interface CaseAt {
  readonly id: string
  readonly path: readonly PathSegment[]
}

/**
 * The case records the revision of each of its reviews (`expected.<system>_review_sha256`): an
 * edited, added or removed review that the case has not acknowledged is refused.
 */
export function checkReviewRevision(files: ScoredFileNames, at: CaseAt, system: System, review: Located | null, recorded: string): void {
  const now = review === null ? NULL_FINGERPRINT : fingerprintAt(review.value, { file: files.annotations, path: review.path, caseId: at.id })
  if (recorded === now) return
  const field = `${system}_review_sha256`
  const base = {
    code: 'REVIEW_EDIT_UNACKNOWLEDGED' as const,
    file: files.cases,
    path: [...at.path, 'expected', field],
    caseId: at.id,
    expected: `${now} (fingerprint of ${review === null ? 'null: no review' : formatLocation(files.annotations, review.path)} now)`,
    found: recorded,
  }
  if (review === null) {
    throw new BindingError({
      ...base,
      summary: `the case records a ${system} review, but ${files.annotations} has none for "${at.id}".`,
      hint: `restore the review; if it was withdrawn on purpose, set ${field} to ${NULL_FINGERPRINT} (the fingerprint of null).`,
    })
  }
  const where = formatLocation(files.annotations, review.path)
  throw new BindingError({
    ...base,
    summary:
      recorded === NULL_FINGERPRINT
        ? `${where} was added, but the case still records that it has no ${system} review.`
        : `${where} changed since the case recorded it: an unacknowledged annotation edit.`,
    hint: `if the review is meant to change, acknowledge it: set ${field} to ${now}; otherwise restore the review.`,
  })
}

/** What a review must be bound to: the rubric bytes, the case spec and the reviewed output. */
export interface ReviewTargets {
  readonly rubricSha256: string
  /** What the rubric file would hash to with converted line endings, to explain a stale binding. */
  readonly rubricConversions?: ConvertedRevisions | undefined
  readonly specSha256: string
  readonly outputSha256: string
  /** Where the spec and the output stand in `cases.json`. */
  readonly specPath: readonly PathSegment[]
  readonly outputPath: readonly PathSegment[]
}

/**
 * A review applies only to the rubric revision, the case spec and the output it was made for:
 * a review bound to another revision of any of them is refused, never reused.
 */
export function checkReviewBindings(
  files: ScoredFileNames,
  at: CaseAt,
  system: System,
  review: { readonly rubric_sha256: string; readonly spec_sha256: string; readonly output_sha256: string },
  reviewPath: readonly PathSegment[],
  targets: ReviewTargets,
): void {
  const acknowledge = `and acknowledge the new review revision in ${formatLocation(files.cases, [...at.path, 'expected', `${system}_review_sha256`])}`
  if (review.rubric_sha256 !== targets.rubricSha256) {
    throw new BindingError(
      explainStaleBytes(
        {
          code: 'REVIEW_RUBRIC_STALE',
          file: files.annotations,
          path: [...reviewPath, 'rubric_sha256'],
          caseId: at.id,
          summary: `the ${system} review applied another revision of ${files.rubric}; the rubric is fixed once execution begins, so the review cannot carry over.`,
          expected: `${targets.rubricSha256} (SHA-256 of ${files.rubric} now)`,
          found: review.rubric_sha256,
          hint: `restore the rubric the review was made under; if the rubric really changed, re-review under it, set rubric_sha256 to ${targets.rubricSha256} ${acknowledge}.`,
        },
        files.rubric,
        review.rubric_sha256,
        targets.rubricConversions,
      ),
    )
  }
  if (review.spec_sha256 !== targets.specSha256) {
    const where = formatLocation(files.cases, targets.specPath)
    throw new BindingError({
      code: 'REVIEW_SPEC_STALE',
      file: files.annotations,
      path: [...reviewPath, 'spec_sha256'],
      caseId: at.id,
      summary: `the ${system} review was made against another revision of the case (${where}): its planted issues, ideal resolution or ground truth changed.`,
      expected: `${targets.specSha256} (fingerprint of ${where} now)`,
      found: review.spec_sha256,
      hint: `re-review the output against the changed case, set spec_sha256 to ${targets.specSha256} ${acknowledge}.`,
    })
  }
  if (review.output_sha256 !== targets.outputSha256) {
    const where = formatLocation(files.cases, targets.outputPath)
    throw new BindingError({
      code: 'REVIEW_OUTPUT_STALE',
      file: files.annotations,
      path: [...reviewPath, 'output_sha256'],
      caseId: at.id,
      summary: `the ${system} review describes another output than ${where}: the judgements describe another run.`,
      expected: `${targets.outputSha256} (fingerprint of ${where} now)`,
      found: review.output_sha256,
      hint: `re-review the new output, set output_sha256 to ${targets.outputSha256} ${acknowledge}.`,
    })
  }
}

