import { RevisionError } from '../common/errors.js'
import { quoteSome } from '../common/primitives.js'
import type { SomeFixture } from './fixture.js'

/** What a `CASE_NOT_FOUND` refusal tells, beyond the ids there are. */
export interface CaseNotFoundWording {
  /** What to do instead. */
  readonly hint: string
  /** Whether the refusal stops a write, so that its summary says nothing was written. */
  readonly writing?: boolean
  /** What is expected when the fixture has no case at all. */
  readonly noCases?: string
}

/** The position of case `id` in the fixture, or a `CASE_NOT_FOUND` error listing the ids there are. */
export function caseIndex(fixture: SomeFixture, id: string, wording: CaseNotFoundWording): number {
  const index = fixture.cases.findIndex((entry) => entry.id === id)
  if (index !== -1) return index
  const ids = fixture.cases.map((entry) => entry.id)
  throw new RevisionError({
    code: 'CASE_NOT_FOUND',
    file: fixture.files.cases?.display,
    summary: `there is no case "${id}"${wording.writing === true ? '; nothing was written' : ''}.`,
    expected: ids.length === 0 ? (wording.noCases ?? 'a case id (the fixture has no cases yet)') : `one of ${quoteSome(ids)}`,
    found: JSON.stringify(id),
    hint: wording.hint,
  })
}
