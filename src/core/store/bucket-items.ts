import { type Fork, forksOf } from './materialise.js'
import type { ItemRecord } from './records.js'
import type { Folded } from './fold.js'

type FoldedItems = ReadonlyMap<string, Folded<ItemRecord>>

/**
 * The folded records of every bucket read, as one map by key: listed bucket by bucket in the order
 * the buckets were read (the order one map filled from each bucket in turn would have), and looked
 * up in an index of every key. Given the index built at the last read of the same fixture, only
 * the buckets whose folds changed are taken out of it and put back, so a save of one case costs
 * its bucket, not a merge of every bucket.
 */
export class BucketItems implements ReadonlyMap<string, Folded<ItemRecord>> {
  private constructor(
    private readonly buckets: readonly FoldedItems[],
    private readonly index: ReadonlyMap<string, Folded<ItemRecord>>,
  ) {}

  /**
   * The items of `buckets`, in their order. `previous` is what the last read made, whose index is
   * taken over and changed in place: that read is superseded by this one, and nothing reads it again.
   */
  static of(buckets: readonly FoldedItems[], previous?: BucketItems): BucketItems {
    if (previous === undefined) return new BucketItems(buckets, merged(buckets))
    const before = new Set(previous.buckets)
    const now = new Set(buckets)
    // Cast: the index is this class's own Map, read-only to its readers; the previous items are let go, and this takes it over.
    const index = previous.index as Map<string, Folded<ItemRecord>>
    // The new folds put first, then the old ones' keys that none of them holds taken out: a key kept (almost every key of a
    // bucket a save appended to, with the very record it had) is neither put again nor taken out.
    const added = buckets.filter((bucket) => !before.has(bucket))
    // A bucket folded again from one the last read listed, with only some keys folded anew (a save appended to it): every
    // other key has the very fold it had, so only those keys are looked up, not every key of the bucket twice.
    const taken = new Set<FoldedItems>()
    for (const bucket of added) {
      const derived = derivedFolds.get(bucket)
      if (derived !== undefined && before.has(derived.from) && !now.has(derived.from) && !taken.has(derived.from)) {
        taken.add(derived.from)
        for (const key of derived.touched) {
          const folded = bucket.get(key)
          if (folded !== undefined) index.set(key, folded)
          else if (index.get(key) === derived.from.get(key) && !added.some((each) => each.has(key))) index.delete(key)
        }
        continue
      }
      for (const [key, folded] of bucket) if (index.get(key) !== folded) index.set(key, folded)
    }
    for (const bucket of previous.buckets) {
      if (now.has(bucket) || taken.has(bucket)) continue
      for (const [key, folded] of bucket) if (index.get(key) === folded && !added.some((each) => each.has(key))) index.delete(key)
    }
    return new BucketItems(buckets, index)
  }

  get size(): number {
    return this.index.size
  }

  get(key: string): Folded<ItemRecord> | undefined {
    return this.index.get(key)
  }

  has(key: string): boolean {
    return this.index.has(key)
  }

  *entries(): MapIterator<[string, Folded<ItemRecord>]> {
    for (const bucket of this.buckets) yield* bucket.entries()
  }

  *keys(): MapIterator<string> {
    for (const bucket of this.buckets) yield* bucket.keys()
  }

  *values(): MapIterator<Folded<ItemRecord>> {
    for (const bucket of this.buckets) yield* bucket.values()
  }

  [Symbol.iterator](): MapIterator<[string, Folded<ItemRecord>]> {
    return this.entries()
  }

  forEach(visit: (value: Folded<ItemRecord>, key: string, map: ReadonlyMap<string, Folded<ItemRecord>>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) visit.call(thisArg, value, key, this)
  }

  /** The forked records of each case, bucket by bucket: a case's records are all in its bucket, so a bucket's forks are found once, when it is folded. */
  forks(): Fork[] {
    return this.buckets.flatMap((bucket) => {
      let forks = forksByBucket.get(bucket)
      if (forks === undefined) {
        forks = forksOf(bucket)
        forksByBucket.set(bucket, forks)
      }
      return forks
    })
  }
}

/**
 * Records that the folds `next` were made from the folds `from` by folding again only the keys
 * `touched`, every other key keeping its very fold: {@link BucketItems.of} then puts only those keys
 * in place.
 */
export function foldedFrom(next: FoldedItems, from: FoldedItems, touched: ReadonlySet<string>): void {
  derivedFolds.set(next, { from, touched })
}

/** What {@link foldedFrom} recorded, by the folds made. */
const derivedFolds = new WeakMap<FoldedItems, { readonly from: FoldedItems; readonly touched: ReadonlySet<string> }>()

/** The forks of each bucket's folds, by the very map of them. */
const forksByBucket = new WeakMap<FoldedItems, Fork[]>()

function merged(buckets: readonly FoldedItems[]): Map<string, Folded<ItemRecord>> {
  const index = new Map<string, Folded<ItemRecord>>()
  for (const bucket of buckets) for (const [key, folded] of bucket) index.set(key, folded)
  return index
}
