import { z } from 'zod'

/** The two splits a case can belong to; they are never merged into one figure. */
export const SPLITS = ['development', 'held_out'] as const
export const SplitSchema = z.enum(SPLITS, { error: 'one of "development", "held_out"' })
/** The split a case belongs to: `development` or `held_out`. */
export type Split = z.infer<typeof SplitSchema>

/** A lowercase hexadecimal SHA-256 digest. */
export const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, { error: 'a SHA-256 digest: 64 lowercase hexadecimal characters' })

/**
 * The optional `$schema` key at the top of a fixture file: editors read it to validate and complete
 * the file; evaluation ignores it, and it is no part of any fingerprint.
 */
export const SchemaReferenceSchema = z.string().describe('The JSON Schema editors validate this file against; ignored by evaluation.')

/** A non-empty string. */
export const NonEmptyText = z.string().min(1)

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Whether `value` is one of `options`: a string a user typed, narrowed to the names a union allows. */
export function isOneOf<const T extends string>(options: readonly T[], value: string): value is T {
  return options.some((option) => option === value)
}

/** The value under a key an object itself holds: a key such as "constructor" never finds Object.prototype's. */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined
}

/** `a`, `a and b`, `a, b and c`. */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** The first few items of a long list, quoted. */
export function quoteSome(items: readonly string[], max = 10): string {
  const shown = items
    .slice(0, max)
    .map((item) => JSON.stringify(item))
    .join(', ')
  return items.length > max ? `${shown} … (${items.length} in all)` : shown
}

/**
 * A count with its noun, singular for exactly one: `1 case`, `0 cases`, `2 criteria` (`plural(2,
 * 'criterion', 'criteria')`). `shown` is how the number is written (`1,000`), the count as is by default.
 */
export function plural(count: number, one: string, many = `${one}s`, shown = String(count)): string {
  return `${shown} ${count === 1 ? one : many}`
}

/** A hash shortened for a listing: `3a8dcd22e9f4…`. */
export function shortSha(sha: string): string {
  return `${sha.slice(0, 12)}…`
}

/** The `code` of a Node.js system error (`ENOENT`), or `undefined` for an error without one. */
export function errnoCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined
  return typeof code === 'string' ? code : undefined
}

/** `JSON.parse`, typed as what it is: any JSON value, to be checked before it is used. */
export function parseJson(text: string): unknown {
  return JSON.parse(text)
}

/** `make`, called once, when first asked for. */
export function once<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined
  return () => {
    made ??= { value: make() }
    return made.value
  }
}
