import { constants, isUtf8 } from 'node:buffer'
import { lstat, readlink, realpath } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'
import { FixtureError, preview } from '../common/errors.js'
import { locateInvalidUtf8 } from './invalid-utf8.js'
import { lineAndColumn, locateJsonSyntaxError } from './json-syntax.js'
import { jsonStructureDetails, jsonStructureProblem } from './json-structure.js'
import { errnoCode, parseJson } from '../common/primitives.js'
import { sha256Hex } from './canonical-json.js'
import { NOT_REGULAR, readRegularFile } from './regular-file.js'

/**
 * The SHA-256 of a file's bytes, taken when first asked and kept: the reader's own when it took one.
 * Every case binds the rubric's and the source's hash, so a hash taken on each ask is one per case.
 */
export function hashOnce(file: RawFile): () => string {
  // A hash the reader took already is kept, not the file: holding the file would hold its bytes (hundreds of megabytes
  // at 100,000 cases) as long as the fixture. Otherwise not read before it is asked: a document the records make takes
  // its hash in a getter of its own.
  const given = Object.getOwnPropertyDescriptor(file, 'sha256')?.value
  if (typeof given === 'string') return () => given
  let sha256: string | undefined
  let unhashed: RawFile | undefined = file
  return () => {
    if (sha256 === undefined) {
      sha256 = unhashed!.sha256 ?? sha256Hex(unhashed!.bytes)
      unhashed = undefined
    }
    return sha256
  }
}

/** A fixture file's raw bytes, read once: hashes are taken from exactly these bytes. */
export interface RawFile {
  /** The file as shown in messages, relative to the working directory. */
  readonly display: string
  readonly bytes: Uint8Array
  /** The SHA-256 of `bytes`, when the reader took it already (the plugin hashes every file for its cache key). */
  readonly sha256?: string
  /** The length and SHA-256 of the bytes this file held when it was read before, when these bytes begin with them (a file appended to). */
  readonly grownFrom?: { readonly length: number; readonly sha256: string }
  /**
   * The bytes after `grownFrom.length`, when the reader read only those (a save reading a bucket file
   * it read before): `bytes` is then read again when asked for, and refused if it is not these.
   */
  readonly tail?: Uint8Array
  /**
   * The file's JSON, when it was made from values already parsed and checked: a document the
   * records layout folds from its record lines, whose text is `bytes`. Read in place of parsing
   * `bytes` again; frozen, since the records it is made of are shared.
   */
  readonly json?: { readonly value: unknown }
  /**
   * An identity of the file's contents that costs less than its SHA-256, for a document made from
   * records: no two documents made with different contents share one (the same contents made twice
   * may have two). Caches key by it in place of the SHA-256.
   */
  readonly version?: string
}

/** How a loader reads a fixture file: from disk, or from contents already read (to check an edit before writing it). */
export type FixtureFileReader = (path: string, display: string) => Promise<RawFile>

/** Reads a file of a fixture directory, turning a filesystem failure into a {@link FixtureError}. */
export async function readFixtureFile(path: string, display: string): Promise<RawFile> {
  try {
    return { display, bytes: await readRegularFile(path) }
  } catch (cause) {
    const code = errnoCode(cause)
    if (code === NOT_REGULAR) {
      // Cast: readRegularFile's refusal carries what the path is.
      const kind = (cause as { kind: string }).kind
      throw new FixtureError({
        code: 'FILE_UNREADABLE',
        file: display,
        summary: `the path is ${kind}, not a regular file; nothing was read from it.`,
        expected: 'a regular file',
        found: kind,
        hint: 'put the file itself there: a fixture file is read whole, and a pipe or a device would be waited on or never end.',
      })
    }
    if (code === 'EISDIR') {
      throw new FixtureError({
        code: 'FILE_UNREADABLE',
        file: display,
        summary: 'the path is a directory, not a file.',
        expected: 'a regular file',
        found: 'a directory',
        hint: 'put the file itself there: a fixture directory holds its files directly, not in subdirectories.',
      })
    }
    const target = code === 'ENOENT' ? await danglingTarget(path) : undefined
    if (target !== undefined) {
      throw new FixtureError({
        code: 'FILE_UNREADABLE',
        file: display,
        summary: `the file is a symbolic link whose target does not exist (${target}).`,
        expected: 'a regular file, or a link to one',
        found: 'a link to nothing',
        hint: 'point the link at the file, or replace the link with the file itself.',
      })
    }
    throw new FixtureError({
      code: 'FILE_UNREADABLE',
      file: display,
      summary: code === 'ENOENT' ? 'the file is missing.' : `the file cannot be read (${code ?? String(cause)}).`,
      hint:
        code === 'ENOENT'
          ? 'add the file: a fixture directory needs all of its files (docs/format.md describes them).'
          : 'check the file permissions and that the path is a regular file.',
    })
  }
}

/** Where a symbolic link at `path` points, when `path` is one (a read of it found nothing there: its target is gone). */
async function danglingTarget(path: string): Promise<string | undefined> {
  try {
    return (await lstat(path)).isSymbolicLink() ? await readlink(path) : undefined
  } catch {
    return undefined
  }
}

/**
 * The folder a fixture's files must lie in, by their real paths: the project `root` (the folder a
 * command runs in, Vitest's root, the served root), or the fixture directory itself when it was
 * named outside the project.
 */
export function projectBoundary(root: string, fixtureDir: string): string {
  return isWithin(root, fixtureDir) ? root : fixtureDir
}

/**
 * Refuses a fixture file or folder whose real path lies outside `boundary` (see
 * {@link projectBoundary}): a symbolic link (`source.txt` → `/proc/self/environ`, `reviews/` →
 * another folder) would otherwise be read into a report, or written through. A path that does not
 * exist yet is checked by its nearest existing folder, so that a file about to be created is
 * checked too. A link that cannot be resolved (a loop, a target that is gone) is left to the read,
 * which names what is wrong with it.
 */
export async function confineToProject(path: string, display: string, boundary: string): Promise<void> {
  const real = await realPathOf(path)
  if (real === undefined) return
  const root = (await realPathOf(boundary)) ?? boundary
  if (isWithin(root, real)) return
  throw new FixtureError({
    code: 'FILE_OUTSIDE_PROJECT',
    file: display,
    summary: 'the path leads outside the project through a symbolic link, so it is neither read nor written.',
    expected: `a file or folder whose real path lies inside ${root}`,
    found: real,
    hint: 'replace the link with the file or folder itself (a copy kept in the fixture), or run the command from a folder that holds what the link points at.',
  })
}

/** The real path of `path`, or of its nearest existing folder joined with the rest; `undefined` for a link that does not resolve. */
export async function realPathOf(path: string): Promise<string | undefined> {
  try {
    return await realpath(path)
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') return undefined
    // A dangling link exists itself: the read reports it as missing.
    if (
      await lstat(path).then(
        () => true,
        () => false,
      )
    )
      return undefined
    const parent = dirname(path)
    if (parent === path) return undefined
    const real = await realPathOf(parent)
    return real === undefined ? undefined : join(real, basename(path))
  }
}

/** Whether `path` is `root` or lies below it, compared as written (no link is resolved). */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

/** Decodes UTF-8 strictly: a byte sequence that is not UTF-8 is an error, never a U+FFFD. */
export function decodeText(file: RawFile): string {
  // Taken once: a file read when asked for (held lightly) reads its bytes at each access, each time into another buffer.
  const bytes = file.bytes
  if (!isUtf8(bytes)) {
    const invalid = locateInvalidUtf8(bytes)
    throw new FixtureError({
      code: 'FILE_NOT_UTF8',
      file: file.display,
      summary: `the file is not valid UTF-8 text${invalid === undefined ? '' : ` (line ${invalid.line}, column ${invalid.column})`}.`,
      expected: 'UTF-8 text',
      found: invalid?.found,
      hint: 'save the file as UTF-8: it was saved in another encoding (Windows-1252, Latin-1 or UTF-16, say), so re-encode it and check the characters there.',
    })
  }
  try {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  } catch (cause) {
    if (errnoCode(cause) !== 'ERR_STRING_TOO_LONG') throw cause
    throw new FixtureError({
      code: 'FILE_TOO_LARGE',
      file: file.display,
      summary: `the file's text is longer than the longest string Node.js can hold (${constants.MAX_STRING_LENGTH.toLocaleString('en-US')} characters), so it cannot be read as one JSON document.`,
      expected: `at most ${constants.MAX_STRING_LENGTH.toLocaleString('en-US')} characters`,
      found: `${bytes.byteLength.toLocaleString('en-US')} bytes`,
      hint: 'split the cases and their reviews into several fixture directories, each with a copy of the rubric files; the chunks option then spreads each fixture over shards (docs/performance.md, "Past one machine").',
    })
  }
}

/**
 * Parses a JSON file, reporting a syntax error with its line and column, and refusing a file that
 * nests deeper than `MAX_JSON_DEPTH` levels or holds a key twice in one object, at its JSON path.
 */
export function parseJsonFile(file: RawFile): unknown {
  return parseJsonText(file).value
}

/** {@link parseJsonFile}, with the decoded text the value was parsed from. */
export function parseJsonText(file: RawFile): { readonly text: string; readonly value: unknown } {
  const { json } = file
  if (json !== undefined) {
    return {
      get text() {
        return decodeText(file)
      },
      value: json.value,
    }
  }
  const text = decodeText(file)
  if (text.charCodeAt(0) === 0xfeff) {
    throw new FixtureError({
      code: 'JSON_MALFORMED',
      file: file.display,
      summary: 'the file starts with a byte-order mark, which JSON does not allow.',
      expected: 'the JSON value from the first byte',
      found: 'the bytes EF BB BF (a UTF-8 byte-order mark, invisible in most editors)',
      hint: 'save the file as UTF-8 without a BOM (an editor setting: "UTF-8", not "UTF-8 with BOM"); the mark is part of the bytes, so it also changes the file\'s SHA-256.',
    })
  }
  let value: unknown
  try {
    value = parseJson(text)
  } catch {
    const { offset, expected } = locateJsonSyntaxError(text)
    const { line, column } = lineAndColumn(text, offset)
    const found = offset >= text.length ? 'the end of the file' : preview(text.slice(offset, offset + 20), 40)
    // A git merge that conflicted inside the file left its markers there: the fix is the merge's, not a comma.
    const marker = /^(<{7}|={7}|>{7})( |$)/m.exec(text)
    throw new FixtureError({
      code: 'JSON_MALFORMED',
      file: file.display,
      summary:
        marker === null
          ? `the file is not valid JSON (line ${line}, column ${column}).`
          : `the file is not valid JSON: it holds git conflict markers (the first on line ${lineAndColumn(text, marker.index).line}), left by a merge that changed the same lines on both sides.`,
      expected,
      found,
      hint:
        marker === null
          ? 'fix the JSON syntax there: a missing comma or quote, a trailing comma or a comment are the usual causes.'
          : "settle the conflict: keep each side's entries (both reviews, both cases), remove the markers, and check the result with `vitest-rubric status`; or run `git merge --abort`. In the records layout (`vitest-rubric convert <dir> --to records`) work on different cases merges without conflict.",
    })
  }
  const problem = jsonStructureProblem(text)
  if (problem !== undefined) throw new FixtureError(jsonStructureDetails(problem, file.display, (offset) => linePosition(text, offset)))
  return { text, value }
}

/** `line 4, column 13` of an offset in a text. */
export function linePosition(text: string, offset: number): string {
  const { line, column } = lineAndColumn(text, offset)
  return `line ${line}, column ${column}`
}
