/** One step into a JSON document: an object key or an array index. */
export type PathSegment = string | number

/**
 * Formats a JSON path the way error messages show it:
 * `['reviews', 2, 'judgements', 'command']` → `reviews[2] › judgements › command`.
 */
export function formatPath(path: readonly PathSegment[]): string {
  let text = ''
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`
    else text += text === '' ? segment : ` › ${segment}`
  }
  return text
}

/** Formats a file name and a JSON path inside it: `annotations.json › reviews[2] › rating`. */
export function formatLocation(file: string | undefined, path: readonly PathSegment[]): string {
  const inner = formatPath(path)
  if (file === undefined) return inner === '' ? '(value)' : inner
  return inner === '' ? file : `${file} › ${inner}`
}

/** The value at a JSON path of a document, or `undefined` when the path leads nowhere. */
export function valueAt(document: unknown, path: readonly (string | number)[]): unknown {
  let value = document
  for (const segment of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment)) return undefined
    value = Reflect.get(value, segment)
  }
  return value
}
