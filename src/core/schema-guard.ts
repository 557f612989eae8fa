import type { z } from 'zod'
import { defOf, type ZodDef } from './zod-def.js'

/**
 * Says whether a value certainly passes a schema: `true` only when zod would accept it and return
 * an equal value; `false` when it may fail, and zod then decides and says why.
 */
export type SchemaGuard = (value: unknown) => boolean


type CheckDef = z.core.$ZodCheckDef & {
  readonly minimum?: number
  readonly maximum?: number
  readonly value?: number | bigint
  readonly inclusive?: boolean
  readonly format?: string
  readonly pattern?: RegExp
}

const never: SchemaGuard = () => false

/**
 * Compiles a guard from a zod schema. A fixture holds one case and one review of the same few
 * shapes per case: zod checks each with a generic interpreter and returns a copy, where this
 * guard checks the same rules in place. It knows the types and checks the fixture schemas use
 * (strict objects, records, arrays, strings with a length or pattern, numbers with bounds, enums,
 * literals); for any other construct (a refinement, a union, a transform) it answers `false`, so
 * zod has the last word whenever the guard is not sure.
 */
export function schemaGuard(schema: z.core.$ZodType): SchemaGuard {
  const def = defOf(schema)
  const checks = checksGuard(def.checks ?? [])
  if (checks === undefined) return never
  const guard = typeGuard(def)
  return guard === never || checks === null ? guard : (value) => guard(value) && checks(value)
}

function typeGuard(def: ZodDef): SchemaGuard {
  switch (def.type) {
    case 'string':
      // A string format (z.email(), z.uuid(), z.iso.datetime()…) is a check on the node itself.
      return def.check === undefined ? (value) => typeof value === 'string' : never
    case 'number':
      if (def.check === 'number_format') return def.format === 'safeint' ? (value) => Number.isSafeInteger(value) : never
      return (value) => typeof value === 'number' && Number.isFinite(value)
    case 'boolean':
      return (value) => typeof value === 'boolean'
    case 'null':
      return (value) => value === null
    case 'unknown':
    case 'any':
      return () => true
    case 'literal': {
      const values = def.values ?? []
      return (value) => values.includes(value)
    }
    case 'enum': {
      const values = Object.values(def.entries ?? {})
      return (value) => values.includes(value)
    }
    case 'optional': {
      const inner = schemaGuard(def.innerType!)
      return (value) => value === undefined || inner(value)
    }
    case 'nullable': {
      const inner = schemaGuard(def.innerType!)
      return (value) => value === null || inner(value)
    }
    case 'array': {
      const element = schemaGuard(def.element!)
      return (value) => {
        if (!Array.isArray(value)) return false
        // Indexed, not every(): zod reads a hole as undefined, every() would skip it.
        for (let index = 0; index < value.length; index++) if (!element(value[index])) return false
        return true
      }
    }
    case 'record': {
      const keyDef = defOf(def.keyType!)
      if (keyDef.type !== 'string' || (keyDef.checks?.length ?? 0) > 0) return never
      const entry = schemaGuard(def.valueType!)
      return (value) => {
        if (!isPlainObject(value)) return false
        for (const key of Object.keys(value)) {
          // zod leaves "__proto__" out of the record it returns: only zod may decide such a value.
          if (key === '__proto__' || !entry(value[key])) return false
        }
        return true
      }
    }
    case 'object':
      return def.catchall?._zod.def.type === 'never' ? strictObjectGuard(def.shape!) : never
    default:
      return never
  }
}

function strictObjectGuard(shape: Readonly<Record<string, z.core.$ZodType>>): SchemaGuard {
  const fields = Object.entries(shape).map(([key, schema]) => ({
    key,
    guard: schemaGuard(schema),
    optional: schema._zod.def.type === 'optional',
  }))
  return (value) => {
    if (!isPlainObject(value)) return false
    let present = 0
    for (const { key, guard, optional } of fields) {
      if (Object.hasOwn(value, key)) {
        present++
        if (!guard(value[key])) return false
      } else if (!optional) {
        return false
      }
    }
    // Any other key is refused by a strict object.
    return Object.keys(value).length === present
  }
}

/** A guard for a node's checks; `null` when it has none; `undefined` when one is not understood. */
function checksGuard(checks: readonly z.core.$ZodCheck[]): SchemaGuard | null | undefined {
  if (checks.length === 0) return null
  const guards: SchemaGuard[] = []
  for (const check of checks) {
    const guard = checkGuard(check._zod.def as CheckDef)
    if (guard === undefined) return undefined
    guards.push(guard)
  }
  return (value) => guards.every((guard) => guard(value))
}

function checkGuard(def: CheckDef): SchemaGuard | undefined {
  // A check's `when` only ever skips it, and `abort` only stops collecting issues: applying the
  // check regardless can make the guard stricter than zod, never looser.
  switch (def.check) {
    case 'min_length':
      return (value) => lengthOf(value) >= def.minimum!
    case 'max_length':
      return (value) => lengthOf(value) <= def.maximum!
    case 'string_format':
      if (def.format !== 'regex' || def.pattern === undefined || def.pattern.global || def.pattern.sticky) return undefined
      return (value) => typeof value === 'string' && def.pattern!.test(value)
    case 'greater_than':
      return typeof def.value === 'number'
        ? (value) => typeof value === 'number' && (def.inclusive ? value >= (def.value as number) : value > (def.value as number))
        : undefined
    case 'less_than':
      return typeof def.value === 'number'
        ? (value) => typeof value === 'number' && (def.inclusive ? value <= (def.value as number) : value < (def.value as number))
        : undefined
    default:
      return undefined
  }
}

function lengthOf(value: unknown): number {
  return typeof value === 'string' || Array.isArray(value) ? value.length : Number.NaN
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}
