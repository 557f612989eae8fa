import { spawnSync } from 'node:child_process'
import { chmod, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, test } from 'vitest'
import { nodeWriteIo, writeFilesAtomically, type FileWrite, type WriteIo } from '../../../src/core/json/atomic-write.js'
import { sha256Hex } from '../../../src/core/json/canonical-json.js'
import { recoverFixture, STALE_LOCK_MS, withFixtureLock } from '../../../src/core/json/fixture-lock.js'
import { RevisionError } from '../../../src/core/common/errors.js'
import { scratchDir } from '../../helpers/scratch.js'

async function twoFiles(dir: string): Promise<{ writes: FileWrite[]; before: Map<string, Buffer> }> {
  const before = new Map<string, Buffer>()
  const writes: FileWrite[] = []
  for (const name of ['annotations.json', 'cases.json']) {
    const path = join(dir, name)
    const old = Buffer.from(`{\n    "file": "${name}",\n    "hash": "old"\n}`) // 4 spaces, no final newline
    await writeFile(path, old)
    before.set(path, old)
    writes.push({ path, display: name, contents: old.toString().replace('"old"', '"new"'), basedOn: sha256Hex(old) })
  }
  return { writes, before }
}

async function expectUntouched(dir: string, before: Map<string, Buffer>): Promise<void> {
  for (const [path, bytes] of before) expect(await readFile(path)).toEqual(bytes)
  expect((await readdir(dir)).sort()).toEqual(['annotations.json', 'cases.json'])
}

describe('writeFilesAtomically', () => {
  test('replaces every file and keeps each file mode', async () => {
    const dir = await scratchDir('write')
    const { writes } = await twoFiles(dir)
    await chmod(writes[0]!.path, 0o600)
    await writeFilesAtomically(writes)
    expect(await readFile(writes[0]!.path, 'utf8')).toBe('{\n    "file": "annotations.json",\n    "hash": "new"\n}')
    expect(await readFile(writes[1]!.path, 'utf8')).toContain('"new"')
    expect((await stat(writes[0]!.path)).mode & 0o777).toBe(0o600)
    expect(await readdir(dir)).toHaveLength(2)
  })

  test('a write that fails half way leaves every original byte-identical and no temporary file', async () => {
    const dir = await scratchDir('write')
    const { writes, before } = await twoFiles(dir)
    let calls = 0
    const io: WriteIo = {
      ...nodeWriteIo,
      async writeNew(path, contents, mode) {
        calls++
        if (calls === 1) return nodeWriteIo.writeNew(path, contents, mode)
        await writeFile(path, String(contents).slice(0, 7)) // part of the second file, then the disk fills up
        throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
      },
    }
    const error = await writeFilesAtomically(writes, io).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(RevisionError)
    expect((error as RevisionError).message).toMatchInlineSnapshot(`
      "cases.json: the new contents could not be written (ENOSPC); nothing was changed: every file is as it was.
        fix:      free disk space or fix the directory permissions, then run the command again."
    `)
    await expectUntouched(dir, before)
  })

  test('a process killed while writing leaves the original byte-identical', async () => {
    const dir = await scratchDir('write')
    const { writes, before } = await twoFiles(dir)
    // The built module: `npm test` builds before it runs the tests.
    const module = pathToFileURL(join(import.meta.dirname, '../../../dist/core/json/atomic-write.js')).href
    // The child writes the first temporary file, then dies before any rename.
    const script = `
      const { writeFilesAtomically, nodeWriteIo } = await import(${JSON.stringify(module)})
      const writes = ${JSON.stringify(writes)}
      await writeFilesAtomically(writes, { ...nodeWriteIo, async writeNew(path, contents, mode) {
        await nodeWriteIo.writeNew(path, contents, mode)
        process.kill(process.pid, 'SIGKILL')
      } })
    `
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(child.signal, child.stderr).toBe('SIGKILL')
    // The lock directory, with the file the child staged in it, is the only trace: the originals are whole.
    expect((await readdir(dir)).sort()).toEqual(['.rubric.lock', 'annotations.json', 'cases.json'])
    for (const [path, bytes] of before) expect(await readFile(path)).toEqual(bytes)
    // The next command that reads the fixture sees the holder is dead, and discards what it staged at once.
    const started = Date.now()
    await recoverFixture(dir)
    expect(Date.now() - started).toBeLessThan(STALE_LOCK_MS)
    await expectUntouched(dir, before)
  })

  test('a rename that fails after another succeeded says which file changed', async () => {
    const dir = await scratchDir('write')
    const { writes, before } = await twoFiles(dir)
    let renames = 0
    const io: WriteIo = {
      ...nodeWriteIo,
      async rename(from, to) {
        if (++renames === 2) throw Object.assign(new Error('busy'), { code: 'EBUSY' })
        return nodeWriteIo.rename(from, to)
      },
    }
    const error = (await writeFilesAtomically(writes, io).catch((caught: unknown) => caught)) as RevisionError
    expect(error.summary).toBe('the file could not be replaced (EBUSY); it is as it was, but annotations.json already changed.')
    expect(await readFile(writes[1]!.path)).toEqual(before.get(writes[1]!.path))
    expect(await readFile(writes[0]!.path, 'utf8')).toContain('"new"')
    expect(await readdir(dir)).toHaveLength(2)
  })

  test('refuses to replace a file its owner made read-only, and writes nothing (a rename would replace it whatever its mode)', async () => {
    const dir = await scratchDir('write')
    const { writes, before } = await twoFiles(dir)
    await chmod(writes[1]!.path, 0o444)
    const error = (await writeFilesAtomically(writes).catch((caught: unknown) => caught)) as RevisionError
    expect(error).toBeInstanceOf(RevisionError)
    expect(error.code).toBe('WRITE_FAILED')
    expect(error.message).toMatch(/^cases\.json: the file is read-only \(mode 444\), so it is not replaced; nothing was changed\./)
    await expectUntouched(dir, before)
    expect((await stat(writes[1]!.path)).mode & 0o777).toBe(0o444)
  })

  test('refuses to replace a file that changed since it was read, and writes nothing', async () => {
    const dir = await scratchDir('write')
    const { writes } = await twoFiles(dir)
    await writeFile(writes[1]!.path, '{"saved": "by an editor"}')
    const error = (await writeFilesAtomically(writes).catch((caught: unknown) => caught)) as RevisionError
    expect(error.code).toBe('FILE_CHANGED_MEANWHILE')
    expect(await readFile(writes[0]!.path, 'utf8')).toContain('"old"')
    expect(await readFile(writes[1]!.path, 'utf8')).toBe('{"saved": "by an editor"}')
  })

  test('never overwrites a file that must be new', async () => {
    const dir = await scratchDir('write')
    await writeFile(join(dir, 'cases.json'), 'mine')
    const error = (await writeFilesAtomically([{ path: join(dir, 'cases.json'), display: 'cases.json', contents: 'x', basedOn: null }]).catch(
      (caught: unknown) => caught,
    )) as RevisionError
    expect(error.code).toBe('FILE_CHANGED_MEANWHILE')
    expect(await readFile(join(dir, 'cases.json'), 'utf8')).toBe('mine')
  })

  test("creates a new file with the mode the user's umask gives, and keeps a replaced file's mode (666)", async () => {
    const dir = await scratchDir('write')
    const created = join(dir, 'rubric.json')
    const { writes } = await twoFiles(dir)
    await chmod(writes[0]!.path, 0o666)
    const module = pathToFileURL(join(import.meta.dirname, '../../../dist/core/json/atomic-write.js')).href
    // A umask is per process: the write runs in a child that sets one no test runner's default has.
    const script = `
      process.umask(0o027)
      const { writeFilesAtomically } = await import(${JSON.stringify(module)})
      await writeFilesAtomically([{ path: ${JSON.stringify(created)}, display: 'rubric.json', contents: '{}\\n', basedOn: null }, ${JSON.stringify(writes[0])}])
    `
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(child.status, child.stderr).toBe(0)
    expect(await readFile(created, 'utf8')).toBe('{}\n')
    expect((await stat(created)).mode & 0o777).toBe(0o640)
    expect((await stat(writes[0]!.path)).mode & 0o777).toBe(0o666)
    expect((await readdir(dir)).sort()).toEqual(['annotations.json', 'cases.json', 'rubric.json'])
  })

  test('a first rename that fails says every file is as it was, and leaves no temporary file', async () => {
    const dir = await scratchDir('write')
    const { writes, before } = await twoFiles(dir)
    const io: WriteIo = {
      ...nodeWriteIo,
      async rename() {
        throw new Error('the disk went away')
      },
    }
    const error = (await writeFilesAtomically(writes, io).catch((caught: unknown) => caught)) as RevisionError
    expect(error.message).toMatchInlineSnapshot(`
      "annotations.json: the file could not be replaced (the disk went away); it is as it was, and so is every other file.
        fix:      fix the cause, then run the command again: it picks up from the files as they are now."
    `)
    await expectUntouched(dir, before)
  })

  test('a failure writing the first file names it, and a cause that is not an Error is shown as text', async () => {
    const dir = await scratchDir('write')
    const { writes, before } = await twoFiles(dir)
    const io: WriteIo = {
      ...nodeWriteIo,
      async writeNew() {
        // A thrown string, not an Error: what a failing filesystem shim may throw.
        throw 'quota exceeded'
      },
    }
    const error = (await writeFilesAtomically(writes, io).catch((caught: unknown) => caught)) as RevisionError
    expect(error).toMatchObject({
      code: 'WRITE_FAILED',
      file: 'annotations.json',
      summary: 'the new contents could not be written (quota exceeded); nothing was changed: every file is as it was.',
    })
    await expectUntouched(dir, before)
  })

  test('refuses a path it cannot read, and one that changed, saying what happened', async () => {
    const dir = await scratchDir('write')
    const { writes, before } = await twoFiles(dir)
    await expect(
      writeFilesAtomically([...writes, { path: dir, display: 'fixture', contents: 'x', basedOn: null }]),
    ).rejects.toThrowErrorMatchingInlineSnapshot(`
      [RevisionError: fixture: the file cannot be read (EISDIR); nothing was changed.
        fix:      check the file permissions and that the path is a regular file.]
    `)
    await expect(writeFilesAtomically([{ ...writes[0]!, basedOn: sha256Hex('another revision') }])).rejects.toThrowErrorMatchingInlineSnapshot(`
      [RevisionError: annotations.json: the file changed on disk while the command ran; nothing was changed, so that edit is not lost.
        fix:      run the command again once the file is saved.]
    `)
    await expect(writeFilesAtomically([{ ...writes[0]!, basedOn: null }])).rejects.toThrowErrorMatchingInlineSnapshot(`
      [RevisionError: annotations.json: the file appeared while the command ran; it was left alone, and nothing was changed.
        fix:      run the command again once the file is saved.]
    `)
    await expectUntouched(dir, before)
  })

  test('a large file is checked byte for byte, a change anywhere in it refusing the write, and a file appended to is copied with the new lines after it', async () => {
    const dir = await scratchDir('write')
    const path = join(dir, '00.jsonl')
    // Several of the slices the check reads at a time, and not a whole number of them.
    const read = Buffer.alloc(700_000 + 17, 'a')
    const appended = Buffer.from('{"line":"appended"}\n')
    const write: FileWrite = { path, display: '00.jsonl', contents: { copyOf: path, append: appended }, basedOn: sha256Hex(read), basedOnBytes: read }
    const changed = [
      ['the last byte', Buffer.concat([read.subarray(0, read.length - 1), Buffer.from('b')])],
      ['a byte in a middle slice', Buffer.from(read).fill('b', 300_000, 300_001)],
      ['a line appended', Buffer.concat([read, Buffer.from('{"line":"other"}\n')])],
      ['a byte cut off', read.subarray(0, read.length - 1)],
    ] as const
    for (const [what, onDisk] of changed) {
      await writeFile(path, onDisk)
      const error = await writeFilesAtomically([write]).catch((caught: unknown) => caught)
      expect(error, what).toMatchObject({ code: 'FILE_CHANGED_MEANWHILE', file: '00.jsonl' })
      expect(Buffer.compare(await readFile(path), onDisk), what).toBe(0)
      // Checked by its hash when the bytes read are not held.
      const { basedOnBytes: _held, ...hashOnly } = write
      expect(await writeFilesAtomically([hashOnly]).catch((caught: unknown) => caught), what).toMatchObject({ code: 'FILE_CHANGED_MEANWHILE' })
    }
    // An editor's save while the copy is made, before it or after it: the copy is not committed, and the edit is kept.
    // One undone after the copy leaves the file as it was read, but not the copy: it is not committed either.
    for (const when of ['before the copy', 'after the copy', 'and undone after the copy'] as const) {
      await writeFile(path, read)
      const edited = Buffer.concat([read, Buffer.from(`{"line":"edited ${when}"}\n`)])
      const io: WriteIo = {
        ...nodeWriteIo,
        async writeNew(staged, contents, mode) {
          if (when !== 'after the copy') await writeFile(path, edited)
          await nodeWriteIo.writeNew(staged, contents, mode)
          await writeFile(path, when === 'and undone after the copy' ? read : edited)
        },
      }
      const { basedOnBytes: _held, ...hashOnly } = write
      expect(await writeFilesAtomically([hashOnly], io).catch((caught: unknown) => caught), when).toMatchObject({ code: 'FILE_CHANGED_MEANWHILE' })
      expect(Buffer.compare(await readFile(path), when === 'and undone after the copy' ? read : edited), when).toBe(0)
      expect(await readdir(dir), when).toEqual(['00.jsonl'])
    }
    await writeFile(path, read)
    await writeFilesAtomically([write])
    expect(Buffer.compare(await readFile(path), Buffer.concat([read, appended]))).toBe(0)
    expect(await readdir(dir)).toEqual(['00.jsonl'])
  })

  test('a lock being taken by a writer killed before its owner file was whole is removed by the next command, and a live one is left', async () => {
    const dir = await scratchDir('write')
    // A process that has ended: its id runs no more.
    const ended = spawnSync(process.execPath, ['-e', '']).pid
    const killed = join(dir, `.rubric.lock-0123456789abcdef.${ended}.new`)
    const live = join(dir, `.rubric.lock-fedcba9876543210.${process.pid}.new`)
    for (const path of [killed, live]) {
      await mkdir(path)
      await writeFile(join(path, 'owner.json'), '{"pid":')
    }
    await recoverFixture(dir)
    expect((await readdir(dir)).sort()).toEqual([`.rubric.lock-fedcba9876543210.${process.pid}.new`])
  })

  // The review server reads its fixtures while it saves. A read that came between the lock's
  // renames (taken, released) saw a lock-named folder and no live lock, and took the lock itself:
  // its staging folder then showed in the fixture after the save had answered.
  test("a read in the process that is between the lock's renames leaves the lock to it", async () => {
    const dir = await scratchDir('write')
    const order: string[] = []
    let open!: () => void
    const gate = new Promise<void>((resolveGate) => (open = resolveGate))
    const saving = withFixtureLock(dir, async () => {
      // As between the two renames of a release: the lock is moved aside, and the process still holds its turn.
      await rename(join(dir, '.rubric.lock'), join(dir, '.rubric.lock-0123456789abcdef.released'))
      await Promise.race([gate, new Promise((resolveWait) => setTimeout(resolveWait, 1_000))])
      await rename(join(dir, '.rubric.lock-0123456789abcdef.released'), join(dir, '.rubric.lock'))
      order.push('saved')
    })
    while (!(await readdir(dir)).includes('.rubric.lock-0123456789abcdef.released')) await new Promise((resolveWait) => setTimeout(resolveWait, 5))
    // Read from outside the save's own context, as a request of the server's is.
    await recoverFixture(dir)
    order.push('read')
    open()
    await saving
    expect(order).toEqual(['read', 'saved'])
    expect(await readdir(dir)).toEqual([])
  })
})
