import { duplicateIdDetails, FixtureError, preview } from '../../common/errors.js'
import { sha256Hex } from '../../json/canonical-json.js'
import { convertedRevisions } from '../../json/line-endings.js'
import { isIntegerLiteral, numberAsWritten, requireWellFormedRubric } from '../../json/literals.js'
import { decodeText, parseJsonText, type RawFile } from '../../json/read.js'
import { checkFileDocument } from '../../json/schema-error.js'
import type { KindContext } from '../../contract/kind.js'
import { RubricSchema, type Criterion, type Rubric } from './schemas.js'

/** A criteria fixture's rubric, validated, with the source its criteria quote. */
export interface CriteriaRubric {
  /** `rubric.json` as parsed. */
  readonly document: Rubric
  /** Criteria by id, in the rubric's order. */
  readonly criteria: ReadonlyMap<string, Criterion>
  /** `source.txt`, decoded. */
  readonly source: string
}

/** A rubric bound to the bytes of its files: what a case or an answer is decided under. */
export type BoundRubric = KindContext<CriteriaRubric>

/** The contents of a rubric or source file: its bytes as read from disk, or a string (taken as UTF-8). */
export type FileContents = string | Uint8Array

/** How {@link bindRubricContents} names the files in messages unless told otherwise. */
export interface RubricFileNames {
  readonly rubric: string
  readonly source: string
  readonly cases: string
  readonly annotations: string
}

const DEFAULT_NAMES: RubricFileNames = { rubric: 'rubric.json', source: 'source.txt', cases: 'cases.json', annotations: 'annotations.json' }

/**
 * Binds a rubric and its source held in memory. The revision hashes are the SHA-256 of the bytes:
 * pass a file's bytes (a `Buffer`) to hash exactly what is on disk; a string is hashed as UTF-8,
 * so a byte-order mark or other line endings give another revision.
 */
export function bindRubricContents(rubric: FileContents, source: FileContents, names: Partial<RubricFileNames> = {}): BoundRubric {
  const shown = { ...DEFAULT_NAMES, ...names }
  const bytes = (contents: FileContents) => (typeof contents === 'string' ? new TextEncoder().encode(contents) : contents)
  const rubricFile = { display: shown.rubric, bytes: bytes(rubric) }
  const sourceFile = { display: shown.source, bytes: bytes(source) }
  const file = (name: string, display: string, sha256: string) => ({ name, display, sha256 })
  return {
    rubric: bindCriteriaRubric({ rubric: rubricFile, source: sourceFile }),
    dir: '.',
    files: {
      rubric: file('rubric.json', shown.rubric, sha256Hex(rubricFile.bytes)),
      source: file('source.txt', shown.source, sha256Hex(sourceFile.bytes)),
      cases: file('cases.json', shown.cases, ''),
      annotations: file('annotations.json', shown.annotations, ''),
    },
    conversions: { rubric: convertedRevisions(rubricFile.bytes), source: convertedRevisions(sourceFile.bytes) },
  }
}

/**
 * Reads a rubric and its source from their raw bytes and checks the rubric contract: the schema
 * (with an integer `version` as written in the file), well-formed text, the three ratings, unique
 * criterion ids, and that every reference quote occurs in the source. Any failure refuses the
 * whole fixture.
 */
export function bindCriteriaRubric(files: { readonly rubric: RawFile; readonly source?: RawFile }): CriteriaRubric {
  const { rubric: rubricFile, source: sourceFile } = files
  if (sourceFile === undefined) throw new Error('a criteria rubric is bound with its source')
  const source = decodeText(sourceFile)
  const { text, value } = parseJsonText(rubricFile)
  const parsed = checkFileDocument(RubricSchema, value, { file: rubricFile.display, code: 'RUBRIC_INVALID', hint: RUBRIC_HINT })
  const written = numberAsWritten(text, ['version'])
  if (written !== undefined && !isIntegerLiteral(written)) {
    throw new FixtureError({
      code: 'RUBRIC_INVALID',
      file: rubricFile.display,
      path: ['version'],
      summary: 'the version is written as a decimal number, and the format asks for an integer.',
      expected: `an integer ≥ 1, written without a fraction or exponent (${String(parsed.version)})`,
      found: written,
      hint: 'write the version as digits only: the reference reads 1.0 as a float and refuses it.',
    })
  }
  requireWellFormedRubric(value, rubricFile.display)
  const rubric = parsed
  const criteria = new Map<string, Criterion>()
  rubric.criteria.forEach((criterion, index) => {
    if (criterion.id === '__proto__') {
      throw new FixtureError({
        code: 'RUBRIC_INVALID',
        file: rubricFile.display,
        path: ['criteria', index, 'id'],
        summary:
          'the criterion id "__proto__" cannot key a judgement: JSON tools (zod among them) drop that key from the objects they read, so a review could never judge it.',
        expected: 'any other non-empty string',
        found: '"__proto__"',
        hint: 'rename the criterion, and its judgements in annotations.json.',
      })
    }
    const earlier = rubric.criteria.findIndex((other) => other.id === criterion.id)
    if (earlier !== index) {
      const hint = 'give every criterion its own id: reviews refer to criteria by id.'
      const where = { file: rubricFile.display, path: ['criteria', index, 'id'], earlier: `criteria[${earlier}]` }
      throw new FixtureError(duplicateIdDetails({ code: 'DUPLICATE_CRITERION', ...where, what: 'criterion', id: criterion.id, hint }))
    }
    if (!source.includes(criterion.reference_quote)) {
      throw new FixtureError({
        code: 'RUBRIC_QUOTE_NOT_IN_SOURCE',
        file: rubricFile.display,
        path: ['criteria', index, 'reference_quote'],
        summary: `the reference quote does not occur in ${sourceFile.display}.`,
        expected: `an exact excerpt of ${sourceFile.display}`,
        found: preview(criterion.reference_quote),
        hint: `copy the sentence from ${sourceFile.display} exactly (whitespace and punctuation included), or revise the criterion.`,
      })
    }
    criteria.set(criterion.id, criterion)
  })
  return { document: rubric, criteria, source }
}

const RUBRIC_HINT =
  'a rubric holds exactly id, version (an integer ≥ 1), task, acceptance, ratings and a non-empty list of criteria, each with a non-empty id, rule and reference_quote.'
