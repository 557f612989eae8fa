import { z } from 'zod'
import { safeParseReporting } from './schema-error.js'

/** A check that says yes only to a value its schema accepts as it is; `false` means "ask the schema". */
export type Accept = (value: unknown) => boolean

/**
 * A fast check of values against a zod schema, compiled from the schema's JSON Schema
 * (`z.toJSONSchema`, the public conversion editors' schemas come from), or `undefined` when the
 * schema holds anything the compiler does not know, or anything that changes a value (a transform,
 * a default): then every value is the schema's to parse.
 *
 * It answers for the values most fixtures hold, valid ones, at a fraction of a zod parse and with
 * no copy of the value. It is one-sided: `true` only for a value the schema accepts and returns
 * unchanged, so that the value itself can stand for the parse's output. `false` proves nothing; the
 * caller then parses with zod, whose issues the messages are made of. A refinement has no JSON
 * Schema of its own, so every refinement of a schema read here carries its equivalent for editors
 * in `.meta()` (a pattern, an enum): that is what the check reads. String lengths are counted in
 * UTF-16 units, as zod counts them, not in code points as JSON Schema would.
 */
export function compileAccept(schema: z.ZodType): Accept | undefined {
  let json: unknown
  try {
    json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'throw' })
  } catch {
    return undefined
  }
  return compileNode(json)
}

const compiled = new WeakMap<z.ZodType, Accept | null>()

/** {@link compileAccept}, compiled once per schema. */
export function acceptFor(schema: z.ZodType): Accept | undefined {
  let accept = compiled.get(schema)
  if (accept === undefined) {
    accept = compileAccept(schema) ?? null
    compiled.set(schema, accept)
  }
  return accept ?? undefined
}

// Keywords that only describe: they constrain nothing.
const ANNOTATIONS = new Set(['$schema', 'title', 'description', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly'])

function compileNode(node: unknown): Accept | undefined {
  if (node === true) return () => true
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined
  const keywords = new Map(Object.entries(node).filter(([key]) => !ANNOTATIONS.has(key)))
  const take = (key: string): unknown => {
    const value = keywords.get(key)
    keywords.delete(key)
    return value
  }
  const type = take('type')
  const typeName = typeof type === 'string' ? type : undefined
  const typeCheck = typeName === undefined ? undefined : TYPES[typeName]
  if (type !== undefined && typeCheck === undefined) return undefined

  // A type's own keywords make one check that also checks the type, so that a string, an object or
  // an array costs one call: most of a fixture's values are checked by exactly one of them.
  const literals = [constCheck(keywords.has('const'), take('const')), enumCheck(keywords.has('enum'), take('enum'))]
  const string = stringCheck(typeName === 'string', take('minLength'), take('maxLength'), take('pattern'))
  const number = numberCheck(
    typeName === 'number' || typeName === 'integer' ? typeCheck : undefined,
    take('minimum'),
    take('maximum'),
    take('exclusiveMinimum'),
    take('exclusiveMaximum'),
  )
  if ([...literals, string, number].includes(INVALID)) return undefined

  const items = take('items')
  const minItems = take('minItems')
  const maxItems = take('maxItems')
  const array =
    items !== undefined || minItems !== undefined || maxItems !== undefined || typeName === 'array'
      ? arrayCheck(typeName === 'array', items, minItems, maxItems)
      : null
  if (array === undefined) return undefined

  const properties = take('properties')
  const required = take('required')
  const additional = take('additionalProperties')
  const names = take('propertyNames')
  const object =
    properties !== undefined || required !== undefined || additional !== undefined || names !== undefined || typeName === 'object'
      ? objectCheck(typeName === 'object', properties, required, additional, names)
      : null
  if (object === undefined) return undefined

  const checks: Accept[] = []
  const typed = (typeName === 'string' && string) || ((typeName === 'number' || typeName === 'integer') && number) || array || object
  if (typeCheck !== undefined && !typed) checks.push(typeCheck)
  for (const check of [...literals, string, number, array, object]) if (check !== undefined && check !== null) checks.push(check)

  const anyOf = take('anyOf')
  const oneOf = take('oneOf')
  if (anyOf !== undefined || oneOf !== undefined) {
    const members = compileList(anyOf ?? oneOf)
    if (members === undefined || (anyOf !== undefined && oneOf !== undefined)) return undefined
    // oneOf: exactly one member holds, as JSON Schema asks; zod's union then takes that member.
    checks.push(anyOf !== undefined ? (value) => members.some((member) => member(value)) : (value) => members.filter((member) => member(value)).length === 1)
  }
  // Anything else (a default, a reference, a format, a condition) is not read here: the schema parses.
  if (keywords.size > 0) return undefined
  if (checks.length === 0) return () => true
  if (checks.length === 1) return checks[0]
  return (value) => {
    for (const check of checks) if (!check(value)) return false
    return true
  }
}

/** A keyword's value that the compiler cannot read: the whole schema is then left to zod. */
const INVALID: Accept = () => false

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

const TYPES: Readonly<Record<string, Accept>> = {
  string: (value) => typeof value === 'string',
  // zod refuses NaN and the infinities, which JSON cannot hold either.
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  integer: (value) => typeof value === 'number' && Number.isSafeInteger(value),
  boolean: (value) => typeof value === 'boolean',
  null: (value) => value === null,
  array: (value) => Array.isArray(value),
  object: isPlainObject,
}

/** Literals only: a constant object or array is left to zod. */
const isLiteral = (value: unknown): boolean => value === null || ['string', 'number', 'boolean'].includes(typeof value)

function constCheck(present: boolean, value: unknown): Accept | undefined {
  if (!present) return undefined
  if (!isLiteral(value)) return INVALID
  return (candidate) => candidate === value
}

function enumCheck(present: boolean, values: unknown): Accept | undefined {
  if (!present) return undefined
  if (!Array.isArray(values) || !values.every(isLiteral)) return INVALID
  const allowed = new Set<unknown>(values)
  return (candidate) => allowed.has(candidate)
}

function stringCheck(typed: boolean, minLength: unknown, maxLength: unknown, pattern: unknown): Accept | undefined {
  if (minLength === undefined && maxLength === undefined && pattern === undefined) return undefined
  if ((minLength !== undefined && !Number.isSafeInteger(minLength)) || (maxLength !== undefined && !Number.isSafeInteger(maxLength))) return INVALID
  let regex: RegExp | undefined
  if (pattern !== undefined) {
    if (typeof pattern !== 'string') return INVALID
    try {
      regex = new RegExp(pattern)
    } catch {
      return INVALID
    }
  }
  const min = typeof minLength === 'number' ? minLength : 0
  const max = typeof maxLength === 'number' ? maxLength : Number.POSITIVE_INFINITY
  const holds = (value: string) => value.length >= min && value.length <= max && (regex === undefined || regex.test(value))
  // Keywords of one type apply to that type only: a number passes a string's pattern unless the type is string.
  return typed ? (value) => typeof value === 'string' && holds(value) : (value) => typeof value !== 'string' || holds(value)
}

function numberCheck(type: Accept | undefined, minimum: unknown, maximum: unknown, exclusiveMinimum: unknown, exclusiveMaximum: unknown): Accept | undefined {
  const bounds = [minimum, maximum, exclusiveMinimum, exclusiveMaximum]
  if (bounds.every((bound) => bound === undefined)) return undefined
  if (!bounds.every((bound) => bound === undefined || typeof bound === 'number')) return INVALID
  const [low, high, lowOpen, highOpen] = bounds.map((bound) => (typeof bound === 'number' ? bound : undefined))
  const holds = (value: number) =>
    (low === undefined || value >= low) &&
    (high === undefined || value <= high) &&
    (lowOpen === undefined || value > lowOpen) &&
    (highOpen === undefined || value < highOpen)
  return type !== undefined ? (value) => typeof value === 'number' && type(value) && holds(value) : (value) => typeof value !== 'number' || holds(value)
}

function arrayCheck(typed: boolean, items: unknown, minItems: unknown, maxItems: unknown): Accept | undefined {
  const item = items === undefined ? undefined : compileNode(items)
  if (items !== undefined && item === undefined) return undefined
  if ((minItems !== undefined && !Number.isSafeInteger(minItems)) || (maxItems !== undefined && !Number.isSafeInteger(maxItems))) return undefined
  const min = typeof minItems === 'number' ? minItems : 0
  const max = typeof maxItems === 'number' ? maxItems : Number.POSITIVE_INFINITY
  return (value) => {
    if (!Array.isArray(value)) return !typed
    if (value.length < min || value.length > max) return false
    for (let index = 0; index < value.length; index++) {
      // A hole is no JSON value: the schema decides.
      if (!(index in value) || (item !== undefined && !item(value[index]))) return false
    }
    return true
  }
}

/** A property the schema names: its check, and whether it is required. */
interface Property {
  readonly check: Accept
  readonly required: boolean
}

function objectCheck(typed: boolean, properties: unknown, required: unknown, additional: unknown, names: unknown): Accept | undefined {
  const shape = properties === undefined ? {} : properties
  if (!isPlainObject(shape)) return undefined
  const requiredKeys = required === undefined ? [] : required
  if (!Array.isArray(requiredKeys) || !requiredKeys.every((key) => typeof key === 'string')) return undefined
  const known = new Map<string, Property>()
  for (const [key, node] of Object.entries(shape)) {
    // zod reads a property as `value[key]`: an absent optional key named like a member of every
    // object (`constructor`, `toString`) would be read from the prototype, so it is left to zod.
    if (key in Object.prototype) return undefined
    const check = compileNode(node)
    if (check === undefined) return undefined
    known.set(key, { check, required: requiredKeys.includes(key) })
  }
  if (requiredKeys.some((key) => !known.has(key)) || new Set(requiredKeys).size !== requiredKeys.length) return undefined
  const others = additional === undefined ? () => true : additional === false ? () => false : compileNode(additional)
  if (others === undefined) return undefined
  const name = names === undefined ? undefined : compileNode(names)
  if (names !== undefined && name === undefined) return undefined
  const requiredCount = requiredKeys.length
  return (value) => {
    if (!isPlainObject(value)) return !typed
    // Own keys only; each required one is counted as it is met.
    const keys = Object.keys(value)
    let met = 0
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!
      const member = value[key]
      if (name !== undefined && !name(key)) return false
      const property = known.get(key)
      if (property === undefined) {
        if (!others(member)) return false
        continue
      }
      // An own key holding undefined is no JSON; zod would read it as absent.
      if (member === undefined || !property.check(member)) return false
      if (property.required) met++
    }
    return met === requiredCount
  }
}

function compileList(nodes: unknown): Accept[] | undefined {
  if (!Array.isArray(nodes) || nodes.length === 0) return undefined
  const members: Accept[] = []
  for (const node of nodes) {
    const member = compileNode(node)
    if (member === undefined) return undefined
    members.push(member)
  }
  return members
}

/**
 * `schema.safeParse(value)` as {@link safeParseReporting} gives it, answered without a parse when
 * the schema's {@link acceptFor} check accepts the value: its output is then the value itself, not
 * a copy. For the hot paths that check every case and review of a fixture.
 */
export function safeParseFast<T extends z.ZodType>(schema: T, value: unknown): ReturnType<T['safeParse']> {
  const accept = acceptFor(schema)
  // Cast: a value the compiled check accepts is one the schema accepts and returns unchanged (compileAccept), so it is the parse's data.
  if (accept?.(value) === true) return { success: true, data: value } as ReturnType<T['safeParse']>
  return safeParseReporting(schema, value)
}
