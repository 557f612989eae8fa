// The refusals of a records directory that are not of one line: a layout file lost, a file that is
// none of the layout's, a document that is none of the seed layout's.
import { join } from 'node:path'
import { FixtureError } from '../common/errors.js'
import { quoteSome } from '../common/primitives.js'
import { bucketNames, DOCUMENTS_FILE, type DocumentRecord, LAYOUT_FILE, RECORDS_DIR, type Stored } from './records.js'

/** `records/` holding records (`held`) but no `layout.json`: a records fixture whose layout was lost, never a seed fixture. */
export function layoutMissing(display: string, held: readonly string[]): FixtureError {
  return new FixtureError({
    code: 'RECORDS_MALFORMED',
    file: join(display, RECORDS_DIR, LAYOUT_FILE),
    summary: `the file is missing, while ${join(display, RECORDS_DIR)} holds ${quoteSome([...held].sort())}: the records cannot be read without it.`,
    expected: `{ "layout": "vitest-rubric/records", "version": 1, "buckets": <the bucket count it was written with> }`,
    hint: `restore it from version control (\`git checkout HEAD -- ${join(display, RECORDS_DIR, LAYOUT_FILE)}\`): only it knows the bucket count, a power of 2${leastBuckets(held)}, since a bucket file is made by the first save of one of its cases and some may not be written yet.`,
  })
}

/**
 * `name`, a file of `records/` (which holds `names`) that is neither the documents' file nor one of
 * the layout's `buckets` bucket files. When every such file is a bucket file of another bucket
 * count, it is layout.json that changed (a hand edit, a bad merge), and the bucket files hold the
 * records: moving them out would lose those.
 */
export function strayRecordFile(display: string, name: string, names: readonly string[], buckets: number): FixtureError {
  const records = join(display, RECORDS_DIR)
  const held = names.filter((each) => each !== LAYOUT_FILE && each !== DOCUMENTS_FILE && !each.startsWith('.')).sort()
  // Every bucket count the layout takes, 1 to 65536, but the one it gives.
  const counts = Array.from({ length: 17 }, (_, power) => 2 ** power).filter((count) => count !== buckets)
  const ofCount = (count: number) => {
    const named = new Set(bucketNames(count))
    return held.every((each) => named.has(each))
  }
  if (counts.some(ofCount))
    return new FixtureError({
      code: 'RECORDS_MALFORMED',
      file: join(records, LAYOUT_FILE),
      summary: `the layout gives ${buckets} bucket files, but ${records} holds the bucket files of another bucket count (${quoteSome(held)}): the bucket count does not match the bucket files, so their records would be ignored.`,
      hint: `restore ${join(records, LAYOUT_FILE)} from version control: \`vitest-rubric convert\` chose its bucket count, which is never changed by hand. Keep the bucket files where they are: they hold the records.`,
    })
  return new FixtureError({
    code: 'RECORDS_MALFORMED',
    file: join(records, name),
    summary: `the records directory holds a file that is neither ${DOCUMENTS_FILE} nor one of its ${buckets} bucket files, so what it holds would be ignored.`,
    hint: `move the file out of ${records}; records are written by vitest-rubric (docs/format.md#the-records-layout).`,
  })
}

/** A document record naming a document that is none of the seed layout's (`rubric.json`, `reviews/../../x.json`). */
export function foreignDocument(display: string, head: Stored<DocumentRecord>): FixtureError {
  return new FixtureError({
    code: 'RECORDS_MALFORMED',
    file: join(display, head.at),
    summary: `the record names a document that is none of the fixture's: ${JSON.stringify(head.record.doc)}.`,
    expected:
      'cases.json, annotations.json, adjudications.json, reviews/<reviewer>.json or judges/<judge>.json, an author named by letters, digits, ".", "_" and "-"',
    found: JSON.stringify(head.record.doc),
    hint: `restore ${join(display, RECORDS_DIR)} from version control: its lines are written by vitest-rubric (docs/format.md#the-records-layout).`,
  })
}

/**
 * Bucket files that git holds (in HEAD or the index) but the work tree does not: deleted, as against
 * never written (a bucket file is made by the first save of one of its cases). Read without them,
 * their cases would be gone from every decision without a word.
 */
export function bucketsDeleted(display: string, deleted: readonly { name: string; inHead: boolean }[]): FixtureError {
  const paths = deleted.map(({ name }) => join(display, RECORDS_DIR, name))
  const restore = deleted.every(({ inHead }) => inHead) ? 'git checkout HEAD --' : 'git checkout --'
  return new FixtureError({
    code: 'RECORDS_MALFORMED',
    file: paths[0]!,
    summary: `the bucket file${paths.length === 1 ? ' is' : 's are'} missing from the work tree while git holds ${paths.length === 1 ? 'it' : 'them'}${paths.length === 1 ? '' : ` (${quoteSome(paths)})`}: ${paths.length === 1 ? 'it was' : 'they were'} deleted, so the records of ${paths.length === 1 ? 'its' : 'their'} cases would be left out of every decision.`,
    expected: `${paths.length === 1 ? 'the file' : 'the files'} as git holds ${paths.length === 1 ? 'it' : 'them'}`,
    found: 'no such file',
    hint: `restore ${paths.length === 1 ? 'it' : 'them'}: \`${restore} ${paths.join(' ')}\`: a bucket file holds the records of every case filed in it, and none of them is read without it.`,
  })
}

/** ` of at least n`, n the least power of 2 above every bucket file's number among `held`; `''` when none is one. */
function leastBuckets(held: readonly string[]): string {
  // Bucket files are named by their number in hexadecimal: `0.jsonl` to `f.jsonl` for 16 buckets, `00.jsonl` to `ff.jsonl` for 256.
  const numbers = held
    .map((name) => /^([0-9a-f]+)\.jsonl$/.exec(name)?.[1])
    .filter((number) => number !== undefined)
    .map((number) => Number.parseInt(number, 16))
  if (numbers.length === 0) return ''
  let count = 1
  while (count <= Math.max(...numbers)) count *= 2
  return ` of at least ${count}`
}

/** `records/documents.jsonl` is missing while bucket files hold entries of its documents. */
export function documentsMissing(display: string): FixtureError {
  const file = join(display, RECORDS_DIR, DOCUMENTS_FILE)
  return new FixtureError({
    code: 'RECORDS_MALFORMED',
    file,
    summary: `the file is missing, while the bucket files of ${join(display, RECORDS_DIR)} hold entries of the documents it records (cases.json and the others of the seed layout, each with its members and style): the fixture cannot be read without it.`,
    expected: `${DOCUMENTS_FILE}, written by \`vitest-rubric convert\` with the bucket files`,
    found: 'no such file',
    hint: `restore it from version control (\`git checkout HEAD -- ${file}\`).`,
  })
}
