/**
 * `sample.json`: which cases were drawn for human review, by what design and with what inclusion
 * probabilities, so that an estimate can weigh each reviewed case by the design (docs/format.md#the-review-sample).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { FixtureError } from '../common/errors.js'
import { errnoCode, Sha256Schema, SplitSchema } from '../common/primitives.js'
import { sha256Hex } from '../json/canonical-json.js'
import { nodeWriteIo, type WriteIo } from '../json/atomic-write.js'
import { writeProjectFiles } from '../json/project-write.js'
import { confineToProject, parseJsonFile, projectBoundary } from '../json/read.js'
import { schemaError } from '../json/schema-error.js'

/** The file's name in the fixture directory, in either layout. */
export const SAMPLE_FILE = 'sample.json'
/** The `format` member that marks a sample file. */
export const SAMPLE_FORMAT = 'vitest-rubric/sample'

/** How a draw chose its cases. */
export const SAMPLE_METHODS = ['uniform', 'stratified', 'active'] as const
/** How a draw chose its cases: uniformly, within strata, or each case on its own with a probability from the judge's uncertainty (active). */
export type SampleMethod = (typeof SAMPLE_METHODS)[number]

/** What a stratified design's strata are: the splits, or within each split the judge's decision or the criterion it is least sure of. */
export const SAMPLE_STRATA = ['split', 'decision', 'criterion'] as const
export type SampleStrata = (typeof SAMPLE_STRATA)[number]

const Count = z.number().int().min(0)

/** One run of `vitest-rubric sample`: the first draw, or an extension of the sample. */
export const SampleDrawSchema = z.strictObject({
  seed: z.string().describe('The seed the draw was made from, as given.'),
  method: z
    .enum(SAMPLE_METHODS)
    .describe(
      '"uniform": a simple random sample without replacement; "stratified": within strata (see strata), proportional allocation; "active": each case on its own, with a probability from the judge\'s uncertainty.',
    ),
  size: z.number().int().min(0).describe('How many cases this draw added: 1 or more, or 0 for a further phase of an active design that drew none.'),
  drawn_at: z.string().describe('When the draw was made (ISO 8601).'),
  population: Count.describe('N: the cases of the fixture at the draw.'),
  splits: z.partialRecord(SplitSchema, Count).describe('N_h: the cases of each split at the draw; the strata of a stratified draw.'),
  population_sha256: Sha256Schema.describe("Fingerprint of the cases' ids and splits at the draw: what an extension must find unchanged."),
  case_set_sha256: Sha256Schema.nullable().describe('The evaluation identity caseSetSha256 of the fixture at the draw.'),
  strata: z
    .enum(SAMPLE_STRATA)
    .optional()
    .describe('A stratified draw\'s strata: "split" (also when left out), or "decision" or "criterion" of the judge within each split.'),
  merged_strata: z
    .record(z.string().min(1), z.string().min(1))
    .optional()
    .describe("A draw stratified by the judge: each stratum of fewer than 2 cases, and the stratum of its split it was merged into (the cases' stratum)."),
  judge: z.string().min(1).optional().describe('The judge whose labels the design was drawn by (active, or strata by decision or criterion).'),
  floor: z.number().gt(0).lte(1).optional().describe("An active draw's floor τ: the share of the expected size spread evenly over every case."),
  expected_size: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("An active draw's expected size: how many cases it adds in expectation (the first, the sum of its inclusion probabilities)."),
  inclusion_probabilities: z
    .array(z.number().gt(0, { error: 'an inclusion probability in (0, 1]' }).lte(1, { error: 'an inclusion probability in (0, 1]' }))
    .optional()
    .describe(
      "An active draw: every case's inclusion probability under the draws up to this one, in the code-point order of the case ids (the order population_sha256 fingerprints); what an extension starts from.",
    ),
  like: z
    .strictObject({ file: z.string().min(1), sha256: Sha256Schema })
    .optional()
    .describe('The sample this one copies the design of (`sample --like`): its file as shown and the SHA-256 of its bytes at the copy.'),
})
export type SampleDraw = z.infer<typeof SampleDrawSchema>

/** One case drawn for review. */
export const SampledCaseSchema = z.strictObject({
  id: z.string().min(1),
  draw: Count.describe('The index in `draws` of the draw that drew it.'),
  probability: z
    .number()
    .gt(0, { error: 'an inclusion probability in (0, 1]' })
    .lte(1, { error: 'an inclusion probability in (0, 1]' })
    .describe('Its inclusion probability under the design of every draw so far.'),
  stratum: z
    .string()
    .nullable()
    .describe(
      'The stratum it was drawn from for a stratified design (its split, or <split>/<decision or criterion> by the judge); null for a uniform or active one.',
    ),
  split: SplitSchema,
  answer_sha256: Sha256Schema.nullable().describe('The fingerprint of its answer at the draw, as reviews bind it; null when it had none.'),
  least_sure: z
    .strictObject({
      criterion: z.string().nullable(),
      confidence: z.number().min(0).max(1).nullable(),
    })
    .optional()
    .describe(
      "For a design drawn by the judge's confidence: the criterion it was least sure of at the draw (null: no current label) and its confidence (null: none given, or the rating uncertain).",
    ),
})
export type SampledCase = z.infer<typeof SampledCaseSchema>

export const SampleFileSchema = z.strictObject({
  format: z.literal(SAMPLE_FORMAT),
  version: z.literal(1),
  draws: z.array(SampleDrawSchema).min(1),
  cases: z.array(SampledCaseSchema),
})
/** The contents of `sample.json`. */
export type SampleFile = z.infer<typeof SampleFileSchema>

/** Where a fixture's sample file is, and how messages show it. */
export interface SamplePlace {
  /** Absolute path of the fixture directory. */
  readonly dir: string
  /** The directory as shown. */
  readonly displayDir: string
  /** The project root: the file's real path must lie inside it (or inside the fixture directory). */
  readonly root: string
}

function samplePath(place: SamplePlace): { path: string; display: string } {
  return { path: join(place.dir, SAMPLE_FILE), display: `${place.displayDir}/${SAMPLE_FILE}` }
}

/** What a read found: the sample (`undefined` when there is none) and the SHA-256 of its bytes, for a write based on it. */
export interface ReadSample {
  readonly sample: SampleFile | undefined
  readonly sha256: string | null
}

const FIX = `restore ${SAMPLE_FILE} from version control, or draw a new sample with \`vitest-rubric sample <dir> --size <n> --seed <s> --new\`.`

/**
 * Reads and validates a fixture's sample file. A file that is not JSON, does not have the sample
 * format or contradicts itself (a case drawn twice, a draw that does not exist) is a `SAMPLE_INVALID`
 * {@link FixtureError} naming the JSON path; one that is a link leading outside the project is refused.
 */
export async function readSampleFile(place: SamplePlace): Promise<ReadSample> {
  const { path, display } = samplePath(place)
  await confineToProject(path, display, projectBoundary(place.root, place.dir))
  let bytes: Uint8Array
  try {
    bytes = await readFile(path)
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { sample: undefined, sha256: null }
    throw new FixtureError({
      code: 'FILE_UNREADABLE',
      file: display,
      summary: `the sample cannot be read (${errnoCode(error) ?? String(error)}).`,
      hint: 'check the file permissions and that the path is a regular file.',
    })
  }
  let document: unknown
  try {
    document = parseJsonFile({ display, bytes })
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error
    throw new FixtureError({
      code: 'SAMPLE_INVALID',
      file: error.file,
      path: error.path,
      summary: error.summary,
      expected: error.expected,
      found: error.found,
      hint: FIX,
    })
  }
  const parsed = SampleFileSchema.safeParse(document, { reportInput: true })
  if (!parsed.success) throw schemaError({ ErrorClass: FixtureError, code: 'SAMPLE_INVALID', file: display, basePath: [], hint: FIX }, parsed.error.issues)
  checkConsistent(parsed.data, display)
  return { sample: parsed.data, sha256: sha256Hex(bytes) }
}

function checkConsistent(sample: SampleFile, file: string): void {
  const method = sample.draws[0]!.method
  const fail = (path: (string | number)[], summary: string, expected: string): never => {
    throw new FixtureError({ code: 'SAMPLE_INVALID', file, path, summary, expected, hint: FIX })
  }
  const strata = sample.draws[0]!.strata ?? 'split'
  for (const [index, draw] of sample.draws.entries()) {
    if (draw.method !== method)
      fail(['draws', index, 'method'], `the draw is ${draw.method} where the first is ${method}.`, `"${method}": a sample has one design`)
    if ((draw.strata ?? 'split') !== strata)
      fail(
        ['draws', index, 'strata'],
        `the draw is stratified by ${draw.strata ?? 'split'} where the first is by ${strata}.`,
        `"${strata}": a sample has one design`,
      )
    if (draw.size === 0 && (method !== 'active' || index === 0))
      fail(['draws', index, 'size'], 'the draw added no case.', 'a size of 1 or more (0 only for a further phase of an active design)')
    if (draw.inclusion_probabilities !== undefined && draw.inclusion_probabilities.length !== draw.population)
      fail(
        ['draws', index, 'inclusion_probabilities'],
        `${draw.inclusion_probabilities.length} probabilities for a population of ${draw.population} cases.`,
        'one probability for every case of the population, in the order of the case ids',
      )
  }
  const seen = new Map<string, number>()
  for (const [index, drawn] of sample.cases.entries()) {
    const earlier = seen.get(drawn.id)
    if (earlier !== undefined) fail(['cases', index, 'id'], `the case "${drawn.id}" is drawn twice (also cases[${earlier}]).`, 'each case at most once')
    seen.set(drawn.id, index)
    if (drawn.draw >= sample.draws.length)
      fail(['cases', index, 'draw'], `draw ${drawn.draw} does not exist.`, `an index of draws, below ${sample.draws.length}`)
    if ((drawn.stratum === null) !== (method !== 'stratified')) {
      fail(
        ['cases', index, 'stratum'],
        `the stratum does not fit the ${method} design.`,
        method !== 'stratified' ? 'null' : 'the stratum the case was drawn from',
      )
    }
  }
}

/** The file as written: two-space JSON with a final line break, as every fixture file is. */
export function sampleText(sample: SampleFile): string {
  return `${JSON.stringify(sample, null, 2)}\n`
}

/**
 * Writes the sample file atomically under the fixture's lock, refusing a file changed since it was
 * read (`basedOn`, the SHA-256 of what was read; `null`: it must not exist) and a real path outside the project.
 */
export async function writeSampleFile(place: SamplePlace, sample: SampleFile, basedOn: string | null, io: WriteIo = nodeWriteIo): Promise<string> {
  const { path, display } = samplePath(place)
  await writeProjectFiles([{ path, display, contents: sampleText(sample), basedOn }], {
    boundary: projectBoundary(place.root, place.dir),
    lockDir: place.dir,
    display: place.displayDir,
    cwd: place.root,
    io,
  })
  return display
}
