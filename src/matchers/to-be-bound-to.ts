import type { BindingRow } from '../core/contract/bindings.js'
import type { KindContext } from '../core/contract/context.js'
import type { SomeKindDefinition } from '../core/contract/kind.js'
import type { ReceivedReview } from '../core/contract/matchers.js'
import { bindCommand, rowPath } from '../core/engine/bindings.js'
import type { FixtureCaseOf } from '../core/engine/fixture-case.js'
import { fingerprint, sha256Hex } from '../core/json/canonical-json.js'
import { preview } from '../core/common/errors.js'
import { formatLocation, valueAt } from '../core/common/json-path.js'
import { kindContext } from '../core/engine/fixture.js'
import { kinds } from '../core/registry.js'
import { failEitherWay, paragraphs, type MatcherContext, type MatcherOutcome } from './format.js'
import { boundRubricOf, isContents, isFixtureCase, isFixtureReview, isLoadedFixture, isRecord, locateReview, usage } from './inputs.js'

/** One binding to check: where the review holds its hash, the hash the content has now and what the content is. */
interface Binding {
  /** The hash's path in the review: `['answer_sha256']`. */
  readonly path: readonly string[]
  /** `answer_sha256`. */
  readonly field: string
  readonly now: string
  /** `fixtures/docuctl-rollback/source.txt`, `the answer of case "complete"`, `the given rubric`. */
  readonly content: string
  /** What changed, as a re-review names it: `answer`, `source`, `criteria`. */
  readonly changed: string
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
  const kind = kindOf(received)
  const bindings = bindingsOf(kind, target)
  const hint = this.utils.matcherHint(MATCHER, 'review', 'target', { isNot: this.isNot, promise: this.promise })
  const subject = reviewSubject(review, kind)
  const held = (binding: Binding) => valueAt(review.value, binding.path)
  const malformed = bindings.filter((binding) => {
    const hash = held(binding)
    return typeof hash !== 'string' || !SHA256.test(hash)
  })
  if (malformed.length > 0) {
    return failEitherWay(this, () =>
      paragraphs(
        hint,
        `${subject} holds no valid ${malformed.map(({ field }) => field).join(', ')}, so whether it is bound cannot be told.`,
        malformed.map((binding) => `${binding.field}: ${this.utils.printReceived(held(binding))}`).join('\n'),
        'fix: a review binds each revision with a SHA-256 digest (64 lowercase hexadecimal characters).',
      ),
    )
  }
  const stale = bindings.filter((binding) => held(binding) !== binding.now)
  const lines = bindings.map((binding) => {
    const hash = held(binding)
    if (hash === binding.now) return `✓ ${binding.field}  ${this.utils.printReceived(hash)}  (${binding.content})`
    return [
      `✗ ${binding.field}  stale: ${binding.content} changed since the review`,
      `    review holds: ${this.utils.printReceived(hash)}`,
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

/** The kind whose binding table a review is checked by: a fixture review's own, else the shipped kind whose answers are reviewed in memory. */
function kindOf(received: unknown): SomeKindDefinition | undefined {
  return isFixtureReview(received) ? received.fixture.definition : kinds.kinds.find((kind) => kind.matchers?.answer !== undefined)
}

function bindingsOf(kind: SomeKindDefinition | undefined, target: unknown): Binding[] {
  if (isLoadedFixture(target)) return fileBindings(sameKind(kind, target.definition), kindContext(target))
  const bound = boundRubricOf(target)
  if (bound !== undefined) return fileBindings(sameKind(kind, bound.definition), bound.context)
  if (isFixtureCase(target))
    return [...caseBindings(target, sameKind(kind, target.fixture.definition)), ...fileBindings(target.fixture.definition, kindContext(target.fixture))]
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
    if (isFixtureCase(answer)) bindings.push(...caseBindings(answer, sameKind(kind, answer.fixture.definition)))
    else if (isRecord(answer)) bindings.push(...reviewRows(kind, 'fingerprint').map((row) => binding(kind, row, fingerprint(answer), 'the given answer')))
    else
      throw usage(
        MATCHER,
        'the answer is neither an answer object nor a fixture case.',
        'an answer { text, citation } or getCase(fixture, id)',
        preview(answer),
      )
  }
  for (const [role, contents] of [
    ['source', source],
    ['rubric', rubric],
  ] as const) {
    if (contents === undefined) continue
    if (!isContents(contents))
      throw usage(MATCHER, `the ${role} is not file contents.`, `the bytes of the ${role} file (a Buffer) or its text`, preview(contents))
    bindings.push(...reviewRows(kind, role).map((row) => binding(kind, row, sha256Hex(contents), `the given ${role}`)))
  }
  return bindings
}

/** The rows of a kind's binding table that a review records: of a file's bytes, or the fingerprint of the case's answer. */
function reviewRows(kind: SomeKindDefinition | undefined, of: 'source' | 'rubric' | 'fingerprint'): readonly BindingRow[] {
  return (kind?.bindings ?? []).filter(
    ({ in: entry, source }) => entry === 'review' && (of === 'fingerprint' ? 'fingerprintOf' in source : 'bytesOf' in source && source.bytesOf === of),
  )
}

function binding(kind: SomeKindDefinition | undefined, row: BindingRow, now: string, content: string): Binding {
  const path = rowPath(row, kind?.reviews.slots[0] ?? 'review')
  // A re-review reads what changed in the kind's words: a rubric's change is a change of its items (criteria).
  const changed = 'bytesOf' in row.source && row.source.bytesOf === 'rubric' ? (kind?.panel.words.items ?? row.target) : row.target
  return { path, field: path.join(' › '), now, content, changed }
}

/** The review's bindings to the source and rubric files of a fixture or bound rubric. */
function fileBindings(kind: SomeKindDefinition, context: KindContext<unknown>): Binding[] {
  return kind.bindings.flatMap((row) => {
    if (row.in !== 'review' || !('bytesOf' in row.source)) return []
    const file = context.files[row.source.bytesOf]
    return [binding(kind, row, file?.sha256 ?? '', file?.display ?? `the ${row.source.bytesOf}`)]
  })
}

/** The target's kind, when it is the review's: a review's hashes are read by its own kind's binding table. */
function sameKind(review: SomeKindDefinition | undefined, target: SomeKindDefinition): SomeKindDefinition {
  if (review === undefined || review === target) return target
  throw usage(
    MATCHER,
    `the review is a ${review.name} review and the target is of the ${target.name} kind: a review is bound to content of its own kind.`,
    `a target of the ${review.name} kind`,
    `a target of the ${target.name} kind`,
  )
}

/** The review's bindings to what it judged of a fixture's case (its answer). */
function caseBindings(fixtureCase: FixtureCaseOf, kind: SomeKindDefinition): Binding[] {
  const slot = kind.reviews.slots[0]
  return kind.bindings.flatMap((row) => {
    if (row.in !== 'review' || !('fingerprintOf' in row.source)) return []
    const value = valueAt(fixtureCase.entry.value, row.source.fingerprintOf(slot))
    return [binding(kind, row, fingerprint(value ?? null), `the ${row.target} of case ${JSON.stringify(fixtureCase.id)}`)]
  })
}

function reviewSubject(review: ReceivedReview, kind: SomeKindDefinition | undefined): string {
  if (review.caseId !== undefined) return `the review of case ${JSON.stringify(review.caseId)} (${formatLocation(review.file, review.path)})`
  const id = valueAt(review.value, [kind?.reviews.caseKey ?? 'answer_id'])
  return typeof id === 'string' ? `the review of ${JSON.stringify(id)}` : 'the review'
}

function fix(stale: readonly Binding[], review: ReceivedReview): string {
  const changed = stale.map((binding) => binding.changed)
  const reread = `re-review the answer against the changed ${changed.join(' and ')}`
  // A review read from a fixture is bound by a command, which computes every hash; a bare object has no file to write.
  if (review.dir !== undefined && review.caseId !== undefined) {
    return `fix: ${reread}, then run \`${bindCommand(review.dir, review.caseId)}\`: it records the content's hashes${review.revisionRecordedAt === undefined ? '' : ' and acknowledges the new review revision'}. A stale review is never reused.`
  }
  return `fix: ${reread}, then record in the review the hashes shown as "content now". A stale review is never reused.`
}
