import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { fingerprint, sha256Hex } from '../../../src/core/json/canonical-json.js'
import type { CriteriaDecision } from '../../../src/core/kinds/criteria/decision.js'
import { evaluateFixture } from '../../../src/core/engine/evaluate.js'
import { bindRubricContents } from '../../../src/core/kinds/criteria/rubric.js'
import { RATINGS, type Rating } from '../../../src/core/kinds/criteria/schemas.js'
import { DOCUCTL } from '../../helpers/fixture-copy.js'
import { assessOne } from '../../helpers/assess-one.js'
import { jsonFile, loadCriteriaFromMemory, readFixtureFiles } from '../../helpers/in-memory-fixture.js'
import { unicodeText } from './arbitraries.js'

// The hashes a case and its review record are stamped with the project's own hash functions, so
// that the inputs are validly bound; what the decision should be comes from the oracle below.

/**
 * The decision rule as the specification states it: "A missing criterion, missing review or
 * uncertain rating keeps the answer pending. Once review is complete, any does_not_meet rejects
 * the answer; all meets accepts it." Pending comes first: a does_not_meet beside a missing or
 * uncertain judgement leaves the case pending, with the known failure kept.
 */
function specifiedDecision(criteria: readonly { id: string; rating: Rating | undefined }[], reviewed: boolean) {
  const all = criteria.map((criterion) => criterion.id)
  if (!reviewed) return { status: 'pending', missing: all, uncertain: [], failed: [] } as const
  const rated = (rating: Rating) => criteria.filter((criterion) => criterion.rating === rating).map((criterion) => criterion.id)
  const missing = criteria.filter((criterion) => criterion.rating === undefined).map((criterion) => criterion.id)
  const uncertain = rated('uncertain')
  const failed = rated('does_not_meet')
  if (missing.length > 0 || uncertain.length > 0) return { status: 'pending', missing, uncertain, failed } as const
  if (failed.length > 0) return { status: 'rejected', missing: [], uncertain: [], failed } as const
  return { status: 'accepted', missing: [], uncertain: [], failed: [] } as const
}

const rating = fc.constantFrom(...RATINGS)
/** A criterion's rating, or `undefined`: the review does not judge it. */
const judgement = fc.option(rating, { nil: undefined })

// Ids from the whole Unicode range, and the names an object inherits: a criterion id is a key of
// the review's judgements, so it must never be confused with a property of every object.
// "__proto__" is left out: the review schema drops that key from judgements, so such a criterion
// always reads as unjudged and its case stays pending (never graded, but never decided either).
const criterionId = fc.oneof(
  { arbitrary: unicodeText({ minLength: 1, maxLength: 6 }), weight: 4 },
  fc.constantFrom('constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'),
)

const generatedCriterion = fc.record({
  id: criterionId,
  rule: unicodeText({ minLength: 1 }),
  quote: unicodeText({ minLength: 1 }),
  rating: judgement,
  reason: unicodeText({ minLength: 1 }),
  /** Where the answer span starts and how long it is, in code points; `undefined` for an omission (""). */
  span: fc.option(fc.tuple(fc.nat(), fc.nat()), { nil: undefined }),
})

const generatedCase = fc.record({
  criteria: fc.uniqueArray(generatedCriterion, { selector: (criterion) => criterion.id, minLength: 1, maxLength: 6 }),
  task: unicodeText({ minLength: 1 }),
  ratings: fc.shuffledSubarray([...RATINGS], { minLength: RATINGS.length }),
  answer: fc.record({ text: unicodeText({ minLength: 1, maxLength: 20 }), citation: unicodeText({ minLength: 1 }) }),
  reviewed: fc.oneof({ arbitrary: fc.constant(true), weight: 9 }, fc.constant(false)),
  split: fc.constantFrom(undefined, 'development' as const, 'held_out' as const),
})

type GeneratedCase = typeof generatedCase extends fc.Arbitrary<infer T> ? T : never

function spanOf(text: string, span: readonly [number, number] | undefined): string {
  if (span === undefined) return ''
  const chars = [...text]
  const start = span[0] % (chars.length + 1)
  return chars.slice(start, start + (span[1] % (chars.length - start + 1))).join('')
}

/**
 * The generated rubric and source bound, and one case with its review (or none), stamped with their
 * hashes. `order` arranges the review's judgements, which need not follow the rubric.
 */
function bindGenerated(generated: GeneratedCase, order: <T>(items: T[]) => T[]) {
  const source = generated.criteria.map((criterion) => criterion.quote).join('\n')
  const rubric = JSON.stringify({
    id: 'generated',
    version: 1,
    task: generated.task,
    acceptance: 'Every criterion must meet.',
    ratings: generated.ratings,
    criteria: generated.criteria.map(({ id, rule, quote }) => ({ id, rule, reference_quote: quote })),
  })
  const bound = bindRubricContents(rubric, source)
  const review = generated.reviewed
    ? {
        answer_id: 'generated-case',
        answer_sha256: fingerprint(generated.answer),
        source_sha256: sha256Hex(source),
        rubric_sha256: sha256Hex(rubric),
        judgements: Object.fromEntries(
          order(generated.criteria.filter((criterion) => criterion.rating !== undefined)).map((criterion) => [
            criterion.id,
            {
              rating: criterion.rating,
              reason: criterion.reason,
              reference_quote: criterion.quote,
              answer_span: spanOf(generated.answer.text, criterion.span),
            },
          ]),
        ),
      }
    : null
  const theCase = {
    id: 'generated-case',
    ...(generated.split === undefined ? {} : { split: generated.split }),
    input: { question: generated.task, answer: generated.answer },
    expected: { acceptable: true, source_sha256: sha256Hex(source), rubric_sha256: sha256Hex(rubric), review_sha256: fingerprint(review) },
  }
  return { bound, theCase, review }
}

describe('the pending-first, all-criteria decision rule', () => {
  test('accepted only when every criterion is judged meets; a missing or uncertain judgement keeps the case pending even beside does_not_meet (kept in the record); otherwise any does_not_meet rejects', () => {
    fc.assert(
      fc.property(generatedCase, fc.gen(), (generated, g) => {
        const { bound, theCase, review } = bindGenerated(generated, (items) =>
          g(fc.shuffledSubarray, items, { minLength: items.length, maxLength: items.length }),
        )
        const decision = assessOne(bound, theCase, review)
        const expected = specifiedDecision(generated.criteria, generated.reviewed)

        expect(decision.status).toBe(expected.status)
        if (decision.status === 'refused') return
        expect(decision.split).toBe(generated.split ?? 'development')
        // The ratings the review gave, in the rubric's order (but for ids like "0", which a
        // JavaScript object always lists first).
        const given = generated.reviewed ? generated.criteria.filter((criterion) => criterion.rating !== undefined) : []
        expect(decision.ratings).toEqual(Object.fromEntries(given.map((criterion) => [criterion.id, criterion.rating])))
        const named = (ids: string[]) => ids.filter((id) => !/^(0|[1-9]\d*)$/.test(id))
        expect(named(Object.keys(decision.ratings))).toEqual(named(given.map((criterion) => criterion.id)))
        const failed = (decision.status === 'rejected' || decision.status === 'pending' ? decision.failed : []).map((item) => item.criterion)
        expect(failed).toEqual(expected.failed)
        if (decision.status === 'rejected') {
          expect(decision.reason).toBe(expected.failed.join(', '))
          // Each failed criterion carries the reviewer's evidence.
          for (const item of decision.failed) {
            const criterion = generated.criteria.find((each) => each.id === item.criterion)!
            expect(item).toEqual({
              criterion: criterion.id,
              rule: criterion.rule,
              reason: criterion.reason,
              referenceQuote: criterion.quote,
              answerSpan: spanOf(generated.answer.text, criterion.span),
            })
          }
        }
        if (decision.status === 'pending') {
          expect(decision.reviewed).toBe(generated.reviewed)
          expect(decision.missing).toEqual(expected.missing)
          expect(decision.uncertain.map((item) => item.criterion)).toEqual(expected.uncertain)
        }
        if (decision.status === 'accepted') expect(decision.reason).toBe('')
      }),
      { numRuns: 150 },
    )
  })
})

const bundled = await readFixtureFiles(DOCUCTL, ['rubric.json', 'source.txt'])

describe('review coverage over generated sets of cases', () => {
  const rubric = JSON.parse(new TextDecoder().decode(bundled['rubric.json'])) as { task: string; criteria: { id: string; reference_quote: string }[] }
  const sourceSha256 = sha256Hex(bundled['source.txt']!)
  const rubricSha256 = sha256Hex(bundled['rubric.json']!)

  const generatedSet = fc.array(
    fc.record({
      split: fc.constantFrom(undefined, 'development' as const, 'held_out' as const),
      /** One rating (or none) per criterion of the bundled rubric; `null`: no review. */
      review: fc.option(fc.array(judgement, { minLength: rubric.criteria.length, maxLength: rubric.criteria.length }), { nil: null }),
      /** A defect that refuses the case: its question changed, or its answer edited after the review. */
      defect: fc.constantFrom(undefined, undefined, undefined, 'question' as const, 'answer' as const),
      text: unicodeText({ minLength: 1 }),
    }),
    { maxLength: 12 },
  )

  test('graded + pending + refused = candidates and accepted + rejected = graded, in total and per split; pending is never graded', async () => {
    await fc.assert(
      fc.asyncProperty(generatedSet, async (generated) => {
        const expectations: { id: string; split: 'development' | 'held_out'; status: string }[] = []
        const cases: unknown[] = []
        const reviews: unknown[] = []
        generated.forEach((entry, index) => {
          const id = `case-${index}`
          const answer = { text: entry.text, citation: 'Fictional docuctl 3 guide' }
          const criteria = rubric.criteria.map((criterion, position) => ({ ...criterion, rating: entry.review?.[position] }))
          const review =
            entry.review === null
              ? null
              : {
                  answer_id: id,
                  answer_sha256: fingerprint(answer),
                  source_sha256: sourceSha256,
                  rubric_sha256: rubricSha256,
                  judgements: Object.fromEntries(
                    criteria
                      .filter((criterion) => criterion.rating !== undefined)
                      .map((criterion) => [
                        criterion.id,
                        { rating: criterion.rating, reason: 'Judged.', reference_quote: criterion.reference_quote, answer_span: '' },
                      ]),
                  ),
                }
          if (review !== null) reviews.push(review)
          const question = entry.defect === 'question' ? `${rubric.task} Also, why?` : rubric.task
          const edited = entry.defect === 'answer' ? { ...answer, text: `${answer.text} Edited.` } : answer
          cases.push({
            id,
            ...(entry.split === undefined ? {} : { split: entry.split }),
            input: { question, answer: edited },
            expected: { acceptable: true, source_sha256: sourceSha256, rubric_sha256: rubricSha256, review_sha256: fingerprint(review) },
          })
          // An edited answer without a review has no judgement to go stale: it stays pending.
          const refused = entry.defect === 'question' || (entry.defect === 'answer' && review !== null)
          expectations.push({ id, split: entry.split ?? 'development', status: refused ? 'refused' : specifiedDecision(criteria, review !== null).status })
        })

        const fixture = await loadCriteriaFromMemory({
          ...bundled,
          'cases.json': jsonFile({ name: 'generated', task: 'rollback', cases }),
          'annotations.json': jsonFile({ origin: 'generated', reviews }),
        })
        const { decisions, coverage, identities } = evaluateFixture(fixture)
        expect(decisions.map((decision: CriteriaDecision) => [decision.id, decision.status])).toEqual(expectations.map(({ id, status }) => [id, status]))

        for (const scope of ['all', 'development', 'held_out'] as const) {
          const counts = scope === 'all' ? coverage : coverage.splits[scope]
          const inScope = expectations.filter((each) => scope === 'all' || each.split === scope)
          const count = (status: string) => inScope.filter((each) => each.status === status).length
          const graded = count('accepted') + count('rejected')
          const { candidates, pending, refused, outcomes } = counts
          expect({ candidates, graded: counts.graded, pending, refused, outcomes }).toEqual({
            candidates: inScope.length,
            graded,
            pending: count('pending'),
            refused: count('refused'),
            outcomes:
              graded === 0 ? null : expect.objectContaining({ accepted: count('accepted'), rejected: count('rejected'), rate: count('accepted') / graded }),
          })
          expect(counts.graded + counts.pending + counts.refused).toBe(counts.candidates)
          expect((counts.outcomes?.accepted ?? 0) + (counts.outcomes?.rejected ?? 0)).toBe(counts.graded)
          // The Wilson interval holds the rate and stays in [0, 1].
          if (counts.outcomes !== null) {
            const [low, high] = counts.outcomes.interval
            expect(0 <= low && low <= counts.outcomes.rate && counts.outcomes.rate <= high && high <= 1).toBe(true)
          }
        }
        expect(coverage.pendingCases.map((each) => each.id)).toEqual(expectations.filter((each) => each.status === 'pending').map((each) => each.id))
        expect(coverage.refusedCases.map((each) => each.id)).toEqual(expectations.filter((each) => each.status === 'refused').map((each) => each.id))
        // The graded subset's identity holds exactly the accepted and rejected cases.
        const gradedIds = new Set(expectations.filter((each) => each.status === 'accepted' || each.status === 'rejected').map((each) => each.id))
        expect(identities.gradedSetSha256).toBe(fingerprint(cases.filter((each) => gradedIds.has((each as { id: string }).id))))
      }),
      { numRuns: 50 },
    )
  })
})
