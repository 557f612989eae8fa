import { readdir } from 'node:fs/promises'
import { readRegularFile } from '../json/regular-file.js'
import { join } from 'node:path'
import { isObject } from '../common/primitives.js'
import { sha256Hex } from '../json/canonical-json.js'
import { bucketNames, checkItemRecord, itemContent, type ItemRecord, LAYOUT_FILE, parseLayout, RECORDS_DIR, type Stored } from './records.js'
import { fold } from './fold.js'

/** How a case's record line begins, as the store writes it (`doc` first, then `case`). */
const CASE_LINE = '{"doc":"cases.json","case":'
/** How a compaction line begins (docs/format.md#compaction). */
const SUPERSEDED_LINE = '{"superseded":'

/**
 * The number of cases a fixture in the records layout holds, counted from its case records alone
 * (each bucket file's lines of `cases.json`, a case revised counted once, one removed not at all),
 * without folding the rest of its records: what the plugin needs to split a large fixture into
 * chunks before any of it is decided. `undefined` when the directory is not in the records layout
 * or a file cannot be read; a line it cannot read is left to the loader, which names it.
 */
export async function countRecordCases(dir: string): Promise<number | undefined> {
  const folder = join(dir, RECORDS_DIR)
  try {
    const names = new Set(await readdir(folder))
    if (!names.has(LAYOUT_FILE)) return undefined
    const layout = parseLayout(await readRegularFile(join(folder, LAYOUT_FILE)), join(folder, LAYOUT_FILE))
    const lines: Stored<ItemRecord>[] = []
    const superseded = new Set<string>()
    for (const name of bucketNames(layout.buckets).filter((each) => names.has(each))) {
      const text = (await readRegularFile(join(folder, name))).toString('utf8')
      let start = 0
      while (start < text.length) {
        let end = text.indexOf('\n', start)
        if (end === -1) end = text.length
        if (text.startsWith(CASE_LINE, start)) {
          // Without the CR of a CR LF line break, as the store reads a line.
          const line = text.slice(start, end > start && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end)
          const record = caseRecord(line)
          if (record !== undefined) lines.push({ record, line, hash: sha256Hex(line), at: name })
        } else if (text.startsWith(SUPERSEDED_LINE, start)) {
          for (const hash of supersededHashes(text.slice(start, end))) superseded.add(hash)
        }
        start = end + 1
      }
    }
    let cases = 0
    for (const { heads } of fold(lines, (record) => record.case, itemContent, superseded).values())
      if (heads.some((head) => head.record.removed !== true)) cases++
    return cases
  } catch {
    return undefined
  }
}

/** A case line's record, or `undefined` for a line the loader will refuse (it names it). */
function caseRecord(line: string): ItemRecord | undefined {
  try {
    const value: unknown = JSON.parse(line)
    // Cast: checked as the loader checks a record.
    return checkItemRecord(value) === undefined ? (value as ItemRecord) : undefined
  } catch {
    return undefined
  }
}

/** The SHA-256s a compaction line names; none for a line the loader will refuse. */
function supersededHashes(line: string): readonly string[] {
  try {
    const value: unknown = JSON.parse(line)
    const hashes = isObject(value) ? value['superseded'] : undefined
    return Array.isArray(hashes) ? hashes.filter((hash): hash is string => typeof hash === 'string') : []
  } catch {
    return []
  }
}
