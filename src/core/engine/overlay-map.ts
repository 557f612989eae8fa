/**
 * A map made of another map with a few entries put in place or added, without copying it: what a
 * save of one review makes of a document's reviews by case, where copying 100,000 entries to change
 * one cost a save more than everything else it did. It reads as the map with those entries set
 * would (the same order: the base's keys in their place, new keys after them), and is a `Map`, as a
 * parsed document's index always was. It is read-only: `set`, `delete` and `clear` throw.
 */
export class OverlayMap<K, V> extends Map<K, V> {
  /** Built only by {@link withEntries}: `super` holds the entries put over `base`. */
  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    changes: Iterable<readonly [K, V]>,
  ) {
    super()
    for (const [key, value] of changes) super.set(key, value)
  }

  /**
   * `base` with `changes` set, sharing `base`'s entries. Over another overlay, the changes are put
   * together over its base, so a read looks in two maps at most; once they number more than a
   * sixteenth of the base (and at least {@link FLATTEN_AT}), they are copied into one plain map, so
   * that the cost of a change stays that of a few entries however many changes are made.
   */
  static withEntries<K, V>(base: ReadonlyMap<K, V>, changes: Iterable<readonly [K, V]>): ReadonlyMap<K, V> {
    if (!(base instanceof OverlayMap)) return new OverlayMap(base, changes)
    // Cast: instanceof gives an overlay of unknown keys and values; one over a map of K to V holds K to V.
    const { base: under } = base as OverlayMap<K, V>
    const merged = new Map<K, V>(base.own())
    for (const [key, value] of changes) merged.set(key, value)
    if (merged.size >= FLATTEN_AT && merged.size * 16 > under.size) {
      const flat = new Map(under)
      for (const [key, value] of merged) flat.set(key, value)
      return flat
    }
    return new OverlayMap(under, merged)
  }

  private *own(): IterableIterator<[K, V]> {
    yield* super.entries()
  }

  override get(key: K): V | undefined {
    return super.has(key) ? super.get(key) : this.base.get(key)
  }

  override has(key: K): boolean {
    return super.has(key) || this.base.has(key)
  }

  override get size(): number {
    let added = 0
    for (const key of super.keys()) if (!this.base.has(key)) added++
    return this.base.size + added
  }

  override *entries(): MapIterator<[K, V]> {
    for (const [key, value] of this.base) yield [key, super.has(key) ? super.get(key)! : value]
    for (const [key, value] of super.entries()) if (!this.base.has(key)) yield [key, value]
  }

  override *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key
  }

  override *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries()
  }

  override forEach(visit: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) visit.call(thisArg, value, key, this)
  }

  override set(_key: K, _value: V): this {
    throw new TypeError('an OverlayMap is read-only')
  }

  override delete(_key: K): boolean {
    throw new TypeError('an OverlayMap is read-only')
  }

  override clear(): void {
    throw new TypeError('an OverlayMap is read-only')
  }
}

/** How many changed entries an overlay holds at least before it is copied into a plain map. */
export const FLATTEN_AT = 256
