import { describe, expect, test } from 'vitest'
import { BucketCache } from '../../../src/core/store/bucket-cache.js'
import { BucketItems } from '../../../src/core/store/bucket-items.js'
import { bucketOf, type ItemRecord, LAYOUT_NAME, LAYOUT_VERSION, lineHash, recordLine } from '../../../src/core/store/records.js'

/**
 * A bucket file read again after a save appended to it: only the added lines are parsed, the records
 * read before stay the very objects they were (what lets a reader of the documents tell by identity
 * what changed), and the result is what a first read of the whole file gives.
 */
const layout = { layout: LAYOUT_NAME, version: LAYOUT_VERSION, buckets: 1 } as const
const NAME = bucketOf('t1', 1)
const provenance = { save: 'a1b2c3d4e5f6', at: '2026-12-06T07:00:00.000Z', by: 'alice@host' }

function review(caseId: string, reason: string, replaces: readonly string[] = []): ItemRecord {
  return { doc: 'annotations.json', case: caseId, slot: 'review', n: Number(caseId.slice(1)), item: { answer_id: caseId, reason }, replaces, ...provenance }
}

const file = (text: string) => ({ display: `fx/records/${NAME}`, bytes: new TextEncoder().encode(text) })
const heads = (folded: ReadonlyMap<string, { readonly heads: readonly { readonly record: ItemRecord }[] }>) =>
  [...folded.values()].map((each) => each.heads.map((head) => head.record))

describe('BucketCache', () => {
  const first = [review('t1', 'first'), review('t2', 'second')].map(recordLine).join('')

  test('a file that grew is parsed from where it was read, keeping the records read before', () => {
    const cache = new BucketCache()
    const before = cache.folded(file(first), NAME, layout, 'fx')
    const replacing = recordLine(review('t1', 'revised', [lineHash(recordLine(review('t1', 'first')))]))
    const grown = `${first}${replacing}${recordLine(review('t3', 'third'))}`
    const after = cache.folded(file(grown), NAME, layout, 'fx')

    expect(heads(after)).toEqual(heads(new BucketCache().folded(file(grown), NAME, layout, 'fx')))
    expect(after.get('annotations.json\u0000t1\u0000review')?.heads.map((head) => (head.record.item as { reason: string }).reason)).toEqual(['revised'])
    // t2's record was not parsed again: the same object.
    expect(after.get('annotations.json\u0000t2\u0000review')?.heads[0]?.record).toBe(before.get('annotations.json\u0000t2\u0000review')?.heads[0]?.record)
    expect(after.get('annotations.json\u0000t3\u0000review')?.heads[0]?.at).toBe(`records/${NAME}:4`)
    // Only the keys of the lines added are folded again: t2 keeps its fold, and the fold given out before is as it was.
    expect(after.get('annotations.json\u0000t2\u0000review')).toBe(before.get('annotations.json\u0000t2\u0000review'))
    expect(heads(before).map((records) => records.map((record) => (record.item as { reason: string }).reason))).toEqual([['first'], ['second']])
  })

  test('lines appended that fork a record, or compact the file, fold as a first read of the whole file does', () => {
    const original = recordLine(review('t1', 'first'))
    const forked = `${first}${recordLine(review('t1', 'on one machine', [lineHash(original)]))}${recordLine(review('t1', 'on another', [lineHash(original)]))}`
    const compaction = recordLine({ superseded: [lineHash(original)], ...provenance })
    for (const grown of [forked, `${forked}${compaction}`]) {
      const cache = new BucketCache()
      cache.folded(file(first), NAME, layout, 'fx')
      expect(heads(cache.folded(file(grown), NAME, layout, 'fx'))).toEqual(heads(new BucketCache().folded(file(grown), NAME, layout, 'fx')))
    }
    const cache = new BucketCache()
    cache.folded(file(first), NAME, layout, 'fx')
    expect(heads(cache.folded(file(forked), NAME, layout, 'fx'))[0]).toHaveLength(2)
  })

  test('the index of every bucket, taken over by the next read, still finds every key of a bucket that grew', () => {
    const two = { ...layout, buckets: 2 } as const
    const names = ['t1', 't2', 't3', 't4', 't5', 't6'].map((id) => bucketOf(id, 2))
    const [a, b] = [...new Set(names)].sort()
    const linesOf = (name: string | undefined) =>
      ['t1', 't2', 't3', 't4', 't5', 't6'].filter((id) => bucketOf(id, 2) === name).map((id) => recordLine(review(id, `reason of ${id}`)))
    const fileOf = (name: string, text: string) => ({ display: `fx/records/${name}`, bytes: new TextEncoder().encode(text) })
    const cache = new BucketCache()
    const textA = linesOf(a).join('')
    const textB = linesOf(b).join('')
    const foldedA = cache.folded(fileOf(a!, textA), a!, two, 'fx')
    const first = BucketItems.of([foldedA, cache.folded(fileOf(b!, textB), b!, two, 'fx')])
    // One bucket appended to: its keys kept share their folds with the bucket before.
    const addedCase = ['t7', 't8', 't9', 't10', 't11', 't12'].find((id) => bucketOf(id, 2) === b)!
    // …and one of its cases revised: only the keys of the lines appended are put in the index again.
    const revisedCase = ['t1', 't2', 't3', 't4', 't5', 't6'].find((id) => bucketOf(id, 2) === b)!
    const revision = recordLine(review(revisedCase, 'revised', [lineHash(recordLine(review(revisedCase, `reason of ${revisedCase}`)))]))
    const grownB = cache.folded(fileOf(b!, `${textB}${recordLine(review(addedCase, 'added'))}${revision}`), b!, two, 'fx')
    const next = BucketItems.of([foldedA, grownB], first)
    for (const [key, folded] of [...foldedA, ...grownB]) expect(next.get(key), key).toBe(folded)
    expect(next.size).toBe(foldedA.size + grownB.size)
    expect(next.get(`annotations.json\u0000${revisedCase}\u0000review`)?.heads[0]?.record.item).toMatchObject({ reason: 'revised' })
    expect([...next.keys()]).toEqual([...foldedA.keys(), ...grownB.keys()])
  })

  test('a bad line appended is named by its line in the whole file', () => {
    const cache = new BucketCache()
    cache.folded(file(first), NAME, layout, 'fx')
    expect(() => cache.folded(file(`${first}{"doc":\n`), NAME, layout, 'fx')).toThrow(`fx/records/${NAME}:3`)
  })

  test('a file changed before its end is read whole again', () => {
    const cache = new BucketCache()
    const before = cache.folded(file(first), NAME, layout, 'fx')
    const edited = [review('t1', 'edited by hand'), review('t2', 'second')].map(recordLine).join('')
    const after = cache.folded(file(`${edited}${recordLine(review('t3', 'third'))}`), NAME, layout, 'fx')
    expect(heads(after).map((records) => (records[0]?.item as { reason?: string } | undefined)?.reason)).toEqual(['edited by hand', 'second', 'third'])
    expect(after.get('annotations.json\u0000t2\u0000review')?.heads[0]?.record).not.toBe(before.get('annotations.json\u0000t2\u0000review')?.heads[0]?.record)
  })
})
