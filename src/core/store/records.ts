import { hash, randomBytes } from 'node:crypto'
import { hostname, userInfo } from 'node:os'
import { join } from 'node:path'
import stableStringify from 'fast-json-stable-stringify'
import { FixtureError } from '../common/errors.js'
import { isObject } from '../common/primitives.js'
import { sha256Hex } from '../json/canonical-json.js'
import { jsonStructureDetails, jsonStructureProblem, MAX_JSON_DEPTH } from '../json/json-structure.js'
import { OPEN_BRACE } from '../json/json-scan.js'
import { parseJsonFile } from '../json/read.js'
import { isCompactionLine } from './record-checks.js'

/**
 * The records layout of a fixture: every case, review, judge label and adoption is one line of a
 * JSON Lines file in `records/`, filed by its case in one of a fixed number of bucket files. A line
 * that revises another names it by the SHA-256 of its bytes (`replaces`), so a fold finds each
 * key's current record without trusting the order of lines, and two revisions of one record made
 * apart (two branches) are a visible fork, never a silent pick. See docs/format.md#the-records-layout.
 */
export const RECORDS_DIR = 'records'
export const LAYOUT_FILE = 'layout.json'
export const DOCUMENTS_FILE = 'documents.jsonl'
/** The seed document of a fixture's cases. */
export const CASES_DOC = 'cases.json'
export const LAYOUT_NAME = 'vitest-rubric/records'
export const LAYOUT_VERSION = 1
/**
 * What `.gitattributes` in `records/` holds: git keeps both sides' lines of a record file on a merge,
 * and writes its lines with LF on every system (a line's bytes are what a later record names it by).
 */
export const GIT_ATTRIBUTES = '*.jsonl merge=union eol=lf\n'

/** Whether a `.gitattributes` text has git merge the record files line by line (`*.jsonl merge=union`). */
export function mergesRecordsByLine(attributes: string): boolean {
  return attributes.split('\n').some((line) => /^\*\.jsonl\s+(.*\s)?merge=union(\s|$)/.test(line.trim()))
}

/** A `.gitattributes` text with {@link GIT_ATTRIBUTES} after it, unless it merges the record files line by line already. */
export function withRecordsAttributes(attributes: string): string {
  if (mergesRecordsByLine(attributes)) return attributes
  return `${attributes}${attributes === '' || attributes.endsWith('\n') ? '' : '\n'}${GIT_ATTRIBUTES}`
}

/** `records/layout.json`. */
export interface Layout {
  readonly layout: typeof LAYOUT_NAME
  readonly version: typeof LAYOUT_VERSION
  /** How many bucket files the case records are filed in: a power of two, fixed when the layout is made. */
  readonly buckets: number
}

/** How a document is written out in the seed layout, so that converting back gives the same bytes. */
export interface DocumentStyle {
  /** Spaces of indentation (0: one line). */
  readonly indent: number
  /** Every character beyond ASCII written as `\uXXXX` (Python's `ensure_ascii`). */
  readonly ascii: boolean
  /** The file ends with a line break. */
  readonly newline: boolean
}

/** Who made a save, when, and which save it was: what a fork names so that a person can tell the two apart. */
export interface Provenance {
  /** A random token shared by every line one save wrote. */
  readonly save: string
  /** ISO time. */
  readonly at: string
  /** `user@host`. */
  readonly by: string
}

/** A line of `documents.jsonl`: a seed document's members other than its list, in their order. */
export interface DocumentRecord extends Provenance {
  readonly doc: string
  /** The name of the list member (`cases`, `reviews`, `adoptions`), which `members` holds as `[]` at its place. */
  readonly list: string
  readonly members: Readonly<Record<string, unknown>>
  readonly style: DocumentStyle
  readonly replaces: readonly string[]
}

/** A line of a bucket file: one entry of a document's list (a case, a review, an adoption), or its removal. */
export interface ItemRecord extends Provenance {
  readonly doc: string
  readonly case: string
  readonly slot?: string
  /** The entry's place in its document's list: entries are listed by `n`, then by key. */
  readonly n: number
  readonly item?: unknown
  readonly removed?: true
  readonly replaces: readonly string[]
}

/**
 * A line `compact` writes in place of the lines it removed: their SHA-256s. A line it names is
 * superseded wherever it turns up again (a git merge with a branch made before the compaction may
 * bring it back), as if the line replacing it were still there. See docs/format.md#compaction.
 */
export interface SupersededRecord extends Provenance {
  readonly superseded: readonly string[]
}

/**
 * A record's content, without its place or provenance: two heads of a key with the same content
 * are one head, not a fork. Their places (`n`) may differ: the same case added, or the same first
 * review saved, on two branches, each placed by the time of its save. The earlier place is kept
 * (the bucket cache's `placedBefore`), whichever side of a merge it came from.
 */
export function itemContent(record: ItemRecord): string {
  return stableStringify([record.removed === true, record.item ?? null])
}

/** A line as read, with where it was and the SHA-256 of its bytes (what `replaces` names). */
export interface Stored<R> {
  readonly record: R
  /** The line's text, without its line break. */
  readonly line: string
  readonly hash: string
  /** `records/3.jsonl:12`, relative to the fixture directory. */
  readonly at: string
}

const CARRIAGE_RETURN = 0x0d

export function newProvenance(): Provenance {
  let user = 'someone'
  try {
    user = userInfo().username
  } catch {
    // no user name on this system
  }
  return { save: randomBytes(6).toString('hex'), at: new Date().toISOString(), by: `${user}@${hostname()}` }
}

/** The bucket a case's records are filed in. */
export function bucketOf(caseId: string, buckets: number): string {
  const index = bucketIndex(caseId, buckets)
  const width = Math.max(1, (buckets - 1).toString(16).length)
  return `${index.toString(16).padStart(width, '0')}.jsonl`
}

/**
 * Which of `buckets` parts a case id falls in, from 0: the first four bytes of the SHA-256 of its
 * UTF-8, modulo the count. It depends on the id alone, never on the fixture or the machine.
 */
export function bucketIndex(caseId: string, buckets: number): number {
  // One call, not a Hash object: a load files every record it reads, and the object was most of the cost.
  return hash('sha256', caseId, 'buffer').readUInt32BE(0) % buckets
}

export function bucketNames(buckets: number): string[] {
  const width = Math.max(1, (buckets - 1).toString(16).length)
  return Array.from({ length: buckets }, (_, index) => `${index.toString(16).padStart(width, '0')}.jsonl`)
}

export function itemKey(doc: string, caseId: string, slot: string | undefined): string {
  return `${doc}\u0000${caseId}\u0000${slot ?? ''}`
}

/** One line as written: the record's JSON and a line break. */
export function recordLine(record: DocumentRecord | ItemRecord | SupersededRecord): string {
  return `${JSON.stringify(record)}\n`
}

export function lineHash(line: string): string {
  return sha256Hex(line.endsWith('\n') ? line.slice(0, -1) : line)
}

/** The bucket count `convert` chooses for a number of cases: about a thousand cases a file, at least 16 files. */
export function bucketsFor(cases: number): number {
  let buckets = 16
  while (buckets * 1000 < cases && buckets < 4096) buckets *= 2
  return buckets
}

export { checkDocumentRecord, checkItemRecord } from './record-checks.js'

/** Reads `records/layout.json`'s text. */
export function parseLayout(bytes: Uint8Array, display: string): Layout {
  // Read as every JSON file is: a byte-order mark, a syntax error or a key held twice is refused by its place.
  const value = parseJsonFile({ display, bytes })
  const buckets = isObject(value) ? value['buckets'] : undefined
  if (
    !isObject(value) ||
    Object.keys(value).length !== 3 ||
    value['layout'] !== LAYOUT_NAME ||
    value['version'] !== LAYOUT_VERSION ||
    typeof buckets !== 'number' ||
    !Number.isInteger(buckets) ||
    buckets < 1 ||
    buckets > 65536 ||
    (buckets & (buckets - 1)) !== 0
  ) {
    throw new FixtureError({
      code: 'RECORDS_MALFORMED',
      file: display,
      summary: 'the layout file is not one this version reads.',
      expected: `{ "layout": "${LAYOUT_NAME}", "version": ${LAYOUT_VERSION}, "buckets": <a power of two> }`,
      found: new TextDecoder().decode(bytes).trim().slice(0, 120),
      hint: `restore it from version control (\`git checkout HEAD -- ${display}\`): only it knows the bucket count the records were filed with.`,
    })
  }
  return { layout: LAYOUT_NAME, version: LAYOUT_VERSION, buckets }
}

/**
 * Parses the lines of a record file; a line that is not a record refuses the fixture, naming it. The
 * SHA-256s a compaction line names are added to `superseded`. `linesBefore` is how many lines come
 * before `text` in the file (lines appended to a file already read are parsed alone, numbered as in
 * the whole file).
 */
export function parseRecordLines<R>(
  text: string,
  display: string,
  check: (value: unknown) => string | undefined,
  superseded: Set<string>,
  linesBefore = 0,
): Stored<R>[] {
  const found: Stored<R>[] = []
  if (text.length > 0 && !text.endsWith('\n')) {
    throw malformed(
      display,
      linesBefore + text.split('\n').length,
      'the last line has no line break: the file was cut off or edited by hand.',
      text.slice(text.lastIndexOf('\n') + 1),
    )
  }
  // Where each line is told: the file's folder and name, then its line number.
  const place = display.split('/').slice(-2).join('/')
  let start = 0
  let number = linesBefore
  while (start < text.length) {
    const end = text.indexOf('\n', start)
    // A line break written as CR LF (a checkout that converts line endings) ends the line before its CR: the line is the record
    // its writer wrote, and hashes as the record that replaces it names it.
    const line = text.slice(start, end > start && text.charCodeAt(end - 1) === CARRIAGE_RETURN ? end - 1 : end)
    start = end + 1
    number++
    // A record's line opens its object at once: only another line can be blank or a conflict marker.
    const opensRecord = line.charCodeAt(0) === OPEN_BRACE
    if (!opensRecord && line.trim() === '') continue
    if (!opensRecord && /^(<{7}|={7}|>{7}|\|{7})( |$)/.test(line)) {
      throw malformed(
        display,
        number,
        'the line is a git conflict marker: git merged this file line by line instead of keeping both sides.',
        line,
        "run `git merge --abort`, make sure `records/.gitattributes` holds `*.jsonl merge=union` (`vitest-rubric convert` writes it), and merge the branches one at a time: an octopus merge (`git merge a b`) runs no merge driver. Do not settle a record file with `git checkout --theirs` or `--ours`: that keeps one side's records only.",
      )
    }
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      throw malformed(display, number, 'the line is not JSON.', line)
    }
    // A key held twice, or nesting too deep, is refused as in every JSON file: JSON.parse would keep the last copy silently.
    // A record holds its entry one level down, where a document holds it two: the same entry is as deep in both.
    const structure = jsonStructureProblem(line, MAX_JSON_DEPTH - 1)
    if (structure !== undefined) throw new FixtureError(jsonStructureDetails(structure, `${display}:${number}`, (offset) => `column ${offset + 1}`))
    if (isObject(value) && 'superseded' in value) {
      if (!isCompactionLine(value))
        throw malformed(display, number, 'a compaction line holds superseded (a list of SHA-256s), save, at and by, and nothing else.', line)
      for (const hash of value['superseded']) superseded.add(hash)
      continue
    }
    const problem = check(value)
    if (problem !== undefined) throw malformed(display, number, problem, line)
    // Cast: check found no problem, and it checks every field of a record.
    found.push(new StoredLine(value as R, line, place, number))
  }
  return found
}

/**
 * A line as read. The SHA-256 of its bytes is taken when first asked for, which the fold does only
 * for a key with several lines, and where it was is written out only for a message: a load reads
 * every record of the fixture, and most are never named.
 */
class StoredLine<R> implements Stored<R> {
  #hash: string | undefined
  constructor(
    readonly record: R,
    readonly line: string,
    private readonly place: string,
    private readonly number: number,
  ) {}

  get hash(): string {
    this.#hash ??= sha256Hex(this.line)
    return this.#hash
  }

  get at(): string {
    return `${this.place}:${this.number}`
  }
}

function malformed(display: string, line: number, summary: string, found: string, hint?: string): FixtureError {
  return new FixtureError({
    code: 'RECORDS_MALFORMED',
    file: `${display}:${line}`,
    summary,
    found: found.length > 160 ? `${found.slice(0, 160)}…` : found,
    hint:
      hint ?? 'restore the file from version control: record files are written by vitest-rubric, one JSON record a line (docs/format.md#the-records-layout).',
  })
}

/** The path of a file of the records directory. */
export function recordsPath(dir: string, name: string): string {
  return join(dir, RECORDS_DIR, name)
}
