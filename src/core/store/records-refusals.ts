// The refusals of a records directory that are not of one line: a layout file lost, a document
// that is none of the seed layout's.
import { join } from 'node:path'
import { FixtureError } from '../common/errors.js'
import { quoteSome } from '../common/primitives.js'
import { type DocumentRecord, LAYOUT_FILE, RECORDS_DIR, type Stored } from './records.js'

/** `records/` holding records (`held`) but no `layout.json`: a records fixture whose layout was lost, never a seed fixture. */
export function layoutMissing(display: string, held: readonly string[]): FixtureError {
  return new FixtureError({
    code: 'RECORDS_MALFORMED',
    file: join(display, RECORDS_DIR, LAYOUT_FILE),
    summary: `the file is missing, while ${join(display, RECORDS_DIR)} holds ${quoteSome([...held].sort())}: the records cannot be read without it.`,
    expected: `{ "layout": "vitest-rubric/records", "version": 1, "buckets": <the number of bucket files> }`,
    hint: `restore ${join(display, RECORDS_DIR, LAYOUT_FILE)} from version control; \`vitest-rubric convert\` writes it.`,
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
