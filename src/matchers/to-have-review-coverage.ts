import type { Coverage } from '../core/contract/results.js'
import type { OutcomeWords } from '../core/contract/kind.js'
import { kinds } from '../core/registry.js'
import { evaluateFixture } from '../core/engine/evaluate.js'
import type { SomeFixture } from '../core/engine/fixture.js'
import type { Split } from '../core/common/primitives.js'
import { preview } from '../core/common/errors.js'
import { failEitherWay, paragraphs, type MatcherContext, type MatcherOutcome } from './format.js'
import { isCoverage, isEvaluation, isLoadedFixture, isRecord, usage } from './inputs.js'

const MATCHER = 'toHaveReviewCoverage'
const COUNTS = ['candidates', 'graded', 'pending', 'refused', 'accepted', 'rejected'] as const
type Count = (typeof COUNTS)[number]

/**
 * `expect(fixture).toHaveReviewCoverage({ graded: 6, pending: 2 }, { split? })`: the fixture's review
 * coverage has these counts (any of candidates, graded, pending, refused, accepted, rejected). The
 * received value is a loaded fixture (evaluated here), an evaluation or a coverage.
 *
 * `.not` passes when at least one given count differs. Refused cases are errors: unless `refused`
 * is among the counts, any refused case fails the assertion with and without `.not`.
 */
export function toHaveReviewCoverage(this: MatcherContext, received: unknown, expected: unknown, options?: unknown): MatcherOutcome {
  const { coverage, subject, words } = coverageOf(received)
  const wanted = expectedCounts(expected)
  const split = splitOf(options)
  const counts = split === undefined ? coverage : coverage.splits[split]
  const actual: Record<Count, number> = {
    candidates: counts.candidates,
    graded: counts.graded,
    pending: counts.pending,
    refused: counts.refused,
    accepted: counts.outcomes?.accepted ?? 0,
    rejected: counts.outcomes?.rejected ?? 0,
  }
  const inSplit = <T extends { split: Split }>(items: readonly T[]) => items.filter((item) => split === undefined || item.split === split)
  const refused = inSplit(coverage.refusedCases)
  const pending = inSplit(coverage.pendingCases)
  const hint = this.utils.matcherHint(MATCHER, subject.startsWith('fixture') ? 'fixture' : 'coverage', 'expected', {
    isNot: this.isNot,
    promise: this.promise,
  })
  const scope = `${subject}${split === undefined ? '' : ` (split ${split})`}`
  // In the kind's words, as `evaluate` says it: a scored case is scored, passed or failed; the counts keep their keys.
  const summary = `review coverage: ${actual.graded} ${words.graded} of ${actual.candidates} candidates; ${actual.pending} pending; ${actual.refused} refused — ${counts.outcomes === null ? `no ${words.graded} case, so no quality figure` : `${words.positive} ${actual.accepted}, ${words.negative} ${actual.rejected}`}`
  const pendingList = pending.length > 0 && `pending:\n${pending.map((item) => `  ${item.id}: ${item.reason}`).join('\n')}`
  const refusedList = refused.length > 0 && `refused:\n${refused.map((item) => `  ${item.id} (${item.code}):\n${indent(item.message, 4)}`).join('\n')}`

  if (wanted.refused === undefined && refused.length > 0) {
    return failEitherWay(this, () =>
      paragraphs(
        hint,
        `${scope} has ${refused.length} refused ${refused.length === 1 ? 'case' : 'cases'}: a refusal is an error, so no coverage assertion passes over it, with or without .not.`,
        summary,
        refusedList,
        'fix: repair the refused cases (each error says how), or assert them with refused: <count>.',
      ),
    )
  }
  const keys = COUNTS.filter((key) => wanted[key] !== undefined)
  const expectedPart = Object.fromEntries(keys.map((key) => [key, wanted[key]]))
  const actualPart = Object.fromEntries(keys.map((key) => [key, actual[key]]))
  const pass = keys.every((key) => wanted[key] === actual[key])
  return {
    pass,
    message: () =>
      pass
        ? paragraphs(
            hint,
            `${scope} has exactly these counts: ${this.utils.EXPECTED_COLOR(keys.map((key) => `${key} ${actual[key]}`).join(', '))}.`,
            summary,
            '.not.toHaveReviewCoverage passes when at least one given count differs.',
          )
        : paragraphs(
            hint,
            `${scope} has another review coverage.`,
            this.utils.diff(expectedPart, actualPart, { aAnnotation: 'Expected coverage', bAnnotation: 'Received coverage' }),
            summary,
            pendingList,
            refusedList,
          ),
  }
}

/** A coverage alone names no kind: its counts are said in the words of their keys, a criteria fixture's. */
const KEY_WORDS: CoverageWords = { graded: 'graded', positive: 'accepted', negative: 'rejected' }
type CoverageWords = Pick<OutcomeWords, 'graded' | 'positive' | 'negative'>

function coverageOf(received: unknown): { coverage: Coverage; subject: string; words: CoverageWords } {
  const wordsOf = (fixture: SomeFixture) => kinds.get(fixture.kind)?.present.words ?? KEY_WORDS
  if (isLoadedFixture(received)) return { coverage: evaluateFixture(received).coverage, subject: fixtureSubject(received), words: wordsOf(received) }
  if (isEvaluation(received)) return { coverage: received.coverage, subject: fixtureSubject(received.fixture), words: wordsOf(received.fixture) }
  if (isCoverage(received)) return { coverage: received, subject: 'the coverage', words: KEY_WORDS }
  throw usage(MATCHER, 'the received value holds no review coverage.', 'a loaded fixture, an evaluation or a coverage', preview(received))
}

function fixtureSubject({ name, displayDir }: SomeFixture): string {
  return `fixture ${JSON.stringify(name)}${displayDir === '.' ? '' : ` (${displayDir})`}`
}

function expectedCounts(expected: unknown): Partial<Record<Count, number>> {
  const problem = !isRecord(expected)
    ? 'the expected counts are not an object.'
    : Object.keys(expected).length === 0
      ? 'no count is given.'
      : Object.entries(expected).some(
            ([key, value]) => !COUNTS.some((count) => count === key) || typeof value !== 'number' || !Number.isInteger(value) || value < 0,
          )
        ? 'every count must be one of candidates, graded, pending, refused, accepted, rejected, with a whole number ≥ 0.'
        : undefined
  if (problem !== undefined) throw usage(MATCHER, problem, '{ graded: 6, pending: 2 } (at least one count)', preview(expected))
  // Cast: every key was checked to be a count and every value a whole number just above.
  return expected as Partial<Record<Count, number>>
}

function splitOf(options: unknown): Split | undefined {
  if (options === undefined) return undefined
  const split = isRecord(options) ? options['split'] : undefined
  if (isRecord(options) && Object.keys(options).every((key) => key === 'split') && (split === undefined || split === 'development' || split === 'held_out')) {
    return split
  }
  throw usage(MATCHER, 'the options are not { split }.', '{ split: "development" } or { split: "held_out" }', preview(options))
}

function indent(text: string, spaces: number): string {
  return text.replace(/^/gm, ' '.repeat(spaces))
}
