import { UsageError } from '../common/errors.js'
import { formatLocation } from '../common/json-path.js'
import { isObject, type Split } from '../common/primitives.js'
import { assessEntry } from './assess.js'
import { rowPath } from './bindings.js'
import { kindContext, type CaseEntry, type KindFixture, type ReviewEntry, type SomeFixture } from './fixture.js'

/** One case of a loaded fixture `F`, of any kind, with its review: everything needed to decide it. */
export interface FixtureCaseOf<F extends SomeFixture = SomeFixture> {
  readonly kind: 'case'
  readonly fixture: F
  readonly id: string
  readonly split: Split
  /** The case as written in the cases file (checked when it is decided, not before). */
  readonly entry: CaseEntry
  /** The review of the case's first review slot; `null` when nobody has reviewed it. */
  readonly review: FixtureReviewOf<F> | null
}

/** The review of one case of a loaded fixture `F`, of any kind. */
export interface FixtureReviewOf<F extends SomeFixture = SomeFixture> {
  readonly kind: 'review'
  readonly fixture: F
  /** The case the review belongs to. */
  readonly caseId: string
  /** The review as written in the annotations file (checked when it is decided, not before). */
  readonly entry: ReviewEntry
  /** Where the review's case records the review revision: `cases.json › cases[2] › expected › review_sha256`. */
  readonly revisionRecordedAt: string
}

/** The decision of a loaded fixture's kind. */
export type DecisionIn<F> = F extends KindFixture<unknown, unknown, unknown, infer D, unknown> ? D : never

/** A case of a loaded fixture by id; a {@link UsageError} naming the fixture's ids if it has none. */
export function fixtureCase<F extends SomeFixture>(fixture: F, id: string, caller = 'getCase'): FixtureCaseOf<F> {
  const entry = caseEntry(fixture, id, caller)
  const review = fixture.reviews.get(id)?.[firstSlot(fixture)]
  return { kind: 'case', fixture, id, split: entry.split, entry, review: review === undefined ? null : reviewOf(fixture, entry, review) }
}

/**
 * The review of a case of a loaded fixture; a {@link UsageError} if the fixture has no such case
 * or the case has no review (see `getCase(fixture, id).review` for a review that may be absent).
 */
export function fixtureReview<F extends SomeFixture>(fixture: F, id: string, caller = 'getReview'): FixtureReviewOf<F> {
  const entry = caseEntry(fixture, id, caller)
  const review = fixture.reviews.get(id)?.[firstSlot(fixture)]
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

/** Decides one case of a loaded fixture by its kind's rule, as `evaluateFixture` does for all of them. */
export function decideFixtureCase<F extends SomeFixture>({ fixture, entry }: FixtureCaseOf<F>): DecisionIn<F> {
  const site = { casesFile: fixture.files.cases.display, annotationsFile: fixture.files.annotations.display }
  // Cast: the fixture's definition decides with its own decision type, which DecisionIn<F> names.
  return assessEntry(fixture.definition, kindContext(fixture), entry, fixture.reviews.get(entry.id), site, undefined).decision as DecisionIn<F>
}

function firstSlot(fixture: SomeFixture): string {
  return fixture.definition.reviews.slots[0]
}

function caseEntry(fixture: SomeFixture, id: string, caller: string): CaseEntry {
  const entry = fixture.cases.find((item) => item.id === id)
  if (entry !== undefined) return entry
  throw new UsageError({
    code: 'USAGE',
    file: fixture.files.cases.display,
    summary: `${caller}: the fixture holds no case ${JSON.stringify(id)}.`,
    expected: `one of ${fixture.cases.map((item) => JSON.stringify(item.id)).join(', ')}`,
    found: JSON.stringify(id),
    hint: `use the id of a case in ${fixture.files.cases.name}.`,
  })
}

function reviewOf<F extends SomeFixture>(fixture: F, entry: CaseEntry, review: ReviewEntry): FixtureReviewOf<F> {
  // The case records its review's revision where its kind's acknowledgement row says.
  const slot = firstSlot(fixture)
  const row = fixture.definition.bindings.find((each) => each.in === 'case' && 'reviewOf' in each.source)
  const path = row === undefined ? [] : rowPath(row, slot)
  return { kind: 'review', fixture, caseId: entry.id, entry: review, revisionRecordedAt: formatLocation(fixture.files.cases.display, [...entry.path, ...path]) }
}

/** A loaded fixture of any kind: it carries its kind's definition. */
export function isLoadedFixture(value: unknown): value is SomeFixture {
  return (
    isObject(value) && typeof value['kind'] === 'string' && isObject(value['definition']) && Array.isArray(value['cases']) && value['reviews'] instanceof Map
  )
}

/** A case of a loaded fixture of any kind, as {@link fixtureCase} gives it. */
export function isFixtureCase(value: unknown): value is FixtureCaseOf {
  return isObject(value) && value['kind'] === 'case' && isLoadedFixture(value['fixture']) && isObject(value['entry'])
}

/** A review of a loaded fixture of any kind, as {@link fixtureReview} gives it. */
export function isFixtureReview(value: unknown): value is FixtureReviewOf {
  return isObject(value) && value['kind'] === 'review' && isLoadedFixture(value['fixture']) && isObject(value['entry'])
}
