import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { RubricError } from '../../../src/core/common/errors.js'
import { recordReview as recordWithKinds } from '../../../src/core/engine/authoring/review.js'
import type { DraftSource } from '../../../src/core/engine/authoring/draft.js'
import { kinds, recordReview } from '../../../src/core/registry.js'
import { nodeWriteIo, writeFilesAtomically, type FileWrite } from '../../../src/core/json/atomic-write.js'
import { sha256Hex } from '../../../src/core/json/canonical-json.js'
import { LOCK_NAME, STALE_LOCK_MS, withFixtureLock } from '../../../src/core/json/fixture-lock.js'
import { startServer } from '../../../src/web/server.js'
import { copyFixture, type AnnotationsJson } from '../../helpers/fixture-copy.js'
import { scratchDir } from '../../helpers/scratch.js'

const source: DraftSource = { label: 'the test', locate: (path) => path.join(' › ') }
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

function draft(reason: string): Record<string, unknown> {
  return Object.fromEntries(
    CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: criterion === 'support' ? reason : `Meets ${criterion}.`, answer_span: '' }]),
  )
}

async function supportReason(dir: string, file: string, caseId: string): Promise<string | undefined> {
  const annotations = JSON.parse(await readFile(join(dir, file), 'utf8')) as AnnotationsJson
  return annotations.reviews.find((review) => review.answer_id === caseId)?.judgements['support']?.reason
}

describe('saves of one fixture at once', () => {
  test('reviews of different cases, and by different reviewers, started together in one process, are all kept', async () => {
    const fixture = await copyFixture()
    const saves = [
      recordReview(fixture.dir, draft('adopted of not-reviewed'), source, { caseId: 'not-reviewed', replace: false, cwd: fixture.dir }),
      recordReview(fixture.dir, draft('adopted of uncertain-wording'), source, { caseId: 'uncertain-wording', replace: true, cwd: fixture.dir }),
      recordReview(fixture.dir, draft('alice of complete'), source, { caseId: 'complete', replace: false, reviewer: 'alice', cwd: fixture.dir }),
      recordReview(fixture.dir, draft('alice of negation'), source, { caseId: 'negation', replace: false, reviewer: 'alice', cwd: fixture.dir }),
      recordReview(fixture.dir, draft('bob of complete'), source, { caseId: 'complete', replace: false, reviewer: 'bob', cwd: fixture.dir }),
    ]
    await Promise.all(saves)
    expect(await supportReason(fixture.dir, 'annotations.json', 'not-reviewed')).toBe('adopted of not-reviewed')
    expect(await supportReason(fixture.dir, 'annotations.json', 'uncertain-wording')).toBe('adopted of uncertain-wording')
    expect(await supportReason(fixture.dir, 'reviews/alice.json', 'complete')).toBe('alice of complete')
    expect(await supportReason(fixture.dir, 'reviews/alice.json', 'negation')).toBe('alice of negation')
    expect(await supportReason(fixture.dir, 'reviews/bob.json', 'complete')).toBe('bob of complete')
  })

  test('of six writers derived from one revision of a file, one writes and five are refused; none reports a write it lost', async () => {
    const dir = await scratchDir('writers')
    const path = join(dir, 'annotations.json')
    await writeFile(path, 'revision 0\n')
    const basedOn = sha256Hex('revision 0\n')
    const writes = Array.from({ length: 6 }, (_, index): FileWrite[] => [{ path, display: 'annotations.json', contents: `writer ${index}\n`, basedOn }])
    const results = await Promise.allSettled(writes.map((write) => writeFilesAtomically(write)))
    const written = results.flatMap((result, index) => (result.status === 'fulfilled' ? [index] : []))
    expect(written).toHaveLength(1)
    expect(await readFile(path, 'utf8')).toBe(`writer ${written[0]}\n`)
    for (const result of results) if (result.status === 'rejected') expect((result.reason as RubricError).code).toBe('FILE_CHANGED_MEANWHILE')
  })

  test("an editor's save that lands while a review is written is kept, and the review is made again on top of it", async () => {
    const fixture = await copyFixture()
    const annotations = join(fixture.dir, 'annotations.json')
    let edited = false
    // The writer is the engine's seam: the public recordReview takes no io.
    const recorded = await recordWithKinds(fixture.dir, draft('written over the edit'), source, {
      caseId: 'not-reviewed',
      replace: false,
      cwd: fixture.dir,
      kinds,
      io: {
        ...nodeWriteIo,
        async writeNew(path, contents, mode) {
          await nodeWriteIo.writeNew(path, contents, mode)
          if (edited) return
          // The editor saves annotations.json (a new origin) between the read and the rename.
          edited = true
          const text = await readFile(annotations, 'utf8')
          await writeFile(annotations, text.replace(/"origin": "[^"]*"/, '"origin": "edited in an editor"'))
        },
      },
    })
    expect(recorded.decision).toBe('accepted')
    const after = JSON.parse(await readFile(annotations, 'utf8')) as AnnotationsJson
    expect(after.origin).toBe('edited in an editor')
    expect(after.reviews.find((review) => review.answer_id === 'not-reviewed')?.judgements['support']?.reason).toBe('written over the edit')
  })

  test('a save sent with what it was shown is refused when that case changed since, and made when another case did', async () => {
    const fixture = await copyFixture()
    const server = await startServer({ dirs: ['.'], cwd: fixture.dir, port: 0 })
    try {
      const headers = { 'x-rubric-token': server.token, 'content-type': 'application/json' }
      const origin = new URL(server.url).origin
      const shown = async (id: string) =>
        ((await (await fetch(`${origin}/api/case?fixture=0&id=${id}`, { headers })).json()) as { versions: Record<string, string | null> }).versions
      const save = (id: string, versions: Record<string, string | null>, reason: string) =>
        fetch(`${origin}/api/review`, { method: 'POST', headers, body: JSON.stringify({ fixture: 0, id, draft: draft(reason), versions, replace: true }) })

      // Two tabs read the same case, then both save it at once: one is written, the other told.
      const versions = await shown('uncertain-wording')
      const both = await Promise.all([save('uncertain-wording', versions, 'first tab'), save('uncertain-wording', versions, 'second tab')])
      expect(both.map((response) => response.status).sort()).toEqual([200, 409])
      const winner = both[0]!.status === 200 ? 'first tab' : 'second tab'
      expect(await supportReason(fixture.dir, 'annotations.json', 'uncertain-wording')).toBe(winner)
      const refused = (await both.find((response) => response.status === 409)!.json()) as { error: { code: string; message: string } }
      expect(refused.error.code).toBe('CASE_CHANGED_MEANWHILE')
      expect(refused.error.message).toContain('annotations.json › uncertain-wording › review changed since this case was read')

      // Two tabs read two cases, each saved after the other was written: both are kept.
      const first = await shown('not-reviewed')
      const second = await shown('negation')
      expect((await save('not-reviewed', first, 'one tab')).status).toBe(200)
      expect((await save('negation', second, 'other tab')).status).toBe(200)
      expect(await supportReason(fixture.dir, 'annotations.json', 'not-reviewed')).toBe('one tab')
      expect(await supportReason(fixture.dir, 'annotations.json', 'negation')).toBe('other tab')

      // No save goes without the check.
      const unversioned = await save('complete', {}, 'no versions')
      expect(unversioned.status).toBe(400)
      expect(((await unversioned.json()) as { error: { message: string } }).error.message).toContain('the save does not say which revision of')
      expect(await supportReason(fixture.dir, 'annotations.json', 'complete')).not.toBe('no versions')
    } finally {
      await server.close()
    }
  })
})

describe("the fixture's lock", () => {
  test('a writer waits while another process holds the lock, then writes on the files as they are', async () => {
    const fixture = await copyFixture()
    let release!: () => void
    const holding = new Promise<void>((resolve) => (release = resolve))
    let entered!: () => void
    const held = new Promise<void>((resolve) => (entered = resolve))
    // Another writer holds the lock (as the page server would), and writes once the review waits.
    const other = withFixtureLock(fixture.dir, async () => {
      entered()
      await holding
      await fixture.editAnnotations((annotations) => void (annotations.origin = 'written under the lock'))
    })
    await held
    let done = false
    const review = recordReview(fixture.dir, draft('waited its turn'), source, { caseId: 'not-reviewed', replace: false, cwd: fixture.dir }).then(
      () => (done = true),
    )
    await new Promise((resolve) => setImmediate(resolve))
    expect(done).toBe(false)
    release()
    await Promise.all([other, review])
    const after = JSON.parse(await readFile(join(fixture.dir, 'annotations.json'), 'utf8')) as AnnotationsJson
    expect(after.origin).toBe('written under the lock')
    expect(after.reviews.find((each) => each.answer_id === 'not-reviewed')?.judgements['support']?.reason).toBe('waited its turn')
  })

  test('a lock left by a killed process is taken over once it is stale, and removed after the write', async () => {
    const fixture = await copyFixture()
    const lock = join(fixture.dir, LOCK_NAME)
    await mkdir(lock)
    const long = (Date.now() - STALE_LOCK_MS - 5_000) / 1000
    await utimes(lock, long, long)
    await recordReview(fixture.dir, draft('after a dead writer'), source, { caseId: 'not-reviewed', replace: false, cwd: fixture.dir })
    expect(await supportReason(fixture.dir, 'annotations.json', 'not-reviewed')).toBe('after a dead writer')
    await expect(stat(lock)).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
