import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { bucketOf } from '../../src/core/store/records.js'
import { runCli } from '../helpers/cli.js'
import { git, recordsRepository } from '../helpers/records-repository.js'

// A bucket file of the records layout is made by the first save of one of its cases, so a fixture
// holds fewer bucket files than its layout names until every bucket has a case. One deleted by hand
// must not pass for one never written: its cases would leave every decision without a word.

const FIX = 'fixtures/lab'

/** A repository whose one commit holds the bundled docuctl fixture in the records layout; the bucket file of case "complete". */
async function repository(): Promise<{ root: string; bucket: string; buckets: number }> {
  const root = await recordsRepository('deleted-bucket')
  const { buckets } = JSON.parse(await readFile(join(root, FIX, 'records/layout.json'), 'utf8')) as { buckets: number }
  return { root, bucket: bucketOf('complete', buckets), buckets }
}

describe('a deleted bucket file is told from one never written', () => {
  test('status and evaluate name the deleted file and how to restore it; restored, the fixture decides as before', async () => {
    const { root, bucket } = await repository()
    const names = await readdir(join(root, FIX, 'records'))
    // The fixture has fewer cases than buckets: some bucket files were never written, and are no problem.
    expect(names.filter((name) => name.endsWith('.jsonl') && name !== 'documents.jsonl').length).toBeLessThan(16)
    const before = await runCli(['evaluate', FIX, '--json'], root)
    expect(before.code, before.stderr).toBe(0)

    await rm(join(root, FIX, 'records', bucket))
    const file = `${FIX}/records/${bucket}`
    const status = await runCli(['status', FIX], root)
    expect(status.code).toBe(1)
    expect(`${status.stdout}${status.stderr}`).toContain(`${file}: the bucket file is missing from the work tree while git holds it`)
    expect(`${status.stdout}${status.stderr}`).toContain(`git checkout HEAD -- ${file}`)
    const evaluated = await runCli(['evaluate', FIX], root)
    expect(evaluated.code).toBe(1)
    expect(`${evaluated.stdout}${evaluated.stderr}`).toContain(`${file}: the bucket file is missing from the work tree while git holds it`)
    expect(`${evaluated.stdout}${evaluated.stderr}`).not.toMatch(/accepted|rejected/)

    // Deleted with `git rm`, not yet committed: HEAD still holds it.
    git(root, 'rm', '-q', '--cached', '--', file)
    expect((await runCli(['evaluate', FIX], root)).stderr).toContain(`git checkout HEAD -- ${file}`)

    git(root, 'checkout', 'HEAD', '--', file)
    const after = await runCli(['evaluate', FIX, '--json'], root)
    expect(after.code).toBe(0)
    expect(after.stdout).toBe(before.stdout)
  })

  test('a case added to a deleted bucket is refused, and nothing is written', async () => {
    const { root, bucket, buckets } = await repository()
    await rm(join(root, FIX, 'records', bucket))
    let id = 'added-0'
    for (let index = 1; bucketOf(id, buckets) !== bucket; index++) id = `added-${index}`
    const added = await runCli(['add', FIX, '--id', id, '--answer', 'An answer.', '--citation', 'docuctl 3 guide'], root)
    expect(added.code).toBe(1)
    expect(added.stderr).toContain(`${FIX}/records/${bucket}: the bucket file is missing from the work tree while git holds it`)
    expect(await readdir(join(root, FIX, 'records'))).not.toContain(bucket)
  })

  test('a save to a case of another bucket is refused while a bucket is deleted, and nothing is written', async () => {
    const { root, bucket, buckets } = await repository()
    await rm(join(root, FIX, 'records', bucket))
    const before = await readdir(join(root, FIX, 'records'))
    let id = 'added-0'
    for (let index = 1; bucketOf(id, buckets) === bucket; index++) id = `added-${index}`
    const added = await runCli(['add', FIX, '--id', id, '--answer', 'An answer.', '--citation', 'docuctl 3 guide'], root)
    expect(added.code).toBe(1)
    expect(added.stderr).toContain(`${FIX}/records/${bucket}: the bucket file is missing from the work tree while git holds it`)
    expect(git(root, 'status', '--porcelain', '--', join(FIX, 'records'))).toBe(` D ${FIX}/records/${bucket}\n`)
    expect(await readdir(join(root, FIX, 'records'))).toEqual(before)
  })
})
