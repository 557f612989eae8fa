import type { RubricErrorCode } from '../core/common/errors.js'

/**
 * The HTTP status the review server answers each error with: `400` for a request that is no
 * request of the page, `403` and `421` for one that is not the page's user's, `404` for what does
 * not exist, `409` for a conflict a reload resolves, `422` for a fixture, case or draft refused as
 * the command line refuses it, `500` for a failure of the server's own. A record of every code, so
 * that a new code does not compile until it has a status. Codes the server never answers with
 * (the CLI's, the plugin's) are `500` were they ever to reach it.
 */
export const HTTP_STATUS: Record<RubricErrorCode, number> = {
  // fixture-level: the whole directory is refused
  FIXTURE_NOT_FOUND: 422,
  FIXTURE_KIND_UNKNOWN: 422,
  FIXTURE_KIND_AMBIGUOUS: 422,
  FILE_UNREADABLE: 422,
  FILE_OUTSIDE_PROJECT: 422,
  FILE_NOT_UTF8: 422,
  FILE_TOO_LARGE: 422,
  JSON_MALFORMED: 422,
  JSON_DUPLICATE_KEY: 422,
  JSON_TOO_DEEP: 422,
  FILE_SCHEMA: 422,
  RECORDS_MALFORMED: 422,
  FIXTURE_LAYOUT_AMBIGUOUS: 422,
  RUBRIC_INVALID: 422,
  RUBRIC_QUOTE_NOT_IN_SOURCE: 422,
  DUPLICATE_CRITERION: 422,
  DUPLICATE_CASE: 422,
  UNKNOWN_REVIEW: 422,
  DUPLICATE_REVIEW: 422,
  // case-level: one case is refused, the others are still decided
  CASE_INVALID: 422,
  QUESTION_MISMATCH: 422,
  CASE_SOURCE_STALE: 422,
  CASE_RUBRIC_STALE: 422,
  REVIEW_EDIT_UNACKNOWLEDGED: 422,
  REVIEW_INVALID: 422,
  REVIEW_ANSWER_STALE: 422,
  REVIEW_SOURCE_STALE: 422,
  REVIEW_RUBRIC_STALE: 422,
  UNKNOWN_CRITERION: 422,
  QUOTE_MISMATCH: 422,
  SPAN_NOT_IN_ANSWER: 422,
  // scored fixtures (evaluation_rubric.json): fixture-level
  UNKNOWN_DIMENSION: 422,
  RUBRIC_RULE_UNREADABLE: 422,
  // scored fixtures: case-level
  DUPLICATE_PLANTED_ISSUE: 422,
  REVIEW_SPEC_STALE: 422,
  REVIEW_OUTPUT_STALE: 422,
  DUPLICATE_CLAIM: 422,
  UNKNOWN_PLANTED_ISSUE: 422,
  SPAN_NOT_IN_OUTPUT: 422,
  ANNOTATION_INCONSISTENT: 422,
  // values that cannot be fingerprinted
  NOT_CANONICAL_JSON: 422,
  // revising a fixture (init, bind): nothing is written when one of these is raised
  CASE_NOT_FOUND: 404,
  BIND_STILL_REFUSED: 422,
  INIT_TARGET_NOT_EMPTY: 422,
  INIT_SOURCE_INVALID: 422,
  FILE_CHANGED_MEANWHILE: 409,
  CASE_CHANGED_MEANWHILE: 409,
  FIXTURE_LOCKED: 409,
  LOCK_LOST: 409,
  RECORDS_FORKED: 409,
  CONVERT_NOT_LOSSLESS: 422,
  EDIT_NOT_LOCATED: 422,
  WRITE_FAILED: 500,
  COMMIT_FAILED: 500,
  COMMIT_UNCLEAN: 409,
  AUDIT_FAILED: 500,
  // misuse of the CLI, the plugin or the matchers
  USAGE: 400,
  DRAFT_INVALID: 422,
  REVIEW_EXISTS: 409,
  AUTHOR_NAME_TAKEN: 422,
  // several reviewers: a review written straight to annotations.json for a case that independent
  // reviews and an adjudication decide; an adoption whose reviews changed since
  ADJUDICATION_REQUIRED: 409,
  ADOPTION_STALE: 422,
  // a statistic asked of input it is not defined for (a wrong type, a rating outside the categories)
  STATISTICS_INPUT: 422,
  // the review sample (vitest-rubric sample, estimate): missing, malformed, or drawn from other cases
  SAMPLE_MISSING: 404,
  SAMPLE_INVALID: 422,
  SAMPLE_POPULATION_CHANGED: 409,
  // the judge's confidences a design draws by: none recorded, or one a judge module gave outside [0, 1]
  SAMPLE_NO_CONFIDENCE: 422,
  JUDGE_CONFIDENCE_INVALID: 422,
  // comparing two fixtures (vitest-rubric compare): their rubric or source differ, or their kind cannot be compared yet
  FIXTURES_NOT_COMPARABLE: 422,
  // the plugin's decision record (expect: 'record') is missing
  RECORD_MISSING: 422,
  // the review server (vitest-rubric serve): a request refused before any fixture is touched
  BAD_REQUEST: 400,
  BAD_HOST: 421,
  BAD_CODE: 403,
  BAD_TOKEN: 403,
  BAD_ORIGIN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  BODY_TOO_LARGE: 413,
  EMPTY_DRAFT: 400,
  RATE_LIMITED: 429,
  // the review server with --team: a person's link cannot do this, or names someone else
  ROLE_NOT_PERMITTED: 403,
  IDENTITY_MISMATCH: 403,
  // the review server failed on its own account (its terminal says why)
  INTERNAL: 500,
  // the review server cannot start
  PORT_IN_USE: 500,
  HOST_NOT_LOCAL: 500,
  PORT_NOT_PERMITTED: 500,
  LISTEN_FAILED: 500,
  // the team file of serve --team, the file of its token hashes, and the file of its reservations
  TEAM_INVALID: 500,
  TEAM_TOKENS_INVALID: 500,
  TEAM_RESERVATIONS_INVALID: 500,
  // the plugin's planning process (a large fixture planned apart from Vitest)
  PLANNING_FAILED: 500,
  PLANNING_TIMED_OUT: 500,
}
