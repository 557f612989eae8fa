import { RevisionError, UsageError } from '../common/errors.js'
import { fingerprint } from '../json/canonical-json.js'
import type { SomeFixture } from './fixture.js'
import { ADJUDICATIONS_FILE, REVIEWS_DIR } from './panel.js'

/**
 * The entries of one case that a save may replace, each by its fingerprint (`null`: there is none
 * yet), keyed by where it is: `cases.json › c1`, `annotations.json › c1 › review`,
 * `reviews/alice.json › c1 › review`, `adjudications.json › c1 › review`. A front end that shows a
 * case and saves it later (the review page, a terminal review) sends back what it was shown, so the
 * save is refused only when one of these entries changed since, never for another case's save.
 */
export type CaseVersions = Readonly<Record<string, string | null>>

/** Whose save it is: the adopted review, one reviewer's own review, or an adjudication. */
export type SaveScope = { readonly adopted: true } | { readonly reviewer: string } | { readonly adjudication: true }

/**
 * The versions of what a save of `scope` replaces in case `caseId`, read from the fixture as loaded.
 * A caller that holds the case's entry gives it (`known`): the fixture's cases are not searched.
 */
export function caseVersions(
  fixture: SomeFixture,
  caseId: string,
  slots: readonly string[],
  scope: SaveScope,
  known?: SomeFixture['cases'][number],
): Record<string, string | null> {
  const entry = known?.id === caseId ? known : fixture.cases.find((each) => each.id === caseId)
  const { cases, annotations } = fixture.files
  const versions: Record<string, string | null> = {}
  versions[`${cases?.name ?? 'cases.json'} › ${caseId}`] = entry === undefined ? null : fingerprint(entry.value)
  const panel = fixture.panel.reviews.get(caseId)
  for (const slot of slots) {
    if ('reviewer' in scope) {
      versions[`${REVIEWS_DIR}/${scope.reviewer}.json › ${caseId} › ${slot}`] = fingerprintOrNull(panel?.get(scope.reviewer)?.[slot]?.value)
      continue
    }
    versions[`${annotations?.name ?? 'annotations.json'} › ${caseId} › ${slot}`] = fingerprintOrNull(fixture.reviews.get(caseId)?.[slot]?.value)
    if (!('adjudication' in scope)) continue
    const adoption = fixture.panel.adoptions.get(caseId)?.[slot]
    versions[`${ADJUDICATIONS_FILE} › ${caseId} › ${slot}`] =
      adoption === undefined ? null : fingerprint({ adjudicator: adoption.adjudicator, review: adoption.reviewSha256, resolved: adoption.resolved })
    for (const [reviewer, reviews] of panel ?? []) {
      const review = reviews[slot]
      if (review !== undefined) versions[`${REVIEWS_DIR}/${reviewer}.json › ${caseId} › ${slot}`] = fingerprint(review.value)
    }
  }
  return versions
}

/**
 * Refuses a save made from another revision of the case than the one the fixture holds now: each
 * entry the save replaces must be as the saver was shown it (`given`), and every one must be
 * named, so no save goes without this check. For an adjudication, the set of independent reviews
 * must be the one shown too: a review added or withdrawn since changes what is resolved.
 */
export function checkCaseVersions(fixture: SomeFixture, caseId: string, slots: readonly string[], scope: SaveScope, given: CaseVersions): void {
  const current = caseVersions(fixture, caseId, slots, scope)
  const missing = Object.keys(current).filter((key) => !Object.hasOwn(given, key))
  if (missing.length > 0) {
    throw new UsageError({
      code: 'USAGE',
      file: fixture.displayDir,
      caseId,
      summary: `the save does not say which revision of ${missing.join(', ')} it was made from; nothing was written.`,
      expected: 'the version of every entry the save replaces, as the case was read',
      hint: 'read the case again and save from what it returns.',
    })
  }
  const changed = Object.keys(current).filter((key) => given[key] !== current[key])
  if ('adjudication' in scope) {
    const reviews = `${REVIEWS_DIR}/`
    for (const key of Object.keys(given)) if (key.startsWith(reviews) && !Object.hasOwn(current, key)) changed.push(key)
  }
  if (changed.length > 0) {
    throw new RevisionError({
      code: 'CASE_CHANGED_MEANWHILE',
      file: fixture.displayDir,
      caseId,
      summary: `${changed.join(', ')} changed since this case was read (another tab, reviewer or editor wrote it); nothing was written.`,
      hint: 'read the case again to see the change, then save once more: what you wrote is kept by the page.',
    })
  }
}

function fingerprintOrNull(value: unknown): string | null {
  return value === undefined ? null : fingerprint(value)
}
