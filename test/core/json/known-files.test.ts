import { appendFile, open, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { writeFilesAtomically } from '../../../src/core/json/atomic-write.js'
import { sha256Hex } from '../../../src/core/json/canonical-json.js'
import { hashWithPrefix, readGrownFile } from '../../../src/core/json/file-slices.js'
import { knownNow, noteRead, statStamp } from '../../../src/core/json/known-files.js'
import { scratchDir } from '../../helpers/scratch.js'

/**
 * A bucket file a save of this process appended to is known by its stat stamp: its next readers
 * take its bytes from what the save wrote. Known wrongly (a file changed without moving its
 * stamp), it never lets a write through.
 */
describe('files known by their stamp', () => {
  // Several slices of the readers' buffer, and not a whole number of them.
  const read = Buffer.alloc(700_000 + 17, 'a')
  const appended = Buffer.from('{"line":"appended"}\n')

  test('a file this process appended to is known as written, until anyone else changes it', async () => {
    const path = join(await scratchDir('known'), '00.jsonl')
    await writeFile(path, read)
    await writeFilesAtomically([{ path, display: '00.jsonl', contents: { copyOf: path, append: appended }, basedOn: sha256Hex(read) }])
    const whole = Buffer.concat([read, appended])
    const known = await knownNow(path)
    expect(known).toMatchObject({ sha256: sha256Hex(whole), length: whole.length, grownFrom: { length: read.length, sha256: sha256Hex(read) } })
    expect(Buffer.from(known!.tail!).toString()).toBe(appended.toString())
    // The save's next reader: the lines appended since the bytes it parsed, and the hash of the whole.
    const grown = await readGrownFile(path, 'fx/records/00.jsonl', { length: read.length, sha256: sha256Hex(read) })
    expect(grown?.sha256).toBe(sha256Hex(whole))
    expect(Buffer.from(grown!.tail!).toString()).toBe(appended.toString())
    expect(Buffer.compare(Buffer.from(grown!.bytes), whole)).toBe(0)

    // Another writer appends: the stamp moved, and the file is read.
    const other = Buffer.from('{"line":"another writer"}\n')
    await appendFile(path, other)
    expect(await knownNow(path)).toBeUndefined()
    const again = await readGrownFile(path, 'fx/records/00.jsonl', { length: read.length, sha256: sha256Hex(read) })
    expect(again?.sha256).toBe(sha256Hex(Buffer.concat([whole, other])))
    expect(Buffer.from(again!.tail!).toString()).toBe(`${appended}${other}`)
  })

  test('a file known wrongly is still checked by every write: the write is refused, the file kept, and what was known forgotten', async () => {
    const path = join(await scratchDir('known'), '00.jsonl')
    await writeFile(path, read)
    // As if the file had been changed without its stamp moving: known as other bytes of its length.
    const other = Buffer.alloc(read.length, 'b')
    noteRead(path, statStamp(await stat(path, { bigint: true })), { sha256: sha256Hex(other), length: other.length })
    const trusted = await readGrownFile(path, 'fx/records/00.jsonl', { length: other.length, sha256: sha256Hex(other) })
    expect(trusted?.sha256).toBe(sha256Hex(other))
    const error = await writeFilesAtomically([{ path, display: '00.jsonl', contents: { copyOf: path, append: appended }, basedOn: sha256Hex(other) }]).catch(
      (caught: unknown) => caught,
    )
    expect(error).toMatchObject({ code: 'FILE_CHANGED_MEANWHILE', file: '00.jsonl' })
    expect(Buffer.compare(await readFile(path), read)).toBe(0)
    expect(await knownNow(path)).toBeUndefined()
    expect(await readGrownFile(path, 'fx/records/00.jsonl', { length: other.length, sha256: sha256Hex(other) })).toBeUndefined()
  })

  test('a file is hashed whole and up to any length in one pass', async () => {
    const path = join(await scratchDir('known'), '00.jsonl')
    const bytes = Buffer.concat([read, appended])
    await writeFile(path, bytes)
    const handle = await open(path, 'r')
    try {
      // Nothing, one byte, one slice exactly and one byte past it, the whole, and past the end.
      for (const length of [0, 1, 1 << 18, (1 << 18) + 1, read.length, bytes.length]) {
        expect(await hashWithPrefix(handle, length), String(length)).toEqual({ prefix: sha256Hex(bytes.subarray(0, length)), whole: sha256Hex(bytes) })
      }
      expect((await hashWithPrefix(handle, bytes.length + 1)).prefix).toBe('')
    } finally {
      await handle.close()
    }
  })
})
