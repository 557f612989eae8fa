import { z } from 'zod'
import { UsageError } from '../core/common/errors.js'
import { formatLocation } from '../core/common/json-path.js'
import { closestName } from '../core/common/suggest.js'

// How a failed validation of rubric()'s options is reported: an unknown key by name with the key it
// most likely meant, and a value that matched no option of a union by the option of its shape.

const OPTIONS_HINT = 'see the options of rubric() in docs/plugin.md.'

/**
 * An unknown key is named first, with the key it most likely meant: `judges › j › minkappa` would
 * otherwise be reported as a missing `minKappa`, which hides the typo.
 */
export function refuseUnknownKey(schema: z.ZodType, issues: readonly z.core.$ZodIssue[]): void {
  for (const issue of withinUnions(issues)) {
    if (issue.code !== 'unrecognized_keys') continue
    const path = issue.path.map((key) => (typeof key === 'number' ? key : String(key)))
    const known = keysAt(schema, path)
    const [key] = issue.keys
    const meant = key === undefined ? undefined : closestName(key, known)
    throw new UsageError({
      code: 'USAGE',
      file: formatLocation('rubric() options', [...path, ...(key === undefined ? [] : [key])]),
      summary: `unknown key ${JSON.stringify(key)}${meant === undefined ? '' : ` (did you mean ${JSON.stringify(meant)}?)`}.`,
      expected: known.length === 0 ? undefined : `one of ${known.map((name) => JSON.stringify(name)).join(', ')}`,
      hint: meant === undefined ? OPTIONS_HINT : `write ${JSON.stringify(meant)}; ${OPTIONS_HINT}`,
    })
  }
}

/**
 * A value that matched no option of a union is reported by the one option of its shape (a gate
 * object rather than a list of them), with that option's own issues; when no option or several
 * are of its shape, by the union's message.
 */
export function unwrapUnions(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union') return [issue]
    const shaped = issue.errors.filter((option) => !option.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0))
    if (shaped.length !== 1) return [issue]
    return unwrapUnions(shaped[0]!.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })))
  })
}

/** The issues and, for a value that matched no option of a union, each option's issues, at their full paths. */
function withinUnions(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) =>
    issue.code === 'invalid_union'
      ? [issue, ...withinUnions(issue.errors.flatMap((option) => option.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }))))]
      : [issue],
  )
}

/** The keys an object of the options schema may have at `path`, read through optional values, unions and records. */
function keysAt(schema: z.ZodType, path: readonly (string | number)[]): string[] {
  // Cast: zod types the parts of a classic schema with its core types; every part here is a classic schema.
  if (schema instanceof z.ZodOptional) return keysAt(schema.unwrap() as z.ZodType, path)
  // Cast: as above, for the options of a union.
  if (schema instanceof z.ZodUnion) return [...new Set((schema.options as readonly z.ZodType[]).flatMap((option) => keysAt(option, path)))]
  // Cast: as above, for the elements of an array.
  if (schema instanceof z.ZodArray) return path.length === 0 ? [] : keysAt(schema.element as z.ZodType, path.slice(1))
  // Cast: as above, for the values of a record.
  if (schema instanceof z.ZodRecord) return path.length === 0 ? [] : keysAt(schema.valueType as z.ZodType, path.slice(1))
  if (schema instanceof z.ZodObject) {
    // Cast: as above, for the properties of an object.
    const shape = schema.shape as Record<string, z.ZodType>
    if (path.length === 0) return Object.keys(shape)
    const next = shape[String(path[0])]
    return next === undefined ? [] : keysAt(next, path.slice(1))
  }
  return []
}
