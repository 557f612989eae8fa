import { join } from 'node:path'
import { sha256Hex } from '../canonical-json.js'
import type { Split } from '../criteria/schemas.js'
import { FixtureError, preview } from '../errors.js'
import { fingerprintAt } from '../json-at.js'
import { parseJsonFile, readFixtureFile, type FixtureFileReader } from '../read.js'
import { schemaError } from '../schema-error.js'
import type { Located, ScoredFileNames } from './bindings.js'
import { bindEvaluationRubric, type BoundEvaluationRubric } from './rubric.js'
import { ScoredAnnotationsEnvelopeSchema, ScoredCasesEnvelopeSchema, type System } from './schemas.js'

/** The three files of a scored fixture directory; `evaluation_rubric.json` marks the kind. */
export const SCORED_FILES = ['evaluation_rubric.json', 'cases.json', 'annotations.json'] as const
export type ScoredFileName = (typeof SCORED_FILES)[number]

/** A case entry of `cases.json`, checked as a whole only when it is assessed. */
export interface ScoredCaseEntry extends Located {
  readonly id: string
}

/** The reviews of one case, by system, where they stand in `annotations.json`. */
export type ReviewsBySystem = Readonly<Partial<Record<System, Located>>>

/** Everything a scored fixture directory holds, with the revisions of its files. */
export interface ScoredFixture {
  readonly kind: 'scored'
  /** Absolute path of the directory. */
  readonly dir: string
  /** The directory as shown in messages. */
  readonly displayDir: string
  /** `cases.json › name`. */
  readonly name: string
  /** `cases.json › split`: the split of the whole benchmark (default `development`). */
  readonly split: Split
  readonly rubric: BoundEvaluationRubric
  readonly cases: readonly ScoredCaseEntry[]
  /** Reviews by case id and system. */
  readonly reviews: ReadonlyMap<string, ReviewsBySystem>
  /** `annotations.json › origin`: who or what produced the judgements. */
  readonly origin: string
  readonly fileNames: ScoredFileNames
  /** SHA-256 of the raw bytes of each file. */
  readonly files: Readonly<Record<ScoredFileName, string>>
  /** Fingerprint of the `cases.json` document less its `$schema`: the identity of the full case set. */
  readonly caseSetSha256: string
}

/**
 * Reads and checks a scored fixture directory. Fixture-level defects (an unreadable or malformed
 * file, an invalid rubric, an unknown dimension, a duplicate case id, a review of an unknown case or
 * a second review of one case by one system) throw a {@link FixtureError}; everything about a single
 * case is left to assessment.
 */
export async function loadScoredFixture(dir: string, displayDir: string, read: FixtureFileReader = readFixtureFile): Promise<ScoredFixture> {
  const fileNames: ScoredFileNames = {
    rubric: join(displayDir, 'evaluation_rubric.json'),
    cases: join(displayDir, 'cases.json'),
    annotations: join(displayDir, 'annotations.json'),
  }
  const [rubricFile, casesFile, annotationsFile] = await Promise.all([
    read(join(dir, 'evaluation_rubric.json'), fileNames.rubric),
    read(join(dir, 'cases.json'), fileNames.cases),
    read(join(dir, 'annotations.json'), fileNames.annotations),
  ])
  const rubric = bindEvaluationRubric(rubricFile)
  const casesDocument = parseJsonFile(casesFile)
  const { name, split, cases } = readCases(casesDocument, fileNames.cases)
  const { origin, reviews } = readReviews(parseJsonFile(annotationsFile), fileNames, cases)
  return {
    kind: 'scored',
    dir,
    displayDir,
    name,
    split,
    rubric,
    cases,
    reviews,
    origin,
    fileNames,
    files: {
      'evaluation_rubric.json': rubric.sha256,
      'cases.json': sha256Hex(casesFile.bytes),
      'annotations.json': sha256Hex(annotationsFile.bytes),
    },
    caseSetSha256: fingerprintAt(withoutSchemaReference(casesDocument), { file: fileNames.cases, path: [], ErrorClass: FixtureError }),
  }
}

/** `$schema` only points editors to a JSON Schema: the case set is the same with or without it. */
function withoutSchemaReference(document: unknown): unknown {
  const { $schema: _, ...rest } = document as Record<string, unknown>
  return rest
}

function readCases(document: unknown, file: string): { name: string; split: Split; cases: ScoredCaseEntry[] } {
  const envelope = ScoredCasesEnvelopeSchema.safeParse(document, { reportInput: true })
  if (!envelope.success) {
    throw schemaError(
      {
        ErrorClass: FixtureError,
        code: 'FILE_SCHEMA',
        file,
        basePath: [],
        hint: 'cases.json holds exactly name, an optional split ("development" or "held_out") and a list of cases, each with a non-empty string id.',
      },
      envelope.error.issues,
    )
  }
  const raw = (document as { cases: unknown[] }).cases
  const seen = new Map<string, number>()
  const cases = envelope.data.cases.map(({ id }, index): ScoredCaseEntry => {
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
    return { id, value: raw[index], path: ['cases', index] }
  })
  return { name: envelope.data.name, split: envelope.data.split ?? 'development', cases }
}

function readReviews(
  document: unknown,
  files: ScoredFileNames,
  cases: readonly ScoredCaseEntry[],
): { origin: string; reviews: Map<string, ReviewsBySystem> } {
  const file = files.annotations
  const envelope = ScoredAnnotationsEnvelopeSchema.safeParse(document, { reportInput: true })
  if (!envelope.success) {
    throw schemaError(
      {
        ErrorClass: FixtureError,
        code: 'FILE_SCHEMA',
        file,
        basePath: [],
        hint: 'annotations.json holds exactly origin and a list of reviews, each with the case_id of its case and its system ("debate" or "baseline").',
      },
      envelope.error.issues,
    )
  }
  const ids = new Set(cases.map((entry) => entry.id))
  const raw = (document as { reviews: unknown[] }).reviews
  const reviews = new Map<string, Partial<Record<System, Located>>>()
  envelope.data.reviews.forEach(({ case_id: caseId, system }, index) => {
    if (!ids.has(caseId)) {
      throw new FixtureError({
        code: 'UNKNOWN_REVIEW',
        file,
        path: ['reviews', index, 'case_id'],
        summary: `the review names a case that ${files.cases} does not hold.`,
        expected: `one of ${[...ids].map((id) => JSON.stringify(id)).join(', ')}`,
        found: JSON.stringify(caseId),
        hint: 'correct the case_id, or remove the review if its case was withdrawn.',
      })
    }
    const bySystem = reviews.get(caseId) ?? {}
    const earlier = bySystem[system]
    if (earlier !== undefined) {
      throw new FixtureError({
        code: 'DUPLICATE_REVIEW',
        file,
        path: ['reviews', index, 'case_id'],
        summary: `case "${caseId}" already has a ${system} review at reviews[${String(earlier.path[1])}]: which one applies would be a guess.`,
        found: JSON.stringify(caseId),
        hint: 'keep one review per case and system: resolve the disagreement and merge the judgements into one review.',
      })
    }
    bySystem[system] = { value: raw[index], path: ['reviews', index] }
    reviews.set(caseId, bySystem)
  })
  return { origin: envelope.data.origin, reviews }
}
