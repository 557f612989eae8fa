/**
 * The most characters a verdict's reason may have: a reason says why in a few sentences. Every
 * label of a judge is one file, rewritten whole at each write, so one runaway reason must not make
 * it unwritable. The same limit holds for labels run by `judge` and imported by `review --judge`.
 */
export const MAX_REASON_CHARACTERS = 4_000

/** The most characters a whole verdict may have, as JSON: its rating, its reason and its span (an excerpt of the answer). */
export const MAX_VERDICT_CHARACTERS = 32_000

/** The path of the first `reason` in `value` longer than {@link MAX_REASON_CHARACTERS}, with its length; `undefined` when none is. */
export function overlongText(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; length: number } | undefined {
  if (typeof value === 'string') return path.at(-1) === 'reason' && value.length > MAX_REASON_CHARACTERS ? { path, length: value.length } : undefined
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = overlongText(item, [...path, index])
      if (found !== undefined) return found
    }
    return undefined
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = overlongText(item, [...path, key])
      if (found !== undefined) return found
    }
  }
  return undefined
}

/** The size of a verdict as JSON, in characters; 0 for a value that is no JSON (the schema refuses it). */
export function verdictSize(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0
  } catch {
    return 0
  }
}
