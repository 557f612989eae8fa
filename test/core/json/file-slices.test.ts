import { readFileSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { sha256Hex } from '../../../src/core/json/canonical-json.js'
import { heldLightly, readGrownFile, readWhenAsked } from '../../../src/core/json/file-slices.js'
import { decodeText } from '../../../src/core/json/read.js'
import { scratchDir } from '../../helpers/scratch.js'

/**
 * A bucket file read again by a save reads only what was appended since the server read it, and a
 * store keeps a large file by its hash: neither ever hands out bytes other than those it hashed.
 */
describe('file slices', () => {
  // Several slices of the reader's buffer, and not a whole number of them.
  const before = Buffer.alloc(600_000 + 3, 'r')
  const appended = Buffer.from('{"line":"appended"}\n')

  test('a file that grew is read from where it was read before: its tail, and the hash of the whole', async () => {
    const path = join(await scratchDir('slices'), '00.jsonl')
    await writeFile(path, Buffer.concat([before, appended]))
    const read = await readGrownFile(path, 'fx/records/00.jsonl', { length: before.length, sha256: sha256Hex(before) })
    expect(read?.tail && Buffer.from(read.tail).toString()).toBe(appended.toString())
    expect(read?.sha256).toBe(sha256Hex(Buffer.concat([before, appended])))
    expect(read?.grownFrom).toEqual({ length: before.length, sha256: sha256Hex(before) })
    // The whole bytes, when asked for, are the bytes hashed.
    expect(Buffer.compare(Buffer.from(read!.bytes), Buffer.concat([before, appended]))).toBe(0)
    // Unchanged: an empty tail. Changed before its end, or cut: not read from there.
    await writeFile(path, before)
    expect((await readGrownFile(path, 'x', { length: before.length, sha256: sha256Hex(before) }))?.tail).toHaveLength(0)
    await writeFile(path, Buffer.concat([Buffer.from(before).fill('e', 500_000, 500_001), appended]))
    expect(await readGrownFile(path, 'x', { length: before.length, sha256: sha256Hex(before) })).toBeUndefined()
    await writeFile(path, before.subarray(1))
    expect(await readGrownFile(path, 'x', { length: before.length, sha256: sha256Hex(before) })).toBeUndefined()
  })

  test('bytes asked for after the file changed are refused, never handed out', async () => {
    const path = join(await scratchDir('slices'), '00.jsonl')
    await writeFile(path, Buffer.concat([before, appended]))
    const read = await readGrownFile(path, 'fx/records/00.jsonl', { length: before.length, sha256: sha256Hex(before) })
    await writeFile(path, Buffer.concat([before, Buffer.from('{"line":"another"}\n')]))
    expect(() => read!.bytes).toThrow(expect.objectContaining({ code: 'FILE_CHANGED_MEANWHILE', file: 'fx/records/00.jsonl' }))
  })

  test('a large file is held by its hash and read again when asked for; a small one keeps its bytes', async () => {
    const dir = await scratchDir('slices')
    const large = Buffer.alloc((1 << 20) + 1, 'l')
    const path = join(dir, 'large.jsonl')
    await writeFile(path, large)
    const held = heldLightly(path, { display: 'large.jsonl', sha256: sha256Hex(large), bytes: large })
    expect(Object.getOwnPropertyDescriptor(held, 'bytes')?.value).toBeUndefined()
    expect(Buffer.compare(Buffer.from(held.bytes), large)).toBe(0)
    await writeFile(path, Buffer.alloc(large.length, 'm'))
    expect(() => held.bytes).toThrow(expect.objectContaining({ code: 'FILE_CHANGED_MEANWHILE' }))
    const small = { display: 'small.jsonl', sha256: sha256Hex('s'), bytes: Buffer.from('s') }
    expect(heldLightly(join(dir, 'small.jsonl'), small)).toBe(small)
  })

  test('a small file read when asked for decodes to its own text, whatever its reads share a buffer with', async () => {
    // Node reads a small file into a slice of a shared pool of 8 KiB, a new pool once one is full: each read of the file
    // lies elsewhere, in this pool or the next. Reads of another file between the decodings put other bytes there.
    const dir = await scratchDir('slices-small')
    const path = join(dir, 'alice.json')
    const text = `{"origin":"${'Independent reviews by alice. '.repeat(80)}","reviews":[]}\n`
    await writeFile(path, text)
    await writeFile(join(dir, 'bob.json'), `{"origin":"${'Independent reviews by bob. '.repeat(89)}","reviews":[]}\n`)
    const file = readWhenAsked(path, 'fx/reviews/alice.json', sha256Hex(Buffer.from(text)))
    for (let time = 0; time < 12; time++) {
      readFileSync(join(dir, 'bob.json'))
      expect(decodeText(file)).toBe(text)
    }
  })

  test('a file read when asked for that is gone since is refused as changed meanwhile, not as an error of the system', async () => {
    const dir = await scratchDir('slices-gone')
    const path = join(dir, 'cases.json')
    await writeFile(path, '{"cases":[]}\n')
    const file = readWhenAsked(path, 'fx/cases.json', sha256Hex(Buffer.from('{"cases":[]}\n')))
    await rm(path)
    expect(() => file.bytes).toThrow(expect.objectContaining({ code: 'FILE_CHANGED_MEANWHILE', file: 'fx/cases.json' }))
  })
})
