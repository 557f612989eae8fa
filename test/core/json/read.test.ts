import { symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { sha256Hex } from '../../../src/core/json/canonical-json.js'
import { decodeText, hashOnce, parseJsonFile, type RawFile, readFixtureFile } from '../../../src/core/json/read.js'
import { scratchDir } from '../../helpers/scratch.js'

const file = (bytes: Uint8Array) => ({ display: 'cases.json', bytes })
const encode = (text: string) => new TextEncoder().encode(text)

describe('reading a fixture file', () => {
  test("a file's hash taken by its reader is kept without the file, whose bytes are let go; one not taken is taken when asked for", async () => {
    setFlagsFromString('--expose-gc')
    const collect = runInNewContext('gc') as () => void
    const bytes = encode('{"cases": []}')
    let read: RawFile | undefined = { display: 'cases.json', bytes: new Uint8Array(1 << 20), sha256: sha256Hex(bytes) }
    const held = new WeakRef(read.bytes)
    const given = hashOnce(read)
    read = undefined
    // A WeakRef holds its target until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0))
    collect()
    expect(held.deref()).toBeUndefined()
    expect(given()).toBe(sha256Hex(bytes))
    expect(hashOnce(file(bytes))()).toBe(sha256Hex(bytes))
  })

  test('a path under a regular file cannot be read, and the message says to check the path', async () => {
    const dir = await scratchDir('read')
    await writeFile(join(dir, 'plain'), 'x')
    await expect(readFixtureFile(join(dir, 'plain', 'cases.json'), 'cases.json')).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: cases.json: the file cannot be read (ENOTDIR).
        fix:      check the file permissions and that the path is a regular file.]
    `)
    await expect(readFixtureFile(join(dir, 'absent.json'), 'absent.json')).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: absent.json: the file is missing.
        fix:      add the file: a fixture directory needs all of its files (docs/format.md describes them).]
    `)
    await expect(readFixtureFile(dir, 'dir.json')).rejects.toMatchObject({ code: 'FILE_UNREADABLE', found: 'a directory' })
    expect(await readFixtureFile(join(dir, 'plain'), 'plain')).toEqual({ display: 'plain', bytes: Buffer.from('x') })
  })

  test('a symbolic link whose target does not exist is named as one, not as a missing file', async () => {
    const dir = await scratchDir('read')
    await symlink(join(dir, 'gone', '0.jsonl'), join(dir, '0.jsonl'))
    await expect(readFixtureFile(join(dir, '0.jsonl'), 'records/0.jsonl')).rejects.toThrow(
      `records/0.jsonl: the file is a symbolic link whose target does not exist (${join(dir, 'gone', '0.jsonl')}).
  expected: a regular file, or a link to one
  found:    a link to nothing
  fix:      point the link at the file, or replace the link with the file itself.`,
    )
  })

  test('decodes only the bytes of a view, not the buffer around it', () => {
    const backing = encode('{"a": 1} [2]')
    expect(decodeText(file(backing.subarray(9)))).toBe('[2]')
    expect(parseJsonFile(file(backing.subarray(9)))).toEqual([2])
  })

  test('a syntax error shows up to 20 characters from where it is', () => {
    const text = `{\n  "a": 1,\n  ${'x'.repeat(30)}\n}`
    expect(() => parseJsonFile(file(encode(text)))).toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: cases.json: the file is not valid JSON (line 3, column 3).
        expected: a property name in double quotes
        found:    "xxxxxxxxxxxxxxxxxxxx"
        fix:      fix the JSON syntax there: a missing comma or quote, a trailing comma or a comment are the usual causes.]
    `)
  })

  test('a deeply nested file that is not JSON is refused with where, never a crash', () => {
    expect(() => parseJsonFile(file(encode(`${'['.repeat(100_000)}}`)))).toThrow('cases.json: the file is not valid JSON (line 1, column 100001).')
  })

  test('bytes that are not UTF-8 are refused with where they are', () => {
    expect(() => decodeText(file(Uint8Array.from([0x7b, 0x0a, 0x20, 0xe9, 0x7d])))).toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: cases.json: the file is not valid UTF-8 text (line 2, column 2).
        expected: UTF-8 text
        found:    the byte 0xE9 at byte offset 3
        fix:      save the file as UTF-8: it was saved in another encoding (Windows-1252, Latin-1 or UTF-16, say), so re-encode it and check the characters there.]
    `)
  })
})
