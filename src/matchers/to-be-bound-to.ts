import { bindCommand } from '../core/engine/bindings.js'
import { fingerprint, sha256Hex } from '../core/json/canonical-json.js'
import type { FixtureCase } from '../core/kinds/criteria/access.js'
import type { BoundRubric } from '../core/kinds/criteria/rubric.js'
import { preview } from '../core/common/errors.js'
import { formatLocation } from '../core/common/json-path.js'
import { kindContext } from '../core/engine/fixture.js'
import { failEitherWay, paragraphs, type MatcherContext, type MatcherOutcome } from './format.js'
import { criteriaFixture } from '../core/kinds/criteria/access.js'
import { isBoundRubric, isContents, isFixture, isFixtureCase, isOtherKindFixture, isRecord, locateReview, usage, type LocatedReview } from './inputs.js'

type Field = 'answer_sha256' | 'source_sha256' | 'rubric_sha256'

/** One binding to check: the hash the content has now and what the content is. */
interface Binding {
  readonly field: Field
  readonly now: string
  /** `fixtures/docuctl-rollback/source.txt`, `the answer of case "complete"`, `the given rubric`. */
  readonly content: string
}

const SHA256 = /^[0-9a-f]{64}$/
const MATCHER = 'toBeBoundTo'

/**
 * `expect(review).toBeBoundTo(target)`: the review holds the hashes the given answer, source and/or
 * rubric have now, so it still describes them. The target is a loaded fixture or bound rubric
 * (source and rubric), a fixture's case (its answer, source and rubric) or `{ answer?, source?,
 * rubric? }`. A failure names each stale binding, the hash the review holds, the hash the content
 * has now and the fix.
 *
 * `.not` passes when at least one of the given bindings is stale. A review without a valid hash
 * for a binding it is asked about fails with and without `.not`.
 */
export function toBeBoundTo(this: MatcherContext, received: unknown, target: unknown): MatcherOutcome {
  const review = locateReview(MATCHER, received)
  if (review === null) {
    throw usage(MATCHER, 'there is no review to check.', 'getReview(fixture, id) or a review object', 'null')
  }
  const bindings = bindingsOf(target)
  const hint = this.utils.matcherHint(MATCHER, 'review', 'target', { isNot: this.isNot, promise: this.promise })
  const subject = reviewSubject(review)
  const value = isRecord(review.value) ? review.value : {}
  const malformed = bindings.filter(({ field }) => typeof value[field] !== 'string' || !SHA256.test(value[field]))
  if (malformed.length > 0) {
    return failEitherWay(this, () =>
      paragraphs(
        hint,
        `${subject} holds no valid ${malformed.map(({ field }) => field).join(', ')}, so whether it is bound cannot be told.`,
        malformed.map(({ field }) => `${field}: ${this.utils.printReceived(value[field])}`).join('\n'),
        'fix: a review binds each revision with a SHA-256 digest (64 lowercase hexadecimal characters).',
      ),
    )
  }
  const stale = bindings.filter(({ field, now }) => value[field] !== now)
  const lines = bindings.map((binding) => {
    const held = value[binding.field]
    if (held === binding.now) return `✓ ${binding.field}  ${this.utils.printReceived(held)}  (${binding.content})`
    return [
      `✗ ${binding.field}  stale: ${binding.content} changed since the review`,
      `    review holds: ${this.utils.printReceived(held)}`,
      `    content now:  ${this.utils.printExpected(binding.now)}`,
    ].join('\n')
  })
  return {
    pass: stale.length === 0,
    message: () =>
      stale.length === 0
        ? paragraphs(
            hint,
            `${subject} is bound to every given revision, so it still describes them:`,
            lines.join('\n'),
            '.not.toBeBoundTo passes when at least one of the given bindings is stale.',
          )
        : paragraphs(
            hint,
            `${subject} is stale: ${stale.length} of ${bindings.length} ${bindings.length === 1 ? 'binding no longer holds' : 'bindings no longer hold'}.`,
            lines.join('\n'),
            fix(stale, review),
          ),
  }
}

function bindingsOf(target: unknown): Binding[] {
  if (isOtherKindFixture(target)) criteriaFixture(target, MATCHER)
  if (isFixture(target)) return rubricBindings(kindContext(target))
  if (isBoundRubric(target)) return rubricBindings(target)
  if (isFixtureCase(target)) return [answerBinding(target), ...rubricBindings(kindContext(target.fixture))]
  const expected = 'a fixture, a bound rubric, a fixture case, or { answer?, source?, rubric? } with at least one'
  if (!isRecord(target)) throw usage(MATCHER, 'the target names no content to check the review against.', expected, preview(target))
  const keys = Object.keys(target)
  const unknown = keys.filter((key) => !['answer', 'source', 'rubric'].includes(key))
  if (keys.length === 0 || unknown.length > 0) {
    throw usage(
      MATCHER,
      unknown.length > 0 ? `the target has unknown key ${unknown.map((key) => JSON.stringify(key)).join(', ')}.` : 'the target is empty.',
      expected,
      `{ ${keys.join(', ')} }`,
    )
  }
  // A key given as undefined is a lookup that found nothing: checking no content would pass for any review.
  const missing = keys.filter((key) => target[key] === undefined)
  if (missing.length > 0) {
    throw usage(
      MATCHER,
      `the target's ${missing.map((key) => JSON.stringify(key)).join(', ')} ${missing.length === 1 ? 'is' : 'are'} undefined, so there is nothing to check the review against.`,
      expected,
      `{ ${keys.map((key) => `${key}: ${target[key] === undefined ? 'undefined' : '…'}`).join(', ')} }`,
    )
  }
  const bindings: Binding[] = []
  const { answer, source, rubric } = target
  if (answer !== undefined) {
    if (isFixtureCase(answer)) bindings.push(answerBinding(answer))
    else if (isRecord(answer)) bindings.push({ field: 'answer_sha256', now: fingerprint(answer), content: 'the given answer' })
    else
      throw usage(
        MATCHER,
        'the answer is neither an answer object nor a fixture case.',
        'an answer { text, citation } or getCase(fixture, id)',
        preview(answer),
      )
  }
  for (const [field, contents, name] of [
    ['source_sha256', source, 'source'],
    ['rubric_sha256', rubric, 'rubric'],
  ] as const) {
    if (contents === undefined) continue
    if (!isContents(contents))
      throw usage(MATCHER, `the ${name} is not file contents.`, `the bytes of the ${name} file (a Buffer) or its text`, preview(contents))
    bindings.push({ field, now: sha256Hex(contents), content: `the given ${name}` })
  }
  return bindings
}

function rubricBindings(bound: BoundRubric): Binding[] {
  return [
    { field: 'source_sha256', now: bound.files.source?.sha256 ?? '', content: bound.files.source?.display ?? 'the source' },
    { field: 'rubric_sha256', now: bound.files.rubric?.sha256 ?? '', content: bound.files.rubric?.display ?? 'the rubric' },
  ]
}

function answerBinding(fixtureCase: FixtureCase): Binding {
  const value = fixtureCase.entry.value
  const answer = isRecord(value) && isRecord(value['input']) ? value['input']['answer'] : undefined
  return { field: 'answer_sha256', now: fingerprint(answer ?? null), content: `the answer of case ${JSON.stringify(fixtureCase.id)}` }
}

function reviewSubject(review: LocatedReview): string {
  if (review.caseId !== undefined) return `the review of case ${JSON.stringify(review.caseId)} (${formatLocation(review.file, review.path)})`
  const id = isRecord(review.value) ? review.value['answer_id'] : undefined
  return typeof id === 'string' ? `the review of ${JSON.stringify(id)}` : 'the review'
}

function fix(stale: readonly Binding[], review: LocatedReview): string {
  const changed = stale.map(({ field }) => ({ answer_sha256: 'answer', source_sha256: 'source', rubric_sha256: 'criteria' })[field])
  const reread = `re-review the answer against the changed ${changed.join(' and ')}`
  // A review read from a fixture is bound by a command, which computes every hash; a bare object has no file to write.
  if (review.dir !== undefined && review.caseId !== undefined) {
    return `fix: ${reread}, then run \`${bindCommand(review.dir, review.caseId)}\`: it records the content's hashes${review.revisionRecordedAt === undefined ? '' : ' and acknowledges the new review revision'}. A stale review is never reused.`
  }
  return `fix: ${reread}, then record in the review the hashes shown as "content now". A stale review is never reused.`
}
