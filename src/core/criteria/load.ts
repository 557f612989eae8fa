import { join } from 'node:path'
import { sha256Hex } from '../canonical-json.js'
import { FixtureError, preview } from '../errors.js'
import { parseJsonFile, readFixtureFile, type FixtureFileReader } from '../read.js'
import { describeValue, schemaError } from '../schema-error.js'
import type { Located } from './assess.js'
import { bindRubric, type BoundRubric, type FixtureFileNames } from './rubric.js'
import { AnnotationsEnvelopeSchema, CasesEnvelopeSchema, type Split } from './schemas.js'

/** The four files of a criteria fixture directory. */
export const CRITERIA_FILES = ['rubric.json', 'source.txt', 'cases.json', 'annotations.json'] as const
export type CriteriaFileName = (typeof CRITERIA_FILES)[number]

/** A case entry of `cases.json`, checked as a whole only when it is assessed. */
export interface CaseEntry extends Located {
  readonly id: string
  readonly split: Split
}

/** A review entry of `annotations.json`, checked with its case. */
export interface ReviewEntry extends Located {
  readonly answerId: string
}

/** Everything a criteria fixture directory holds, with the revisions of its files. */
export interface CriteriaFixture {
  readonly kind: 'criteria'
  /** Absolute path of the directory. */
  readonly dir: string
  /** The directory as shown in messages. */
  readonly displayDir: string
  /** `cases.json › name`. */
  readonly name: string
  readonly bound: BoundRubric
  readonly cases: readonly CaseEntry[]
  /** Reviews by case id. */
  readonly reviews: ReadonlyMap<string, ReviewEntry>
  /** `annotations.json › origin`: who or what produced the judgements. */
  readonly origin: string
  /** SHA-256 of the raw bytes of each file. */
  readonly files: Readonly<Record<CriteriaFileName, string>>
  /** `cases.json › task`, kept to fingerprint the full case set. */
  readonly task: string
}

/**
 * Reads and checks a criteria fixture directory. Fixture-level defects (an unreadable or malformed
 * file, an invalid rubric, a duplicate case id, a review for an unknown or already reviewed case)
 * throw a {@link FixtureError}; everything about a single case is left to assessment.
 */
export async function loadCriteriaFixture(dir: string, displayDir: string, read: FixtureFileReader = readFixtureFile): Promise<CriteriaFixture> {
  const names: FixtureFileNames = {
    rubric: join(displayDir, 'rubric.json'),
    source: join(displayDir, 'source.txt'),
    cases: join(displayDir, 'cases.json'),
    annotations: join(displayDir, 'annotations.json'),
  }
  const [rubricFile, sourceFile, casesFile, annotationsFile] = await Promise.all([
    read(join(dir, 'rubric.json'), names.rubric),
    read(join(dir, 'source.txt'), names.source),
    read(join(dir, 'cases.json'), names.cases),
    read(join(dir, 'annotations.json'), names.annotations),
  ])

  const bound = bindRubric(rubricFile, sourceFile, names)
  const casesDocument = parseJsonFile(casesFile)
  const cases = readCases(casesDocument, names.cases)
  const { origin, reviews } = readReviews(parseJsonFile(annotationsFile), names.annotations, cases)

  return {
    kind: 'criteria',
    dir,
    displayDir,
    name: (casesDocument as { name: string }).name,
    bound,
    cases,
    reviews,
    origin,
    files: {
      'rubric.json': sha256Hex(rubricFile.bytes),
      'source.txt': sha256Hex(sourceFile.bytes),
      'cases.json': sha256Hex(casesFile.bytes),
      'annotations.json': sha256Hex(annotationsFile.bytes),
    },
    task: (casesDocument as { task: string }).task,
  }
}

function readCases(document: unknown, file: string): CaseEntry[] {
  const envelope = CasesEnvelopeSchema.safeParse(document, { reportInput: true })
  if (!envelope.success) {
    throw schemaError(
      {
        ErrorClass: FixtureError,
        code: 'FILE_SCHEMA',
        file,
        basePath: [],
        hint: 'cases.json holds exactly name, task and a list of cases, each with a non-empty string id.',
      },
      envelope.error.issues,
    )
  }
  const raw = (document as { cases: unknown[] }).cases
  const seen = new Map<string, number>()
  return raw.map((value, index) => {
    const id = stringKey(value, 'id', file, ['cases', index])
    const split = (value as { split?: unknown }).split
    const earlier = seen.get(id)
    if (earlier !== undefined) {
      throw new FixtureError({
        code: 'DUPLICATE_CASE',
        file,
        path: ['cases', index, 'id'],
        summary: `the case id is already used by cases[${earlier}].`,
        found: preview(id),
        hint: 'give every case its own id: reviews are matched to cases by id.',
      })
    }
    seen.set(id, index)
    return { id, split: split === 'held_out' ? 'held_out' : 'development', value: raw[index], path: ['cases', index] }
  })
}

function readReviews(
  document: unknown,
  file: string,
  cases: readonly CaseEntry[],
): { origin: string; reviews: Map<string, ReviewEntry> } {
  const envelope = AnnotationsEnvelopeSchema.safeParse(document, { reportInput: true })
  if (!envelope.success) {
    throw schemaError(
      {
        ErrorClass: FixtureError,
        code: 'FILE_SCHEMA',
        file,
        basePath: [],
        hint: 'annotations.json holds exactly origin and a list of reviews, each with the answer_id of its case.',
      },
      envelope.error.issues,
    )
  }
  const ids = new Set(cases.map((entry) => entry.id))
  const raw = (document as { reviews: unknown[] }).reviews
  const reviews = new Map<string, ReviewEntry>()
  raw.forEach((value, index) => {
    const answerId = stringKey(value, 'answer_id', file, ['reviews', index])
    if (!ids.has(answerId)) {
      throw new FixtureError({
        code: 'UNKNOWN_REVIEW',
        file,
        path: ['reviews', index, 'answer_id'],
        summary: 'the review names a case that cases.json does not hold.',
        expected: `one of the case ids: ${listSome([...ids])}`,
        found: JSON.stringify(answerId),
        hint: 'correct the answer_id, or remove the review if its case was withdrawn.',
      })
    }
    const earlier = reviews.get(answerId)
    if (earlier !== undefined) {
      throw new FixtureError({
        code: 'DUPLICATE_REVIEW',
        file,
        path: ['reviews', index, 'answer_id'],
        summary: `case "${answerId}" already has a review at reviews[${String(earlier.path[1])}]: which one applies would be a guess.`,
        found: JSON.stringify(answerId),
        hint: 'keep one review per case: resolve the disagreement and merge the judgements into one review.',
      })
    }
    reviews.set(answerId, { answerId, value: raw[index], path: ['reviews', index] })
  })
  return { origin: envelope.data.origin, reviews }
}

/** The non-empty string under `key` of an entry that must be an object. */
function stringKey(value: unknown, key: string, file: string, path: (string | number)[]): string {
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value)
  const found = isObject && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined
  if (typeof found === 'string' && found !== '') return found
  throw new FixtureError({
    code: 'FILE_SCHEMA',
    file,
    path: isObject ? [...path, key] : path,
    summary: !isObject ? 'the entry is not an object.' : found === undefined ? `the entry has no ${key}.` : `the entry's ${key} is not a non-empty string.`,
    expected: isObject ? 'a non-empty string' : `an object with a non-empty string ${key}`,
    found: isObject && found === undefined ? 'nothing (the key is missing)' : describeValue(isObject ? found : value),
    hint: `give every entry a non-empty string ${key}: entries are matched by it.`,
  })
}

/** The first few items of a long list, quoted. */
function listSome(items: readonly string[], max = 10): string {
  const shown = items.slice(0, max).map((item) => JSON.stringify(item)).join(', ')
  return items.length > max ? `${shown} … (${items.length} in all)` : shown
}
