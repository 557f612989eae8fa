import type { z } from 'zod'
import { canonicalJson, compareCodePoints } from './canonical-json.js'
import { CanonicalJsonError } from './errors.js'
import { defOf } from './zod-def.js'

/**
 * Writes the canonical JSON text of a value of a known shape, or returns `undefined` when the
 * value does not have that shape (or has no canonical form), so that the caller falls back to
 * {@link canonicalJson}, which also says what is wrong and where. Whatever it returns is exactly
 * `canonicalJson(value)`.
 */
export type CanonicalWriter = (value: unknown) => string | undefined


/**
 * Compiles a writer from a zod schema. A fixture holds many values of a few shapes; the generic
 * writer sorts the keys of every object it meets, where a strict object's keys are known, and
 * sorted, once. The schema's own checks (lengths, patterns, enums) play no part: the writer only
 * relies on types and on which keys are present, and checks those itself, so that it may be given
 * any value, valid or not.
 */
export function canonicalWriter(schema: z.core.$ZodType): CanonicalWriter {
  const write = compile(schema)
  return (value) => {
    const text = write(value)
    // JSON.stringify writes a lone surrogate as an escape (\udXXX), where the reference has no
    // text at all; a text holding such an escape (or a literal backslash before "ud") is left to
    // the generic writer, which tells the two apart. One search of the whole text spares a
    // well-formedness check of every string.
    return text !== undefined && text.includes('\\ud') ? generic(value) : text
  }
}

function compile(schema: z.core.$ZodType): CanonicalWriter {
  const def = defOf(schema)
  switch (def.type) {
    case 'string':
    case 'enum':
    case 'literal':
    case 'template_literal':
      // An enum or literal may hold a non-string; a string value is written as any string is.
      return (value) => (typeof value === 'string' ? quote(value) : generic(value))
    case 'number':
      return (value) => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : generic(value))
    case 'boolean':
      return (value) => (value === true ? 'true' : value === false ? 'false' : undefined)
    case 'optional':
      // An object writer leaves out an absent key; a key present with no value has no JSON form.
      return compile(def.innerType!)
    case 'nullable': {
      const inner = compile(def.innerType!)
      return (value) => (value === null ? 'null' : inner(value))
    }
    case 'array':
      return arrayWriter(compile(def.element!))
    case 'record':
      return recordWriter(compile(def.valueType!))
    case 'object':
      // Without a strict catchall, keys outside the shape may be present and are part of the text.
      return def.catchall?._zod.def.type === 'never' ? objectWriter(def.shape!) : generic
    default:
      return generic
  }
}

function generic(value: unknown): string | undefined {
  try {
    return canonicalJson(value)
  } catch (error) {
    if (error instanceof CanonicalJsonError) return undefined
    throw error
  }
}

// Characters JSON.stringify escapes, and surrogates: most strings hold none, and quoting them
// by hand spares a copy.
const NEEDS_CARE = /["\\\u0000-\u001f\ud800-\udfff]/

function quote(text: string): string {
  return NEEDS_CARE.test(text) ? JSON.stringify(text) : `"${text}"`
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function arrayWriter(item: CanonicalWriter): CanonicalWriter {
  return (value) => {
    if (!Array.isArray(value)) return undefined
    let out = '['
    for (let index = 0; index < value.length; index++) {
      // A hole reads as undefined, which every writer declines, as a key present with no value.
      const text = item(value[index])
      if (text === undefined) return undefined
      out += index === 0 ? text : `,${text}`
    }
    return `${out}]`
  }
}

function recordWriter(entry: CanonicalWriter): CanonicalWriter {
  return (value) => {
    if (!isPlainObject(value)) return undefined
    const keys = Object.keys(value).sort(compareCodePoints)
    let out = '{'
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!
      const text = entry(value[key])
      if (text === undefined) return undefined
      out += `${index === 0 ? '' : ','}${quote(key)}:${text}`
    }
    return `${out}}`
  }
}

function objectWriter(shape: Readonly<Record<string, z.core.$ZodType>>): CanonicalWriter {
  const fields = Object.keys(shape)
    .sort(compareCodePoints)
    .map((key) => ({ key, name: JSON.stringify(key), write: compile(shape[key]!) }))
  return (value) => {
    if (!isPlainObject(value)) return undefined
    let out = '{'
    let present = 0
    for (const { key, name, write } of fields) {
      if (!Object.hasOwn(value, key)) continue
      const text = write(value[key])
      if (text === undefined) return undefined
      out += `${present === 0 ? '' : ','}${name}:${text}`
      present++
    }
    // A key outside the shape would belong in the text: leave such a value to the generic writer.
    return Object.keys(value).length === present ? `${out}}` : undefined
  }
}
