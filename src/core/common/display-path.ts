import { isAbsolute, relative, resolve, sep } from 'node:path'

/**
 * A path as printed to someone working in `from`: relative to it when the path lies inside it
 * (`fixtures/lab`, `.` for `from` itself), absolute when it lies outside (`/tmp/lab`, never
 * `../../../tmp/lab`, which says less and is longer).
 */
export function displayPath(from: string, path: string): string {
  const absolute = resolve(from, path)
  const rel = relative(from, absolute)
  if (rel === '') return '.'
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return absolute
  return rel
}
