import { describe, expect, test } from 'vitest'
import { inShard, MAX_SHARDS, parseShard, type JudgeShard } from '../../../src/core/judges/judge-shard.js'
import { bucketIndex } from '../../../src/core/store/records.js'

const IDS = [...Array.from({ length: 10_000 }, (_, index) => `case-${index}`), ...Array.from({ length: 200 }, (_, index) => `ünïcode ✓ ${index}`), '', 't4']

function shards(count: number): JudgeShard[] {
  return Array.from({ length: count }, (_, index) => ({ index: index + 1, count }))
}

describe('the shards of a judge run', () => {
  test.each([1, 2, 3, 7, 8, 64, MAX_SHARDS])('%i shards: every case id is in exactly one', (count) => {
    // Each id is tested against every shard: at the largest count, a sample of the ids keeps that quick.
    const ids = count > 64 ? IDS.filter((_, index) => index % 20 === 0) : IDS
    const notInOne = ids.filter((id) => shards(count).filter((shard) => inShard(id, shard)).length !== 1)
    expect(notInOne).toEqual([])
  })

  test('a case keeps its shard on every machine and in every fixture: the first four bytes of the SHA-256 of its id, modulo the count', () => {
    // sha256("complete") begins eebbe645 (4005295685), sha256("not-reviewed") 672c6563 (1730972259).
    expect(shards(3).find((shard) => inShard('complete', shard))).toEqual({ index: 3, count: 3 })
    expect(shards(8).find((shard) => inShard('complete', shard))).toEqual({ index: 6, count: 8 })
    expect(shards(3).find((shard) => inShard('not-reviewed', shard))).toEqual({ index: 1, count: 3 })
    expect(shards(8).find((shard) => inShard('ünïcode-✓', shard))).toEqual({ index: 6, count: 8 })
  })

  test('the shards are about the same size', () => {
    for (const shard of shards(8)) {
      const size = IDS.filter((id) => inShard(id, shard)).length
      expect(size).toBeGreaterThan(IDS.length / 8 - 200)
      expect(size).toBeLessThan(IDS.length / 8 + 200)
    }
  })

  test("with a shard count that divides the bucket count, a shard's cases fill buckets of their own in the records layout", () => {
    const owner = new Map<number, number>()
    for (const id of IDS) {
      const shard = shards(8).find((each) => inShard(id, each))!.index
      const bucket = bucketIndex(id, 16)
      expect(owner.get(bucket) ?? shard, id).toBe(shard)
      owner.set(bucket, shard)
    }
    expect(owner.size).toBe(16)
  })
})

describe('--shard k/n', () => {
  test.each([
    ['1/1', { index: 1, count: 1 }],
    ['3/8', { index: 3, count: 8 }],
    [`${MAX_SHARDS}/${MAX_SHARDS}`, { index: MAX_SHARDS, count: MAX_SHARDS }],
  ])('%s is read', (text, shard) => {
    expect(parseShard(text)).toEqual(shard)
  })

  test.each([
    ['0/3', 'shards are counted from 1'],
    ['4/3', 'there is no shard 4 of 3'],
    ['a/b', 'a shard is written k/n'],
    ['1/0', 'there is no shard of 0 shards'],
    ['', 'a shard is written k/n'],
    ['3', 'a shard is written k/n'],
    ['3/8/2', 'a shard is written k/n'],
    [' 3/8', 'a shard is written k/n'],
    ['-1/3', 'a shard is written k/n'],
    ['1.5/3', 'a shard is written k/n'],
    [`1/${MAX_SHARDS + 1}`, `a run is split into at most ${MAX_SHARDS} shards`],
  ])('%j is refused: %s', (text, why) => {
    expect(() => parseShard(text)).toThrow(why)
  })

  test('the refusal says what a shard is and what to do', () => {
    expect(() => parseShard('4/3', 'vitest-rubric judge --shard')).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: vitest-rubric judge --shard: there is no shard 4 of 3; nothing was judged.
        expected: k/n: shard k of n, two whole numbers with 1 ≤ k ≤ n ≤ 1024 (shard 3 of 8: --shard 3/8)
        found:    "4/3"
        fix:      give every machine the same n and its own k, from 1 to n: together the n shards judge every case once.]
    `)
  })
})
