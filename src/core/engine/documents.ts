import { z } from 'zod'
import { duplicateIdDetails, FixtureError } from '../common/errors.js'
import type { PathSegment } from '../common/json-path.js'
import { isObject, NonEmptyText, quoteSome, SchemaReferenceSchema } from '../common/primitives.js'
import { valueAt } from '../common/json-path.js'
import { parseJsonFile, type RawFile } from '../json/read.js'
import { checkFileDocument, describeValue } from '../json/schema-error.js'
import type { CaseEntry, ReviewEntry, ReviewIndex } from './entries.js'
import type { SomeKindDefinition } from '../contract/kind.js'

/** What each file's JSON Schema says it leaves to evaluation. */
export const BOUND_ELSEWHERE = 'Hashes, excerpts and references between files are checked when the fixture is evaluated, not by this schema.'

/**
 * A review file as a whole: who made the reviews, and the reviews themselves, each checked with
 * its case. `annotations.json` has this envelope in every kind.
 */
export const ReviewFileEnvelopeSchema = z.strictObject({
  $schema: SchemaReferenceSchema.optional(),
  origin: NonEmptyText,
  reviews: z.array(z.unknown()),
})

/** The cases of `cases.json`, with the document's other members (its name among them). */
export interface CaseEntries {
  readonly name: string
  readonly entries: CaseEntry[]
  /** The document less `cases` and `$schema`. */
  readonly members: Record<string, unknown>
}

/**
 * Reads `cases.json`: its envelope, and each case's id, unique in the file. A defect of the file
 * as a whole refuses the fixture; a case is checked on its own when it is assessed, so that one
 * malformed case is refused while the others are decided.
 */
export function readCaseEntries(definition: SomeKindDefinition, file: RawFile): CaseEntries {
  const document = parseJsonFile(file)
  checkFileDocument(definition.schemas.casesEnvelope, document, { file: file.display, code: 'FILE_SCHEMA', hint: definition.schemas.casesHint })
  // The envelope holds: the document is an object whose cases are a list, and whose name is a string.
  const { $schema: _, cases, ...members } = isObject(document) ? document : {}
  const raw: readonly unknown[] = Array.isArray(cases) ? cases : []
  const seen = new Map<string, number>()
  const entries = raw.map((value, index): CaseEntry => {
    const id = stringKey(value, 'id', file.display, ['cases', index])
    const earlier = seen.get(id)
    if (earlier !== undefined) {
      const hint = 'give every case its own id: reviews are matched to cases by id.'
      throw new FixtureError(
        duplicateIdDetails({ code: 'DUPLICATE_CASE', file: file.display, path: ['cases', index, 'id'], what: 'case', earlier: `cases[${earlier}]`, id, hint }),
      )
    }
    seen.set(id, index)
    return { id, split: definition.splitOf(value, document), value, path: ['cases', index] }
  })
  return { name: String(members['name']), entries, members }
}

/** A review file read: its origin and its reviews by case and slot. */
export interface ReviewDocument {
  readonly origin: string
  readonly reviews: ReviewIndex
}

/**
 * Reads a review file (`annotations.json`): its envelope, then each review's case and slot. A
 * review of a case the fixture does not hold, or a second review of one slot of a case, refuses
 * the fixture: which review applies would be a guess.
 */
export function readReviewDocument(definition: SomeKindDefinition, file: RawFile, cases: readonly CaseEntry[], casesFile: string): ReviewDocument {
  const document = parseJsonFile(file)
  const envelope = checkFileDocument(definition.schemas.annotationsEnvelope, document, {
    file: file.display,
    code: 'FILE_SCHEMA',
    hint: definition.schemas.annotationsHint,
  })
  const { caseKey, slotKey, slots } = definition.reviews
  const ids = new Set(cases.map((entry) => entry.id))
  const listed = valueAt(document, ['reviews'])
  const raw: readonly unknown[] = Array.isArray(listed) ? listed : []
  const reviews = new Map<string, Record<string, ReviewEntry>>()
  raw.forEach((value, index) => {
    const caseId = stringKey(value, caseKey, file.display, ['reviews', index])
    const slot = slotKey === undefined ? slots[0] : slotOf(value, slotKey, slots, file.display, index)
    if (!ids.has(caseId)) {
      throw new FixtureError({
        code: 'UNKNOWN_REVIEW',
        file: file.display,
        path: ['reviews', index, caseKey],
        summary: `the review names a case that ${casesFile} does not hold.`,
        expected: ids.size === 0 ? 'the id of a case (there are no cases yet)' : `one of the case ids: ${quoteSome([...ids])}`,
        found: JSON.stringify(caseId),
        hint: `correct the ${caseKey}, or remove the review if its case was withdrawn.`,
      })
    }
    const bySlot = reviews.get(caseId) ?? Object.create(null)
    const earlier: ReviewEntry | undefined = bySlot[slot]
    if (earlier !== undefined) {
      const what = definition.reviews.slotName(slot)
      throw new FixtureError({
        code: 'DUPLICATE_REVIEW',
        file: file.display,
        path: ['reviews', index, caseKey],
        summary: `case "${caseId}" already has ${what} at reviews[${String(earlier.path[1])}]: which one applies would be a guess.`,
        found: JSON.stringify(caseId),
        hint: `keep one review per case${slotKey === undefined ? '' : ` and ${slotKey}`}: resolve the disagreement and merge the judgements into one review.`,
      })
    }
    bySlot[slot] = { caseId, slot, value, path: ['reviews', index] }
    reviews.set(caseId, bySlot)
  })
  return { origin: String(valueAt(envelope, ['origin'])), reviews }
}

function slotOf(value: unknown, key: string, slots: readonly string[], file: string, index: number): string {
  const slot = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined
  if (typeof slot === 'string' && slots.includes(slot)) return slot
  throw new FixtureError({
    code: 'FILE_SCHEMA',
    file,
    path: ['reviews', index, key],
    summary: slot === undefined ? `the review has no ${key}.` : `the review's ${key} is not one this kind of fixture knows.`,
    expected: `one of ${slots.map((each) => JSON.stringify(each)).join(', ')}`,
    found: slot === undefined ? 'nothing (the key is missing)' : describeValue(slot),
    hint: `give every review its ${key}: it says which output the review judges.`,
  })
}

/** The non-empty string under `key` of an entry that must be an object. */
function stringKey(value: unknown, key: string, file: string, path: PathSegment[]): string {
  const found = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined
  if (typeof found === 'string' && found !== '') return found
  throw new FixtureError({
    code: 'FILE_SCHEMA',
    file,
    path: isObject(value) ? [...path, key] : path,
    summary: !isObject(value)
      ? 'the entry is not an object.'
      : found === undefined
        ? `the entry has no ${key}.`
        : `the entry's ${key} is not a non-empty string.`,
    expected: isObject(value) ? 'a non-empty string' : `an object with a non-empty string ${key}`,
    found: isObject(value) && found === undefined ? 'nothing (the key is missing)' : describeValue(isObject(value) ? found : value),
    hint: `give every entry a non-empty string ${key}: entries are matched by it.`,
  })
}
