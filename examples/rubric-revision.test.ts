// A stakeholder asks to drop the database warning to shorten answers. That is a new rubric, and
// every review made under the old one must be redone: none of them may silently carry over.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadFixture } from 'vitest-rubric'
import { getCase, getReview, type CriteriaFixture } from 'vitest-rubric/criteria'
import 'vitest-rubric/setup'

const bundled = join(import.meta.dirname, '../fixtures/docuctl-rollback')
const fixture = await loadFixture(bundled)

describe('dropping the database_scope criterion', () => {
  let copy: string
  let revised: CriteriaFixture
  let revisedRubric: Buffer

  // The revision is made in a scratch copy: the bundled fixture stays as reviewed.
  beforeAll(async () => {
    copy = await mkdtemp(join(tmpdir(), 'rubric-revision-'))
    await cp(bundled, copy, { recursive: true })
    const rubric = JSON.parse(await readFile(join(copy, 'rubric.json'), 'utf8')) as { version: number; criteria: { id: string }[] }
    rubric.version += 1
    rubric.criteria = rubric.criteria.filter((criterion) => criterion.id !== 'database_scope')
    await writeFile(join(copy, 'rubric.json'), `${JSON.stringify(rubric, null, 2)}\n`)
    revisedRubric = await readFile(join(copy, 'rubric.json'))
    revised = await loadFixture(copy, { kind: 'criteria' })
  })
  afterAll(() => rm(copy, { recursive: true, force: true }))

  test('makes every old review stale', () => {
    for (const id of fixture.reviews.keys()) {
      expect(getReview(fixture, id)).not.toBeBoundTo({ rubric: revisedRubric })
      expect(getReview(revised, id)).not.toBeBoundTo(revised)
      // Only the rubric changed: the reviews still describe their answers and the source.
      expect(getReview(revised, id)).toBeBoundTo({ answer: getCase(revised, id), source: revised.rubric.source })
    }
  })

  test('decides nothing until the answers are reviewed again', () => {
    expect(revised).toHaveReviewCoverage({ candidates: 8, graded: 0, pending: 0, refused: 8 })
    for (const { id } of revised.cases) {
      expect(() => expect(getCase(revised, id)).not.toMeetRubric()).toThrow(/the rubric changed since the case was written/)
    }
  })
})
