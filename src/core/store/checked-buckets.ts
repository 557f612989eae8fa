import { dirname, join } from 'node:path'
import { RubricError } from '../common/errors.js'
import { displayPath } from '../common/display-path.js'
import { isObject } from '../common/primitives.js'
import { sha256Hex } from '../json/canonical-json.js'
import { stampsOf } from '../engine/fixture-files-seen.js'
import { outputBoundary, readOutputFile, writeOutputFile } from '../json/output-file.js'
import type { FixtureFileReader } from '../json/read.js'
import { bucketLines } from './bucket-cache.js'
import { type ItemRecord, RECORDS_DIR, type Layout, type Stored } from './records.js'
import { CONFIDENCE_EXPECTED, isConfidence } from '../common/confidence.js'
import { FixtureError } from '../common/errors.js'
import { describeValue } from '../json/schema-error.js'

// A save of one case in the records layout reads that case's bucket file alone, so that its cost does
// not grow with the fixture. Every other bucket file must still be sound, or the save would write to
// a fixture that `evaluate` refuses: each is checked (parsed, every line, as a whole read parses it)
// once after it changed, and its stat stamp (size, times, inode) noted in the project's
// .vitest-rubric/checked/, so that the next save checks only the files that moved since.

// 2: a file is noted sound only once its judges' confidences are checked too.
const VERSION = 2
const IGNORE_ALL = '# notes of vitest-rubric on this machine: never committed\n*\n'

/** The bucket files of one fixture found sound, by name, with the stamp each had then. */
export class CheckedBuckets {
  readonly #stamps: Map<string, string>
  #changed = false

  private constructor(
    private readonly dir: string,
    private readonly path: string,
    private readonly cwd: string,
    stamps: Map<string, string>,
  ) {
    this.#stamps = stamps
  }

  /** The bucket files of the fixture at `dir` (absolute) noted sound, as the project at `cwd` keeps them; none when the note is missing or unreadable. */
  static async open(dir: string, cwd: string): Promise<CheckedBuckets> {
    const path = join(cwd, '.vitest-rubric', 'checked', `${sha256Hex(dir).slice(0, 32)}.json`)
    const stamps = new Map<string, string>()
    try {
      const bytes = await readOutputFile(path, { boundary: outputBoundary(cwd, path), cwd })
      const value: unknown = bytes === undefined ? undefined : JSON.parse(bytes.toString('utf8'))
      if (isObject(value) && value['version'] === VERSION && value['dir'] === dir && isObject(value['buckets']))
        for (const [name, stamp] of Object.entries(value['buckets'])) if (typeof stamp === 'string') stamps.set(name, stamp)
    } catch {
      // A note that cannot be read is no note: every bucket file is checked again.
    }
    return new CheckedBuckets(dir, path, cwd, stamps)
  }

  /**
   * Parses each bucket file of `names` whose stamp is not the one noted, refusing the fixture at the
   * first unsound line as a whole read does, and notes each found sound.
   */
  async check(display: string, names: readonly string[], layout: Layout, read: FixtureFileReader): Promise<void> {
    const paths = names.map((name) => join(this.dir, RECORDS_DIR, name))
    const before = stampsOf(paths)
    for (const [index, name] of names.entries()) {
      const stamp = before[index]
      if (stamp !== undefined && this.#stamps.get(name) === stamp) continue
      const { lines } = bucketLines(await read(paths[index]!, join(display, RECORDS_DIR, name)), name, layout, display)
      // A whole read refuses a judge's confidence outside 0 to 1 (docs/judges.md#confidence): so does a save, here as there.
      checkConfidences(display, lines)
      // Noted only if the file did not move while it was read: the bytes parsed are those of the stamp.
      if (stamp !== undefined && stampsOf([paths[index]!])[0] === stamp) {
        this.#stamps.set(name, stamp)
        this.#changed = true
      }
    }
  }

  /** Writes the note, when it changed. A note that cannot be written (a read-only folder) costs the next save a check, nothing more. */
  async save(): Promise<void> {
    if (!this.#changed) return
    const contents = `${JSON.stringify({ version: VERSION, dir: this.dir, buckets: Object.fromEntries(this.#stamps) })}\n`
    try {
      // A note of this machine's stat stamps, never to be committed (a `git add -A` would, and branches would conflict on it).
      const ignore = join(dirname(this.path), '.gitignore')
      const place = { boundary: outputBoundary(this.cwd, ignore), cwd: this.cwd }
      if ((await readOutputFile(ignore, place)) === undefined)
        await writeOutputFile({ path: ignore, display: displayPath(this.cwd, ignore), contents: IGNORE_ALL }, place)
      await writeOutputFile(
        { path: this.path, display: displayPath(this.cwd, this.path), contents },
        { boundary: outputBoundary(this.cwd, this.path), cwd: this.cwd },
      )
      this.#changed = false
    } catch (error) {
      if (!(error instanceof RubricError)) throw error
    }
  }
}

/** Refuses a judge's record in which a judgement's `confidence` is not a number from 0 to 1, naming its line, as a whole read names the judge's document. */
function checkConfidences(display: string, lines: readonly Stored<ItemRecord>[]): void {
  for (const { record, at } of lines) {
    if (!record.doc.startsWith('judges/')) continue
    const judgements = isObject(record.item) ? record.item['judgements'] : undefined
    if (!isObject(judgements)) continue
    for (const [item, judgement] of Object.entries(judgements)) {
      if (!isObject(judgement) || !Object.hasOwn(judgement, 'confidence') || isConfidence(judgement['confidence'])) continue
      throw new FixtureError({
        code: 'FILE_SCHEMA',
        file: join(display, at),
        path: ['item', 'judgements', item, 'confidence'],
        caseId: record.case,
        summary: `the confidence in ${record.doc.slice('judges/'.length, -'.json'.length)}'s label is not a number from 0 to 1, so a draw by the judge's confidence (\`sample --method active\`) cannot use it.`,
        expected: CONFIDENCE_EXPECTED,
        found: describeValue(judgement['confidence']),
        hint: "give the judge's probability that its rating is right, from 0 to 1, or leave the confidence out (a label without one is as valid).",
      })
    }
  }
}
