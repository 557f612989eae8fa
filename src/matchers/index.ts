/**
 * The rubric matchers, side-effect free: `import * as matchers from 'vitest-rubric/matchers'` and
 * `expect.extend(matchers)`, or import `vitest-rubric/setup`, which does exactly that. Importing
 * this module also brings in the typings of `expect(…).toMeetRubric()` and the others.
 */
export { toBeBoundTo } from './to-be-bound-to.js'
export { toBePendingReview } from './to-be-pending-review.js'
export { toFailCriteria } from './to-fail-criteria.js'
export { toHaveReviewCoverage } from './to-have-review-coverage.js'
export { toMeetRubric } from './to-meet-rubric.js'
export type * from './types.js'
export type { MatcherContext, MatcherOutcome } from './format.js'
