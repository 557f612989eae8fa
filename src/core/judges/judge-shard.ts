import { UsageError } from '../common/errors.js'
import { bucketIndex } from '../store/records.js'

/** One part of a judge run split across machines: shard `index` of `count`, from 1. */
export interface JudgeShard {
  /** Which shard: 1 to `count`. */
  readonly index: number
  /** How many shards the cases are split into. */
  readonly count: number
}

/** The most shards a run is split into: more than any CI matrix runs at once. */
export const MAX_SHARDS = 1024

/**
 * Whether a case belongs to a shard. A case's shard is the first four bytes of the SHA-256 of its
 * id, modulo the shard count (as a case's bucket is in the records layout): it depends on the id
 * alone, never on the fixture's size, the order of its cases or the machine, so the shards of a
 * count are disjoint and together hold every case, wherever each is run.
 */
export function inShard(caseId: string, shard: JudgeShard): boolean {
  return bucketIndex(caseId, shard.count) === shard.index - 1
}

/** `3/8`, as `--shard` takes it. */
export function formatShard(shard: JudgeShard): string {
  return `${shard.index}/${shard.count}`
}

/** Reads `k/n` (`--shard 3/8`): two whole numbers, 1 ≤ k ≤ n ≤ {@link MAX_SHARDS}; anything else is a usage error, from `where`. */
export function parseShard(text: string, where = '--shard'): JudgeShard {
  const match = /^(\d+)\/(\d+)$/.exec(text)
  const refuse = (why: string) =>
    new UsageError({
      code: 'USAGE',
      file: where,
      summary: `${why}; nothing was judged.`,
      expected: `k/n: shard k of n, two whole numbers with 1 ≤ k ≤ n ≤ ${MAX_SHARDS} (shard 3 of 8: --shard 3/8)`,
      found: JSON.stringify(text),
      hint: 'give every machine the same n and its own k, from 1 to n: together the n shards judge every case once.',
    })
  if (match === null) throw refuse('a shard is written k/n')
  const index = Number(match[1])
  const count = Number(match[2])
  if (count < 1) throw refuse('there is no shard of 0 shards')
  if (count > MAX_SHARDS) throw refuse(`a run is split into at most ${MAX_SHARDS} shards`)
  if (index < 1) throw refuse('shards are counted from 1')
  if (index > count) throw refuse(`there is no shard ${index} of ${count}`)
  return { index, count }
}
