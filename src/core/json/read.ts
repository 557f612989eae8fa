import { constants, isUtf8 } from 'node:buffer'
import { readFile } from 'node:fs/promises'
import { FixtureError, preview } from '../common/errors.js'
import { locateInvalidUtf8 } from './invalid-utf8.js'
import { lineAndColumn, locateJsonSyntaxError } from './json-syntax.js'

/** A fixture file's raw bytes, read once: hashes are taken from exactly these bytes. */
export interface RawFile {
  /** The file as shown in messages, relative to the working directory. */
  readonly display: string
  readonly bytes: Uint8Array
  /** The SHA-256 of `bytes`, when the reader took it already (the plugin hashes every file for its cache key). */
  readonly sha256?: string
}

/** How a loader reads a fixture file: from disk, or from contents already read (to check an edit before writing it). */
export type FixtureFileReader = (path: string, display: string) => Promise<RawFile>

/** Reads a file of a fixture directory, turning a filesystem failure into a {@link FixtureError}. */
export async function readFixtureFile(path: string, display: string): Promise<RawFile> {
  try {
    return { display, bytes: await readFile(path) }
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code
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

/** Decodes UTF-8 strictly: a byte sequence that is not UTF-8 is an error, never a U+FFFD. */
export function decodeText(file: RawFile): string {
  if (!isUtf8(file.bytes)) {
    const invalid = locateInvalidUtf8(file.bytes)
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
    return Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength).toString('utf8')
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ERR_STRING_TOO_LONG') throw cause
    throw new FixtureError({
      code: 'FILE_TOO_LARGE',
      file: file.display,
      summary: `the file's text is longer than the longest string Node.js can hold (${constants.MAX_STRING_LENGTH.toLocaleString('en-US')} characters), so it cannot be read as one JSON document.`,
      expected: `at most ${constants.MAX_STRING_LENGTH.toLocaleString('en-US')} characters`,
      found: `${file.bytes.byteLength.toLocaleString('en-US')} bytes`,
      hint: 'split the cases and their reviews into several fixture directories, each with a copy of the rubric files; the chunks option then spreads each fixture over shards (docs/performance.md, "Past one machine").',
    })
  }
}

/** Parses a JSON file, reporting a syntax error with its line and column. */
export function parseJsonFile(file: RawFile): unknown {
  return parseJsonText(file).value
}

/** {@link parseJsonFile}, with the decoded text the value was parsed from. */
export function parseJsonText(file: RawFile): { readonly text: string; readonly value: unknown } {
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
  try {
    return { text, value: JSON.parse(text) as unknown }
  } catch {
    const { offset, expected } = locateJsonSyntaxError(text)
    const { line, column } = lineAndColumn(text, offset)
    const found = offset >= text.length ? 'the end of the file' : preview(text.slice(offset, offset + 20), 40)
    throw new FixtureError({
      code: 'JSON_MALFORMED',
      file: file.display,
      summary: `the file is not valid JSON (line ${line}, column ${column}).`,
      expected,
      found,
      hint: 'fix the JSON syntax there: a missing comma or quote, a trailing comma or a comment are the usual causes.',
    })
  }
}
