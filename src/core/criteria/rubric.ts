import { sha256Hex } from '../canonical-json.js'
import { FixtureError, preview } from '../errors.js'
import { convertedRevisions, type ConvertedRevisions } from '../line-endings.js'
import { decodeText, parseJsonFile, type RawFile } from '../read.js'
import { schemaError } from '../schema-error.js'
import { RubricSchema, type Criterion, type Rubric } from './schemas.js'

/** How a fixture's files are named in messages. */
export interface FixtureFileNames {
  readonly rubric: string
  readonly source: string
  readonly cases: string
  readonly annotations: string
}

/** A validated rubric with its source, bound to the revisions (SHA-256 of raw bytes) they came from. */
export interface BoundRubric {
  readonly rubric: Rubric
  /** Criteria by id, in the rubric's order. */
  readonly criteria: ReadonlyMap<string, Criterion>
  readonly source: string
  readonly rubricSha256: string
  readonly sourceSha256: string
  readonly files: FixtureFileNames
  /** What each file would hash to with converted line endings, to explain a stale binding. */
  readonly conversions?: { readonly rubric: ConvertedRevisions; readonly source: ConvertedRevisions }
}

/** The contents of a rubric or source file: its bytes as read from disk, or a string (taken as UTF-8). */
export type FileContents = string | Uint8Array

/** The names {@link bindRubricContents} gives files in messages unless told otherwise. */
export const DEFAULT_FILE_NAMES: FixtureFileNames = {
  rubric: 'rubric.json',
  source: 'source.txt',
  cases: 'cases.json',
  annotations: 'annotations.json',
}

/**
 * {@link bindRubric} for contents already in memory. The revision hashes are the SHA-256 of the
 * bytes: pass a file's bytes (a `Buffer`) to hash exactly what is on disk; a string is hashed as
 * UTF-8, so a byte-order mark or other line endings give another revision.
 */
export function bindRubricContents(
  rubric: FileContents,
  source: FileContents,
  names: Partial<FixtureFileNames> = {},
): BoundRubric {
  const files = { ...DEFAULT_FILE_NAMES, ...names }
  const bytes = (contents: FileContents) => (typeof contents === 'string' ? new TextEncoder().encode(contents) : contents)
  return bindRubric({ display: files.rubric, bytes: bytes(rubric) }, { display: files.source, bytes: bytes(source) }, files)
}

/**
 * Reads a rubric and its source from their raw bytes and checks the rubric contract: the schema,
 * the three ratings, unique criterion ids, and that every reference quote occurs in the source.
 * Any failure refuses the whole fixture.
 */
export function bindRubric(rubricFile: RawFile, sourceFile: RawFile, files: FixtureFileNames): BoundRubric {
  const source = decodeText(sourceFile)
  const parsed = RubricSchema.safeParse(parseJsonFile(rubricFile), { reportInput: true })
  if (!parsed.success) {
    throw schemaError(
      {
        ErrorClass: FixtureError,
        code: 'RUBRIC_INVALID',
        file: files.rubric,
        basePath: [],
        hint: 'a rubric holds exactly id, version (an integer ≥ 1), task, acceptance, ratings and a non-empty list of criteria, each with a non-empty id, rule and reference_quote.',
      },
      parsed.error.issues,
    )
  }
  const rubric = parsed.data
  const criteria = new Map<string, Criterion>()
  rubric.criteria.forEach((criterion, index) => {
    if (criterion.id === '__proto__') {
      throw new FixtureError({
        code: 'RUBRIC_INVALID',
        file: files.rubric,
        path: ['criteria', index, 'id'],
        summary: 'the criterion id "__proto__" cannot key a judgement: JSON tools (zod among them) drop that key from the objects they read, so a review could never judge it.',
        expected: 'any other non-empty string',
        found: '"__proto__"',
        hint: 'rename the criterion, and its judgements in annotations.json.',
      })
    }
    const earlier = rubric.criteria.findIndex((other) => other.id === criterion.id)
    if (earlier !== index) {
      throw new FixtureError({
        code: 'DUPLICATE_CRITERION',
        file: files.rubric,
        path: ['criteria', index, 'id'],
        summary: `the criterion id is already used by criteria[${earlier}].`,
        found: preview(criterion.id),
        hint: 'give every criterion its own id: reviews refer to criteria by id.',
      })
    }
    if (!source.includes(criterion.reference_quote)) {
      throw new FixtureError({
        code: 'RUBRIC_QUOTE_NOT_IN_SOURCE',
        file: files.rubric,
        path: ['criteria', index, 'reference_quote'],
        summary: `the reference quote does not occur in ${files.source}.`,
        expected: `an exact excerpt of ${files.source}`,
        found: preview(criterion.reference_quote),
        hint: `copy the sentence from ${files.source} exactly (whitespace and punctuation included), or revise the criterion.`,
      })
    }
    criteria.set(criterion.id, criterion)
  })
  return {
    rubric,
    criteria,
    source,
    rubricSha256: sha256Hex(rubricFile.bytes),
    sourceSha256: sha256Hex(sourceFile.bytes),
    files,
    conversions: { rubric: convertedRevisions(rubricFile.bytes), source: convertedRevisions(sourceFile.bytes) },
  }
}
