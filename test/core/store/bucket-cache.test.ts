import { describe, expect, test } from 'vitest'
import { BucketCache } from '../../../src/core/store/bucket-cache.js'
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
