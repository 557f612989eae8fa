import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { bucketIndex, bucketOf } from '../../../src/core/store/records.js'

// docs/format.md: every record of a case is in the bucket its id hashes to, the first four bytes of
// the SHA-256 of its UTF-8 modulo the bucket count. A fixture written by one release is read by the
// next, so the bucket of an id may never move.
describe('the bucket of a case id', () => {
  const ids = ['t4', 'wrong-command', 'é-accents-ünïcode', '案例-7', '', 'x'.repeat(300)]

  test.each(ids)('is the first four bytes of the SHA-256 of %j, modulo the count', (id) => {
    const first = createHash('sha256').update(Buffer.from(id, 'utf8')).digest().readUInt32BE(0)
    for (const buckets of [1, 2, 16, 256]) expect(bucketIndex(id, buckets)).toBe(first % buckets)
  })

  test('is named in hexadecimal, as wide as the largest bucket', () => {
    const first = createHash('sha256').update('t4').digest().readUInt32BE(0)
    expect(bucketOf('t4', 256)).toBe(`${(first % 256).toString(16).padStart(2, '0')}.jsonl`)
    expect(bucketOf('t4', 1)).toBe('0.jsonl')
  })
})
