import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { sha256Hex } from '../../../src/core/json/canonical-json.js'
import { RecordStore } from '../../../src/core/store/record-store.js'
import {
  bucketOf,
  DOCUMENTS_FILE,
  type ItemRecord,
  LAYOUT_FILE,
  LAYOUT_NAME,
  LAYOUT_VERSION,
  RECORDS_DIR,
  recordLine,
} from '../../../src/core/store/records.js'
import { scratchDir } from '../../helpers/scratch.js'

/**
 * The page's server keeps a records fixture read: a bucket file larger than 1 MB is kept by its
 * hash once parsed, not by its bytes (at 100,000 cases, some 300 MB), and its bytes read again for
 * a write are those hashed, or refused.
 */
describe('a record store read by a reader that hashed its files', () => {
  const provenance = { save: 'a1b2c3d4e5f6', at: '2026-12-06T07:00:00.000Z', by: 'alice@host' }
  const review = (caseId: string, reason: string): ItemRecord => ({
    doc: 'annotations.json',
    case: caseId,
    slot: 'review',
    n: Number(caseId.slice(1)),
    item: { answer_id: caseId, reason },
    replaces: [],
    ...provenance,
  })
  const keys = {
    keyOf: (_doc: string, item: unknown) => ({ case: String((item as { answer_id: string }).answer_id), slot: 'review' }),
    unreviewed: (item: unknown) => item,
    isDocument: () => true,
  }

  test('holds a large bucket file by its hash, and a small one by its bytes', async () => {
    const dir = await scratchDir('held')
    await mkdir(join(dir, RECORDS_DIR))
    await writeFile(join(dir, RECORDS_DIR, LAYOUT_FILE), JSON.stringify({ layout: LAYOUT_NAME, version: LAYOUT_VERSION, buckets: 2 }))
    // t1 and t3 in two buckets: one over 1 MB, one a line.
    const [large, small] = [review('t1', 'x'.repeat(1_100_000)), review('t3', 'short')]
    const largeName = bucketOf('t1', 2)
    const smallName = bucketOf('t3', 2)
    expect(largeName).not.toBe(smallName)
    // The document the reviews are entries of, as documents.jsonl holds it.
    const document = {
      doc: 'annotations.json',
      list: 'reviews',
      members: { reviews: [] },
      style: { indent: 2, ascii: false, newline: true },
      replaces: [],
      ...provenance,
    }
    await writeFile(join(dir, RECORDS_DIR, DOCUMENTS_FILE), recordLine(document))
    await writeFile(join(dir, RECORDS_DIR, largeName), recordLine(large))
    await writeFile(join(dir, RECORDS_DIR, smallName), recordLine(small))
    const read = async (path: string, display: string) => {
      const bytes = await readFile(path)
      return { display, bytes, sha256: sha256Hex(bytes) }
    }
    const store = await RecordStore.open(dir, 'fx', read, (folder) => readdir(folder), keys)
    const files = store!.recordFiles()
    expect(Object.getOwnPropertyDescriptor(files.get(largeName), 'bytes')?.value).toBeUndefined()
    expect(Object.getOwnPropertyDescriptor(files.get(smallName), 'bytes')?.value).toBeInstanceOf(Uint8Array)
    expect(store!.headsOf('annotations.json', 't1', 'review')[0]?.record.item).toEqual(large.item)
    // Asked for again, the bytes are those hashed; changed meanwhile, they are refused.
    expect(new TextDecoder().decode(files.get(largeName)!.bytes)).toBe(recordLine(large))
    await writeFile(join(dir, RECORDS_DIR, largeName), recordLine(review('t1', 'y'.repeat(1_100_000))))
    expect(() => files.get(largeName)!.bytes).toThrow(expect.objectContaining({ code: 'FILE_CHANGED_MEANWHILE' }))
  })
})
