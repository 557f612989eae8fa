// Random edits a team makes to a copy of the bundled fixture, by a command or by hand: the property
// tests of what is kept up to date against a full reading of the files replay them.
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { RubricError } from '../../src/core/common/errors.js'
import { adjudicateCase } from '../../src/core/engine/adjudicate.js'
import type { DraftSource } from '../../src/core/engine/authoring/draft.js'
import type { ParseMemo } from '../../src/core/engine/parse-memo.js'
import { addCases, kinds, recordReview } from '../../src/core/registry.js'
import type { AnnotationsJson, CasesJson } from './fixture-copy.js'

const source: DraftSource = { label: 'the test', locate: (path) => path.join(' › ') }
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support'] as const
const BUNDLED_IDS = [
  'complete',
  'paraphrase',
  'negation',
  'unsupported-guarantee',
  'missing-verification',
  'wrong-command',
  'uncertain-wording',
  'not-reviewed',
]
const NEW_IDS = ['extra-a', 'extra-b', 'extra-c']
const RATING = fc.constantFrom('meets', 'meets', 'does_not_meet', 'uncertain')

/** An edit a team makes to a fixture, by a command or by hand. */
export type Edit =
  | { readonly kind: 'add'; readonly id: string; readonly answer: string; readonly split: 'development' | 'held_out' }
  | { readonly kind: 'review' | 'replace'; readonly id: string; readonly ratings: readonly string[] }
  | { readonly kind: 'reviewer'; readonly id: string; readonly reviewer: string; readonly ratings: readonly string[] }
  | { readonly kind: 'adopt'; readonly id: string; readonly take: string }
  | { readonly kind: 'judge'; readonly id: string; readonly ratings: readonly string[] }
  | { readonly kind: 'answer'; readonly id: string; readonly suffix: string }
  | { readonly kind: 'rubric'; readonly criterion: number }
  | { readonly kind: 'unreview'; readonly id: string }
  | { readonly kind: 'unadopt'; readonly id: string }
  | { readonly kind: 'leave'; readonly reviewer: string }

const anyId = fc.constantFrom(...BUNDLED_IDS, ...NEW_IDS)
// Independent reviews and adoptions of a few cases, so that a sequence reaches adoptions often.
const panelId = fc.constantFrom('complete', 'negation', 'extra-a')
const ratings = fc.array(RATING, { minLength: CRITERIA.length, maxLength: CRITERIA.length })
export const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    id: fc.constantFrom(...NEW_IDS),
    answer: fc.constantFrom('Run `docuctl releases rollback r41 --environment staging`.', 'Restart it.'),
    split: fc.constantFrom('development' as const, 'held_out' as const),
  }),
  fc.record({ kind: fc.constantFrom('review' as const, 'replace' as const), id: anyId, ratings }),
  fc.record({ kind: fc.constant('reviewer' as const), id: panelId, reviewer: fc.constantFrom('alice', 'bob'), ratings }),
  fc.record({ kind: fc.constant('adopt' as const), id: panelId, take: fc.constantFrom('alice', 'bob') }),
  fc.record({ kind: fc.constant('judge' as const), id: anyId, ratings }),
  fc.record({ kind: fc.constant('answer' as const), id: anyId, suffix: fc.constantFrom(' Check health.', ' ') }),
  fc.record({ kind: fc.constant('rubric' as const), criterion: fc.integer({ min: 0, max: CRITERIA.length - 1 }) }),
  fc.record({ kind: fc.constant('unreview' as const), id: anyId }),
  fc.record({ kind: fc.constant('unadopt' as const), id: panelId }),
  // A reviewer's file deleted by hand: every review of theirs goes at once.
  fc.record({ kind: fc.constant('leave' as const), reviewer: fc.constantFrom('alice', 'bob') }),
)

function draftOf(ratingsGiven: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    CRITERIA.map((criterion, index) => [criterion, { rating: ratingsGiven[index], reason: `Judged ${criterion} ${ratingsGiven[index]}.`, answer_span: '' }]),
  )
}

/** Applies an edit; an edit the fixture refuses (a review of an unknown case, an adoption without reviews) writes nothing. */
export async function apply(dir: string, change: Edit, memo?: ParseMemo): Promise<void> {
  // With the incremental evaluation's parse memo, as the page's server gives it: the revision primes it with the parse of its edit.
  const options = { cwd: dir, ...(memo === undefined ? {} : { memo }) }
  try {
    switch (change.kind) {
      case 'add':
        await addCases(dir, [{ id: change.id, answer: change.answer, citation: 'Fictional docuctl 3 guide', split: change.split }], source, options)
        return
      case 'review':
      case 'replace':
        await recordReview(dir, draftOf(change.ratings), source, { ...options, caseId: change.id, replace: change.kind === 'replace' })
        return
      case 'reviewer':
        await recordReview(dir, draftOf(change.ratings), source, { ...options, caseId: change.id, replace: true, reviewer: change.reviewer })
        return
      case 'adopt':
        await adjudicateCase(dir, { ...options, kinds, caseId: change.id, adjudicator: 'carol', take: change.take }, source)
        return
      case 'judge':
        await recordReview(dir, draftOf(change.ratings), source, { ...options, caseId: change.id, replace: true, judge: 'keyword-judge' })
        return
      case 'answer':
        await editJson<CasesJson>(dir, 'cases.json', (cases) => {
          const found = cases.cases.find((each) => each.id === change.id) as { input: { answer: { text: string } } } | undefined
          if (found !== undefined) found.input.answer.text += change.suffix
        })
        return
      case 'rubric':
        await editJson<{ criteria: { rule: string }[] }>(dir, 'rubric.json', (rubric) => {
          rubric.criteria[change.criterion]!.rule += ' (reworded)'
        })
        return
      case 'unreview':
        await editJson<AnnotationsJson>(dir, 'annotations.json', (annotations) => {
          annotations.reviews = annotations.reviews.filter((review) => review.answer_id !== change.id)
        })
        return
      case 'unadopt':
        await editJson<{ adoptions: { case_id: string }[] }>(dir, 'adjudications.json', (adjudications) => {
          adjudications.adoptions = adjudications.adoptions.filter((adoption) => adoption.case_id !== change.id)
        })
        return
      case 'leave':
        await rm(join(dir, 'reviews', `${change.reviewer}.json`))
        return
    }
  } catch (error) {
    if (!(error instanceof RubricError) && (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

export async function editJson<T>(dir: string, name: string, change: (document: T) => void): Promise<void> {
  const document = JSON.parse(await readFile(join(dir, name), 'utf8')) as T
  change(document)
  await writeFile(join(dir, name), `${JSON.stringify(document, null, 2)}\n`)
}
