import { z } from 'zod'
import { isObject } from '../common/primitives.js'
import { valueAt } from '../common/json-path.js'
import type { JsonSchemaSource } from '../contract/kind.js'
import type { KindRegistry } from './registry.js'

/** A JSON Schema document (draft 2020-12). */
export type JsonSchema = Record<string, unknown>

/** Every kind's schema files, in the registry's order, by file name. */
function schemaSources(kinds: KindRegistry): Map<string, JsonSchemaSource> {
  return new Map(kinds.kinds.flatMap((kind) => kind.schemas.jsonSchemas.map((source) => [source.name, source] as const)))
}

/** The file name of a fixture file's JSON Schema: `rubric.schema.json`, `scored-cases.schema.json`, … */
export type FixtureSchemaName = string

/** The schema file names of the registry's kinds, in its order. */
export function schemaNamesOf(kinds: KindRegistry): readonly FixtureSchemaName[] {
  return [...schemaSources(kinds).keys()]
}

/**
 * The JSON Schemas (draft 2020-12) that editors validate fixture files against, generated from the
 * zod schemas that loading uses, by file name. Each file is checked on its own: stricter than
 * loading where loading refuses a single case instead of the file, and silent on what only the
 * fixture as a whole can tell (hashes, excerpts, references between files). Keywords come in a
 * fixed order, so the same schemas always serialize to the same bytes.
 */
export function jsonSchemasOf(kinds: KindRegistry): Record<FixtureSchemaName, JsonSchema> {
  const entries = [...schemaSources(kinds).values()].map(({ name, schema, title, description }) => {
    const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' })
    const ordered = orderKeywords(discriminate({ ...generated, title, description }))
    return [name, isObject(ordered) ? ordered : {}] as const
  })
  return Object.fromEntries(entries)
}

/** A schema as its file holds it: two-space indentation and a final newline. */
export function formatJsonSchema(schema: JsonSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`
}

/**
 * zod writes a discriminated union as `oneOf`, so a validator that cannot tell which member was
 * meant reports the errors of every member. Rewritten as one `if`/`then` per member, keyed on the
 * discriminator, an unknown discriminator is one error at its own path and a known one shows only
 * its member's errors.
 */
export function discriminate(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(discriminate)
  if (typeof schema !== 'object' || schema === null) return schema
  const rewritten = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, discriminate(value)]))
  const { oneOf, ...rest } = rewritten
  const members: readonly unknown[] = Array.isArray(oneOf) ? oneOf : []
  const key = members.length > 1 ? discriminatorOf(members) : undefined
  if (key === undefined) return rewritten
  const values = members.map((member) => constOf(member, key))
  return {
    ...rest,
    type: 'object',
    properties: { [key]: values.every((value) => typeof value === 'string') ? { type: 'string', enum: values } : { enum: values } },
    required: [key],
    allOf: members.map((member, index) => ({ if: { properties: { [key]: { const: values[index] } }, required: [key] }, then: member })),
  }
}

/** The property every member requires with a constant value of its own, if there is one. */
function discriminatorOf(members: readonly unknown[]): string | undefined {
  const first = valueAt(members[0], ['properties'])
  if (typeof first !== 'object' || first === null) return undefined
  return Object.keys(first).find((key) => {
    const values = members.map((member) => constOf(member, key))
    return values.every((value) => value !== undefined) && new Set(values).size === values.length
  })
}

function constOf(member: unknown, key: string): unknown {
  const required = valueAt(member, ['required'])
  if (!Array.isArray(required) || !required.includes(key)) return undefined
  return valueAt(member, ['properties', key, 'const'])
}

// Identification and documentation first, then the type and its constraints, then what applies
// to members; keywords not listed follow in alphabetical order.
const KEYWORD_ORDER = [
  '$schema',
  '$id',
  'title',
  'description',
  'type',
  'const',
  'enum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'prefixItems',
  'items',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'properties',
  'required',
  'additionalProperties',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
]
const RANK = new Map(KEYWORD_ORDER.map((keyword, index) => [keyword, index]))

/** Keywords whose value is a schema, or an array of schemas. */
const SUBSCHEMA = new Set(['items', 'additionalProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else', 'prefixItems', 'allOf', 'anyOf', 'oneOf'])
/** Keywords whose value maps names to schemas: the names keep their order (a file's key order). */
const SUBSCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas'])

/** Puts the keywords of a schema and of every subschema in a fixed order (see {@link KEYWORD_ORDER}). */
export function orderKeywords(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(orderKeywords)
  if (!isObject(schema)) return schema
  const keywords = Object.keys(schema).sort(compareKeywords)
  return Object.fromEntries(
    keywords.map((keyword) => {
      const value = schema[keyword]
      if (SUBSCHEMA.has(keyword)) return [keyword, orderKeywords(value)]
      if (SUBSCHEMA_MAP.has(keyword)) {
        return [keyword, Object.fromEntries(Object.entries(isObject(value) ? value : {}).map(([name, member]) => [name, orderKeywords(member)]))]
      }
      return [keyword, value] // data: enum, const, required, …
    }),
  )
}

function compareKeywords(a: string, b: string): number {
  const rankA = RANK.get(a) ?? KEYWORD_ORDER.length
  const rankB = RANK.get(b) ?? KEYWORD_ORDER.length
  // The keys of one object are distinct: two unranked keywords are never equal.
  return rankA !== rankB ? rankA - rankB : a < b ? -1 : 1
}
