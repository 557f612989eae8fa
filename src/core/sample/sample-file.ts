/**
 * `sample.json`: which cases were drawn for human review, by what design and with what inclusion
 * probabilities, so that an estimate can weigh each reviewed case by the design (docs/format.md#the-review-sample).
 */
import { readRegularFile } from '../json/regular-file.js'
import { join } from 'node:path'
import { FixtureError } from '../common/errors.js'
import { errnoCode } from '../common/primitives.js'
import { sha256Hex } from '../json/canonical-json.js'
import { nodeWriteIo, type WriteIo } from '../json/atomic-write.js'
import { writeProjectFiles } from '../json/project-write.js'
import { confineToProject, parseJsonFile, projectBoundary } from '../json/read.js'
import { schemaError } from '../json/schema-error.js'
import { checkSample, SAMPLE_FIX, type SampleCheckCase } from './sample-check.js'
import { SAMPLE_FILE, SampleFileSchema, type SampleFile } from './sample-format.js'
export {
  SAMPLE_FILE,
  SAMPLE_FORMAT,
  SAMPLE_METHODS,
  SAMPLE_STRATA,
  SampleDrawSchema,
  SampledCaseSchema,
  SampleFileSchema,
  type SampleDraw,
  type SampledCase,
  type SampleFile,
  type SampleMethod,
  type SampleStrata,
} from './sample-format.js'

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

/** What a read checks the sample against besides itself. */
export interface ReadSampleOptions {
  /**
   * The fixture's cases now: when they are the cases of the last draw (its `population_sha256`),
   * the draws' counts, each sampled case's split and an active design's probabilities are checked
   * against them too.
   */
  readonly cases?: readonly SampleCheckCase[] | undefined
}

/** The bytes of the sample file, `undefined` when there is none; refused when it is a link leading outside the project or cannot be read. */
async function readSampleBytes(place: SamplePlace): Promise<Uint8Array | undefined> {
  const { path, display } = samplePath(place)
  await confineToProject(path, display, projectBoundary(place.root, place.dir))
  try {
    return await readRegularFile(path)
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined
    throw new FixtureError({
      code: 'FILE_UNREADABLE',
      file: display,
      summary: `the sample cannot be read (${errnoCode(error) ?? String(error)}).`,
      hint: 'check the file permissions and that the path is a regular file.',
    })
  }
}

/**
 * Reads and validates a fixture's sample file. A file that is not JSON, does not have the sample
 * format or contradicts its own draws (a case drawn twice, a draw that does not exist, a count or an
 * inclusion probability other than the draws give; with `options.cases`, a split or count other than
 * the fixture's) is a `SAMPLE_INVALID` {@link FixtureError} naming the JSON path
 * ({@link checkSample}); one that is a link leading outside the project is refused.
 */
export async function readSampleFile(place: SamplePlace, options: ReadSampleOptions = {}): Promise<ReadSample> {
  const { display } = samplePath(place)
  const bytes = await readSampleBytes(place)
  if (bytes === undefined) return { sample: undefined, sha256: null }
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
      hint: SAMPLE_FIX,
    })
  }
  const parsed = SampleFileSchema.safeParse(document, { reportInput: true })
  if (!parsed.success)
    throw schemaError({ ErrorClass: FixtureError, code: 'SAMPLE_INVALID', file: display, basePath: [], hint: SAMPLE_FIX }, parsed.error.issues)
  checkSample(parsed.data, display, options.cases)
  return { sample: parsed.data, sha256: sha256Hex(bytes) }
}

/**
 * The SHA-256 of the sample file's bytes (`null` when there is none), unchecked: what a new sample
 * (`sample --new`) replaces, which may be a file refused as invalid.
 */
export async function sampleFileSha256(place: SamplePlace): Promise<string | null> {
  const bytes = await readSampleBytes(place)
  return bytes === undefined ? null : sha256Hex(bytes)
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
