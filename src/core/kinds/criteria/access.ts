import { UsageError } from '../../common/errors.js'
import { formatLocation } from '../../common/json-path.js'
import type { Split } from '../../common/primitives.js'
import { assessEntry } from '../../engine/assess.js'
import { kindContext, type CaseEntry, type FixtureOf, type ReviewEntry, type SomeFixture } from '../../engine/fixture.js'
import { criteriaKind } from './index.js'
import type { CriteriaDecision } from './decision.js'

/** A loaded criteria fixture. */
export type CriteriaFixture = FixtureOf<typeof criteriaKind> & { readonly kind: 'criteria' }

/** One case of a loaded fixture with its review: everything needed to decide it. */
export interface FixtureCase {
  readonly kind: 'case'
  readonly fixture: CriteriaFixture
  readonly id: string
  readonly split: Split
  /** The case as written in `cases.json` (checked when it is assessed, not before). */
  readonly entry: CaseEntry
  /** The case's review; `null` when nobody has reviewed it. */
  readonly review: FixtureReview | null
}

/** The review of one case of a loaded fixture. */
export interface FixtureReview {
  readonly kind: 'review'
  readonly fixture: CriteriaFixture
  /** The case the review belongs to (its `answer_id`). */
  readonly caseId: string
  /** The review as written in `annotations.json` (checked when it is assessed, not before). */
  readonly entry: ReviewEntry
  /** Where the review's case records the review revision: `cases.json › cases[2] › expected › review_sha256`. */
  readonly revisionRecordedAt: string
}

/** A case of a loaded fixture by id; a {@link UsageError} naming the fixture's ids if it has none. */
export function getCase(loaded: SomeFixture, id: string): FixtureCase {
  const fixture = criteriaFixture(loaded, 'getCase')
  const entry = fixture.cases.find((item) => item.id === id)
  if (entry === undefined) throw unknownCase(fixture, id, 'getCase')
  const review = fixture.reviews.get(id)?.['review']
  return { kind: 'case', fixture, id, split: entry.split, entry, review: review === undefined ? null : reviewOf(fixture, entry, review) }
}

/**
 * The review of a case of a loaded fixture; a {@link UsageError} if the fixture has no such case
 * or the case has no review (see `getCase(fixture, id).review` for a review that may be absent).
 */
export function getReview(loaded: SomeFixture, id: string): FixtureReview {
  const fixture = criteriaFixture(loaded, 'getReview')
  const entry = fixture.cases.find((item) => item.id === id)
  if (entry === undefined) throw unknownCase(fixture, id, 'getReview')
  const review = fixture.reviews.get(id)?.['review']
  if (review === undefined) {
    const annotations = fixture.files.annotations.display
    throw new UsageError({
      code: 'USAGE',
      file: annotations,
      caseId: id,
      summary: 'the case has no review.',
      hint: `review the answer and add its review to ${annotations}; until then the case is pending (getCase(fixture, ${JSON.stringify(id)}).review is null).`,
    })
  }
  return reviewOf(fixture, entry, review)
}

/** Decides one case of a loaded fixture, as `evaluateFixture` does for all of them. */
export function assessFixtureCase(fixtureCase: FixtureCase): CriteriaDecision {
  const { fixture, entry } = fixtureCase
  const site = { casesFile: fixture.files.cases.display, annotationsFile: fixture.files.annotations.display }
  return assessEntry(fixture.definition, kindContext(fixture), entry, fixture.reviews.get(entry.id), site, undefined).decision
}

/** The fixture as a criteria fixture: cases and reviews by id are what that kind holds. */
export function criteriaFixture(fixture: SomeFixture, caller: string): CriteriaFixture {
  if (isCriteriaFixture(fixture)) return fixture
  throw new UsageError({
    code: 'USAGE',
    file: caller,
    summary: `${fixture.displayDir} is a ${fixture.kind} fixture; ${caller} reads criteria fixtures (rubric.json, source.txt, cases.json, annotations.json).`,
    expected: 'a criteria fixture',
    found: `a ${fixture.kind} fixture`,
    hint: 'pass a criteria fixture; a scored fixture is decided by evaluateFixture.',
  })
}

/** Whether a loaded fixture is a criteria fixture: loaded with this kind's definition. */
export function isCriteriaFixture(fixture: SomeFixture): fixture is CriteriaFixture {
  return fixture.kind === 'criteria' && fixture.definition === criteriaKind
}

function reviewOf(fixture: CriteriaFixture, entry: CaseEntry, review: ReviewEntry): FixtureReview {
  return {
    kind: 'review',
    fixture,
    caseId: entry.id,
    entry: review,
    revisionRecordedAt: formatLocation(fixture.files.cases.display, [...entry.path, 'expected', 'review_sha256']),
  }
}

function unknownCase(fixture: CriteriaFixture, id: string, accessor: string): UsageError {
  return new UsageError({
    code: 'USAGE',
    file: fixture.files.cases.display,
    summary: `${accessor}: the fixture holds no case ${JSON.stringify(id)}.`,
    expected: `one of ${fixture.cases.map((item) => JSON.stringify(item.id)).join(', ')}`,
    found: JSON.stringify(id),
    hint: 'use the id of a case in cases.json.',
  })
}
