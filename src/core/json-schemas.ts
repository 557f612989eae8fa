import { z } from 'zod'
import { AnnotationsFileSchema, CasesFileSchema, RubricSchema } from './criteria/schemas.js'
import { EvaluationRubricSchema } from './scored/rubric.js'
import { ScoredAnnotationsFileSchema, ScoredCasesFileSchema } from './scored/schemas.js'

/** A JSON Schema document (draft 2020-12). */
export type JsonSchema = Record<string, unknown>

const BOUND_ELSEWHERE = 'Hashes, excerpts and references between files are checked when the fixture is evaluated, not by this schema.'

/** Each fixture file's schema: what it is generated from and how an editor titles it. */
const FIXTURE_SCHEMAS = {
  'rubric.schema.json': {
    schema: RubricSchema,
    title: 'vitest-rubric criteria fixture: rubric.json',
    description: 'The rubric of a criteria fixture: the task it was written for and the criteria an answer must meet, each resting on a quote of source.txt.',
  },
  'cases.schema.json': {
    schema: CasesFileSchema,
    title: 'vitest-rubric criteria fixture: cases.json',
    description: `The cases of a criteria fixture: each an answer to the rubric's task, bound to the revisions of source.txt, rubric.json and its review. ${BOUND_ELSEWHERE}`,
  },
  'annotations.schema.json': {
    schema: AnnotationsFileSchema,
    title: 'vitest-rubric criteria fixture: annotations.json',
    description: `The reviews of a criteria fixture: per case, a judgement of each criterion, bound to the answer, source and rubric it judged. ${BOUND_ELSEWHERE}`,
  },
  'evaluation_rubric.schema.json': {
    schema: EvaluationRubricSchema,
    title: 'vitest-rubric scored fixture: evaluation_rubric.json',
    description: 'The rubric of a scored fixture: the dimensions with their definitions, the pass/fail rule, the thresholds and the trivial baseline.',
  },
  'scored-cases.schema.json': {
    schema: ScoredCasesFileSchema,
    title: 'vitest-rubric scored fixture: cases.json',
    description: `The cases of a scored fixture: per case, its spec, the outputs of the debate system and of the trivial baseline, and the revisions it is bound to. ${BOUND_ELSEWHERE}`,
  },
  'scored-annotations.schema.json': {
    schema: ScoredAnnotationsFileSchema,
    title: 'vitest-rubric scored fixture: annotations.json',
    description: `The reviews of a scored fixture: per case and system, the reviewer's itemized judgement of the output. ${BOUND_ELSEWHERE}`,
  },
} as const

/** The file name of each fixture file's JSON Schema. */
export type FixtureSchemaName = keyof typeof FIXTURE_SCHEMAS

/** The six schema file names, criteria kind first. */
export const FIXTURE_SCHEMA_NAMES = Object.keys(FIXTURE_SCHEMAS) as readonly FixtureSchemaName[]

/**
 * The JSON Schemas (draft 2020-12) that editors validate fixture files against, generated from the
 * zod schemas that loading uses, by file name. Each file is checked on its own: stricter than
 * loading where loading refuses a single case instead of the file, and silent on what only the
 * fixture as a whole can tell (hashes, excerpts, references between files). Keywords come in a
 * fixed order, so the same schemas always serialize to the same bytes.
 */
export function fixtureJsonSchemas(): Record<FixtureSchemaName, JsonSchema> {
  const entries = FIXTURE_SCHEMA_NAMES.map((name) => {
    const { schema, title, description } = FIXTURE_SCHEMAS[name]
    const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' })
    return [name, orderKeywords(discriminate({ ...generated, title, description }))] as const
  })
  return Object.fromEntries(entries) as Record<FixtureSchemaName, JsonSchema>
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
  const members = Array.isArray(oneOf) ? (oneOf as unknown[]) : []
  const key = members.length > 1 ? discriminatorOf(members as JsonSchema[]) : undefined
  if (key === undefined) return rewritten
  const values = members.map((member) => constOf(member as JsonSchema, key))
  return {
    ...rest,
    type: 'object',
    properties: { [key]: values.every((value) => typeof value === 'string') ? { type: 'string', enum: values } : { enum: values } },
    required: [key],
    allOf: members.map((member, index) => ({ if: { properties: { [key]: { const: values[index] } }, required: [key] }, then: member })),
  }
}

/** The property every member requires with a constant value of its own, if there is one. */
function discriminatorOf(members: readonly JsonSchema[]): string | undefined {
  const first = members[0]?.['properties']
  if (typeof first !== 'object' || first === null) return undefined
  return Object.keys(first).find((key) => {
    const values = members.map((member) => constOf(member, key))
    return values.every((value) => value !== undefined) && new Set(values).size === values.length
  })
}

function constOf(member: JsonSchema, key: string): unknown {
  const required = member['required']
  const properties = member['properties'] as Record<string, JsonSchema> | undefined
  if (!Array.isArray(required) || !required.includes(key)) return undefined
  return properties?.[key]?.['const']
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
  if (typeof schema !== 'object' || schema === null) return schema
  const keywords = Object.keys(schema).sort(compareKeywords)
  return Object.fromEntries(
    keywords.map((keyword) => {
      const value = (schema as Record<string, unknown>)[keyword]
      if (SUBSCHEMA.has(keyword)) return [keyword, orderKeywords(value)]
      if (SUBSCHEMA_MAP.has(keyword)) {
        return [keyword, Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, member]) => [name, orderKeywords(member)]))]
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
