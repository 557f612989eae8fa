import { VERDICT_SPACE } from '../../../src/core/kinds/scored/dimensions/verdict.js'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { AnnotationsFileSchema, CasesEnvelopeSchema, CasesFileSchema, RubricSchema } from '../../../src/core/kinds/criteria/schemas.js'
import { discriminate, formatJsonSchema, orderKeywords, type JsonSchema } from '../../../src/core/engine/json-schemas.js'
import { FIXTURE_SCHEMA_NAMES, fixtureJsonSchemas } from '../../../src/core/registry.js'
import { ScoredAnnotationsFileSchema, ScoredCasesEnvelopeSchema, ScoredCasesFileSchema } from '../../../src/core/kinds/scored/schemas.js'
import { DOCUCTL, ROOT } from '../../helpers/fixture-copy.js'
import { schemaNamed, validatorFor, type Violation } from '../../helpers/json-schema.js'
import { DEBATE } from '../../helpers/scored-copy.js'
import { bindText } from '../kinds/scored/rubric-file.js'

const SCHEMAS = fixtureJsonSchemas()

/** The six schema files, criteria kind first: what the kinds' definitions name. */
const SCHEMA_NAMES = [
  'rubric.schema.json',
  'cases.schema.json',
  'annotations.schema.json',
  'evaluation_rubric.schema.json',
  'scored-cases.schema.json',
  'scored-annotations.schema.json',
] as const
type SchemaName = (typeof SCHEMA_NAMES)[number]

/** The generated schema of that name; a name no kind defines is a failed test, not `undefined`. */
function schemaOf(name: SchemaName, schemas: Record<string, JsonSchema> = SCHEMAS): JsonSchema {
  return schemaNamed(schemas, name)
}

/** The bundled file each schema is for. */
const BUNDLED: Record<SchemaName, string> = {
  'rubric.schema.json': join(DOCUCTL, 'rubric.json'),
  'cases.schema.json': join(DOCUCTL, 'cases.json'),
  'annotations.schema.json': join(DOCUCTL, 'annotations.json'),
  'evaluation_rubric.schema.json': join(DEBATE, 'evaluation_rubric.json'),
  'scored-cases.schema.json': join(DEBATE, 'cases.json'),
  'scored-annotations.schema.json': join(DEBATE, 'annotations.json'),
}

/** Whether vitest-rubric's own checks of the file as a whole accept a document. */
const RUNTIME_ACCEPTS: Record<SchemaName, (document: unknown) => boolean> = {
  'rubric.schema.json': (document) => RubricSchema.safeParse(document).success,
  'cases.schema.json': (document) => CasesFileSchema.safeParse(document).success,
  'annotations.schema.json': (document) => AnnotationsFileSchema.safeParse(document).success,
  'evaluation_rubric.schema.json': (document) => {
    try {
      bindText(JSON.stringify(document))
      return true
    } catch {
      return false
    }
  },
  'scored-cases.schema.json': (document) => ScoredCasesFileSchema.safeParse(document).success,
  'scored-annotations.schema.json': (document) => ScoredAnnotationsFileSchema.safeParse(document).success,
}

function bundled(name: SchemaName): unknown {
  return JSON.parse(readFileSync(BUNDLED[name], 'utf8'))
}

const REMOVE = Symbol('remove')

/** A copy of a bundled file with the value at `path` replaced (or removed). */
function edited(name: SchemaName, path: readonly (string | number)[], value: unknown): unknown {
  const document = bundled(name)
  let parent = document as Record<string | number, unknown>
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
  const last = path.at(-1)!
  if (value === REMOVE) delete parent[last]
  else parent[last] = value
  return document
}

describe('the six JSON Schemas', () => {
  test('are named for the files they describe, criteria kind first', () => {
    expect(FIXTURE_SCHEMA_NAMES).toEqual(SCHEMA_NAMES)
    expect(Object.keys(SCHEMAS)).toEqual(FIXTURE_SCHEMA_NAMES)
  })

  test.each(SCHEMA_NAMES)('%s is draft 2020-12 with a title and a description first, and no $id', (name) => {
    const schema = schemaOf(name)
    expect(Object.keys(schema).slice(0, 4)).toEqual(['$schema', 'title', 'description', 'type'])
    expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(schema['title']).toMatch(/^vitest-rubric (criteria|scored) fixture: \w+\.json$/)
    expect(String(schema['description']).length).toBeGreaterThan(40)
    expect(formatJsonSchema(schema)).not.toContain('"$id"')
    // A strict validator compiles it: no unknown keyword, nothing malformed.
    expect(() => validatorFor(schema)).not.toThrow()
  })

  test('serialize to the same bytes every time', () => {
    const again = fixtureJsonSchemas()
    for (const name of SCHEMA_NAMES) expect(formatJsonSchema(schemaOf(name, again))).toBe(formatJsonSchema(schemaOf(name)))
  })

  test('describe the main fields for hover documentation', () => {
    const rubric = schemaOf('rubric.schema.json') as { properties: Record<string, { description?: string }> }
    for (const key of ['$schema', 'id', 'version', 'task', 'acceptance', 'ratings', 'criteria']) {
      expect(rubric.properties[key]?.description, key).toEqual(expect.any(String))
    }
    expect(rubric.properties['$schema']?.description).toBe('The JSON Schema editors validate this file against; ignored by evaluation.')
    const text = formatJsonSchema(schemaOf('annotations.schema.json'))
    expect(text).toContain('"description": "The criterion\'s reference_quote, exactly as rubric.json gives it."')
  })
})

describe('the schemas committed in src/schemas', () => {
  test('are the ones the zod schemas generate now', () => {
    const dir = join(ROOT, 'src/schemas')
    const stale = Object.entries(SCHEMAS)
      .filter(([name, schema]) => {
        const committed = readdirSync(dir).includes(name) ? readFileSync(join(dir, name), 'utf8') : undefined
        return committed !== formatJsonSchema(schema)
      })
      .map(([name]) => name)
    const extra = readdirSync(dir).filter((name) => !FIXTURE_SCHEMA_NAMES.includes(name))
    expect(
      { stale, extra },
      'src/schemas differs from the zod schemas: run `npm run schemas`, delete any file it no longer writes, and commit the result',
    ).toEqual({ stale: [], extra: [] })
  })
})

test('the whole-file schemas and loading agree on an empty case list', () => {
  // Loading checks the envelope; the whole-file schemas exist for editors and must follow it.
  const criteria = { name: 'n', task: 't', cases: [] }
  expect(CasesFileSchema.safeParse(criteria).success).toBe(CasesEnvelopeSchema.safeParse(criteria).success)
  const scored = { name: 'n', cases: [] }
  expect(ScoredCasesFileSchema.safeParse(scored).success).toBe(ScoredCasesEnvelopeSchema.safeParse(scored).success)
  expect(validatorFor(schemaOf('cases.schema.json'))(criteria).length === 0).toBe(CasesEnvelopeSchema.safeParse(criteria).success)
  expect(validatorFor(schemaOf('scored-cases.schema.json'))(scored).length === 0).toBe(ScoredCasesEnvelopeSchema.safeParse(scored).success)
})

describe('the bundled fixtures', () => {
  test.each(SCHEMA_NAMES)('validate against %s, as vitest-rubric accepts them', (name) => {
    const document = bundled(name)
    expect(validatorFor(schemaOf(name))(document)).toEqual([])
    expect(RUNTIME_ACCEPTS[name](document)).toBe(true)
  })

  test.each(['cases.schema.json', 'annotations.schema.json', 'scored-cases.schema.json', 'scored-annotations.schema.json'] as const)(
    'the bundled file for %s names that committed schema in $schema',
    (name) => {
      const { $schema } = bundled(name) as { $schema?: string }
      expect($schema).toBe(`../../src/schemas/${name}`)
      // What an editor opens, relative to the fixture file: the schema itself.
      expect(readFileSync(resolve(dirname(BUNDLED[name]), $schema!), 'utf8')).toBe(formatJsonSchema(schemaOf(name)))
    },
  )
})

interface Malformed {
  readonly what: string
  readonly schema: SchemaName
  readonly path: readonly (string | number)[]
  readonly value: unknown
  /** A violation reported at the defect's own path (the first path reported). */
  readonly expected: Violation
}

const MALFORMED: readonly Malformed[] = [
  {
    what: 'a rating that is none of the three',
    schema: 'annotations.schema.json',
    path: ['reviews', 0, 'judgements', 'command', 'rating'],
    value: 'maybe',
    expected: { instancePath: '/reviews/0/judgements/command/rating', keyword: 'enum', params: { allowedValues: ['meets', 'does_not_meet', 'uncertain'] } },
  },
  {
    what: 'a short hash in a case',
    schema: 'cases.schema.json',
    path: ['cases', 3, 'expected', 'review_sha256'],
    value: 'abc123',
    expected: { instancePath: '/cases/3/expected/review_sha256', keyword: 'pattern', params: { pattern: '^[0-9a-f]{64}$' } },
  },
  {
    what: 'an uppercase hash in a review',
    schema: 'annotations.schema.json',
    path: ['reviews', 1, 'answer_sha256'],
    value: 'A'.repeat(64),
    expected: { instancePath: '/reviews/1/answer_sha256', keyword: 'pattern', params: { pattern: '^[0-9a-f]{64}$' } },
  },
  {
    what: 'an unknown key in a case',
    schema: 'cases.schema.json',
    path: ['cases', 2, 'input', 'context'],
    value: 'extra',
    expected: { instancePath: '/cases/2/input', keyword: 'additionalProperties', params: { additionalProperty: 'context' } },
  },
  {
    what: 'an unknown key at the top of the file',
    schema: 'annotations.schema.json',
    path: ['reviewer'],
    value: 'someone',
    expected: { instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'reviewer' } },
  },
  {
    what: 'a missing required key',
    schema: 'rubric.schema.json',
    path: ['task'],
    value: REMOVE,
    expected: { instancePath: '', keyword: 'required', params: { missingProperty: 'task' } },
  },
  {
    what: 'a judgement without its reason',
    schema: 'annotations.schema.json',
    path: ['reviews', 2, 'judgements', 'support', 'reason'],
    value: REMOVE,
    expected: { instancePath: '/reviews/2/judgements/support', keyword: 'required', params: { missingProperty: 'reason' } },
  },
  {
    what: 'a rating listed twice in the rubric',
    schema: 'rubric.schema.json',
    path: ['ratings'],
    value: ['meets', 'meets', 'uncertain'],
    expected: { instancePath: '/ratings', keyword: 'uniqueItems', params: { i: 0, j: 1 } },
  },
  {
    what: 'a rating left out of the rubric',
    schema: 'rubric.schema.json',
    path: ['ratings'],
    value: ['meets', 'does_not_meet'],
    expected: { instancePath: '/ratings', keyword: 'minItems', params: { limit: 3 } },
  },
  {
    what: 'an unknown rating in the rubric',
    schema: 'rubric.schema.json',
    path: ['ratings', 2],
    value: 'maybe',
    expected: { instancePath: '/ratings/2', keyword: 'enum', params: { allowedValues: ['meets', 'does_not_meet', 'uncertain'] } },
  },
  {
    what: 'an unknown split',
    schema: 'cases.schema.json',
    path: ['cases', 0, 'split'],
    value: 'test',
    expected: { instancePath: '/cases/0/split', keyword: 'enum', params: { allowedValues: ['development', 'held_out'] } },
  },
  {
    what: 'a $schema that is not a string',
    schema: 'cases.schema.json',
    path: ['$schema'],
    value: 1,
    expected: { instancePath: '/$schema', keyword: 'type', params: { type: 'string' } },
  },
  {
    what: 'a threshold above 1',
    schema: 'evaluation_rubric.schema.json',
    path: ['score_thresholds', 'overall_case_pass'],
    value: 1.5,
    expected: { instancePath: '/score_thresholds/overall_case_pass', keyword: 'maximum', params: { comparison: '<=', limit: 1 } },
  },
  {
    what: 'a threshold below 0',
    schema: 'evaluation_rubric.schema.json',
    path: ['score_thresholds', 'per_dimension_pass'],
    value: -0.1,
    expected: { instancePath: '/score_thresholds/per_dimension_pass', keyword: 'minimum', params: { comparison: '>=', limit: 0 } },
  },
  {
    what: 'a dimension vitest-rubric cannot compute',
    schema: 'evaluation_rubric.schema.json',
    path: ['scoring_dimensions', 'novelty'],
    value: 'How new the critique is.',
    expected: { instancePath: '/scoring_dimensions', keyword: 'propertyNames', params: { propertyName: 'novelty' } },
  },
  {
    what: 'no dimension',
    schema: 'evaluation_rubric.schema.json',
    path: ['scoring_dimensions'],
    value: {},
    expected: { instancePath: '/scoring_dimensions', keyword: 'minProperties', params: { limit: 1 } },
  },
  {
    what: 'a pass/fail rule that no longer states the scoreable minimum',
    schema: 'evaluation_rubric.schema.json',
    path: ['pass_fail_rule'],
    value: 'A case passes when its mean is high enough.',
    expected: { instancePath: '/pass_fail_rule', keyword: 'pattern', params: { pattern: 'at least (\\d+) of the (\\d+) dimensions are applicable' } },
  },
  {
    what: 'a blank ground-truth verdict',
    schema: 'scored-cases.schema.json',
    path: ['cases', 1, 'spec', 'ground_truth', 'final_verdict'],
    value: ' \u3000\ufeff\u0085 ',
    expected: { instancePath: '/cases/1/spec/ground_truth/final_verdict', keyword: 'pattern', params: { pattern: `[^${VERDICT_SPACE}]` } },
  },
  {
    what: 'a turn in round 0',
    schema: 'scored-cases.schema.json',
    path: ['cases', 0, 'outputs', 'debate', 'transcript', 0, 'round'],
    value: 0,
    expected: { instancePath: '/cases/0/outputs/debate/transcript/0/round', keyword: 'minimum', params: { comparison: '>=', limit: 1 } },
  },
  {
    what: 'a case without the baseline output',
    schema: 'scored-cases.schema.json',
    path: ['cases', 4, 'outputs', 'baseline'],
    value: REMOVE,
    expected: { instancePath: '/cases/4/outputs', keyword: 'required', params: { missingProperty: 'baseline' } },
  },
  {
    what: 'a scored review of an unknown system',
    schema: 'scored-annotations.schema.json',
    path: ['reviews', 0, 'system'],
    value: 'judge',
    expected: { instancePath: '/reviews/0/system', keyword: 'enum', params: { allowedValues: ['debate', 'baseline'] } },
  },
  {
    what: 'a short hash in a scored review',
    schema: 'scored-annotations.schema.json',
    path: ['reviews', 3, 'spec_sha256'],
    value: 'c49ac311',
    expected: { instancePath: '/reviews/3/spec_sha256', keyword: 'pattern', params: { pattern: '^[0-9a-f]{64}$' } },
  },
  {
    what: 'an unknown validity in a debate review',
    schema: 'scored-annotations.schema.json',
    path: ['reviews', 0, 'claims', 1, 'validity'],
    value: 'plausible',
    expected: { instancePath: '/reviews/0/claims/1/validity', keyword: 'enum', params: { allowedValues: ['planted', 'demonstrably_real', 'invalid'] } },
  },
  {
    what: 'a defense response in a baseline review',
    schema: 'scored-annotations.schema.json',
    path: ['reviews', 1, 'claims', 0, 'defense'],
    value: { response: 'concede', span: '' },
    expected: { instancePath: '/reviews/1/claims/0', keyword: 'additionalProperties', params: { additionalProperty: 'defense' } },
  },
]

describe('malformed copies are rejected where the defect is', () => {
  test.each(MALFORMED)('$what ($schema)', ({ schema, path, value, expected }) => {
    const document = edited(schema, path, value)
    const violations = validatorFor(schemaOf(schema))(document)
    expect(violations).toContainEqual(expected)
    expect(violations[0]?.instancePath).toBe(expected.instancePath)
    // Nothing else is blamed: every violation is at the defect or at an object holding it (a
    // scored review of one system never reports what the other system's review would need).
    for (const violation of violations) expect(expected.instancePath.startsWith(violation.instancePath), violation.instancePath).toBe(true)
    // The editor schema is no stricter than vitest-rubric on this point.
    expect(RUNTIME_ACCEPTS[schema](document)).toBe(false)
  })

  test('a scored review of an unknown system is one violation, not one per known system', () => {
    const violations = validatorFor(schemaOf('scored-annotations.schema.json'))(edited('scored-annotations.schema.json', ['reviews', 0, 'system'], 'judge'))
    expect(violations).toHaveLength(1)
  })

  test('the three ratings may come in any order', () => {
    const document = edited('rubric.schema.json', ['ratings'], ['uncertain', 'meets', 'does_not_meet'])
    expect(validatorFor(schemaOf('rubric.schema.json'))(document)).toEqual([])
    expect(RUNTIME_ACCEPTS['rubric.schema.json'](document)).toBe(true)
  })

  test('thresholds of exactly 0 and 1 and a null ground-truth verdict are valid', () => {
    const rubric = edited('evaluation_rubric.schema.json', ['score_thresholds'], { per_dimension_pass: 0, overall_case_pass: 1, benchmark_pass_fraction: 1 })
    expect(validatorFor(schemaOf('evaluation_rubric.schema.json'))(rubric)).toEqual([])
    const cases = edited('scored-cases.schema.json', ['cases', 0, 'spec', 'ground_truth', 'final_verdict'], null)
    expect(validatorFor(schemaOf('scored-cases.schema.json'))(cases)).toEqual([])
  })
})

describe('the keyword order of a generated schema', () => {
  /** A value's JSON text, which shows the order of the keys at every depth. */
  const keyOrder = (value: unknown): string => JSON.stringify(value)

  test('puts identification, then type and constraints, then members, then the rest alphabetically, at every depth', () => {
    const member = { zeta: 1, alpha: 2, items: { type: 'string' }, type: 'array', description: 'd' }
    const ordered = orderKeywords({
      zeta: 1,
      alpha: 2,
      oneOf: [member],
      anyOf: [member],
      allOf: [member],
      else: member,
      then: member,
      if: member,
      not: member,
      additionalProperties: member,
      required: ['b', 'a'],
      properties: { b: member, a: member },
      propertyNames: member,
      maxProperties: 3,
      minProperties: 1,
      items: member,
      prefixItems: [member],
      uniqueItems: true,
      maxItems: 2,
      minItems: 1,
      exclusiveMaximum: 9,
      maximum: 9,
      exclusiveMinimum: 0,
      minimum: 0,
      format: 'date',
      pattern: '^a',
      maxLength: 9,
      minLength: 1,
      enum: ['b', 'a'],
      const: 'c',
      type: 'object',
      description: 'd',
      title: 't',
      $id: 'i',
      $schema: 's',
      $defs: { B: member, A: member },
      contains: member,
      patternProperties: { '^z': member, '^a': member },
      dependentSchemas: { z: member, a: member },
    }) as Record<string, unknown>
    expect(Object.keys(ordered)).toEqual([
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
      'alpha',
      'contains',
      'dependentSchemas',
      'patternProperties',
      'zeta',
    ])
    const orderedMember = JSON.stringify({ description: 'd', type: 'array', items: { type: 'string' }, alpha: 2, zeta: 1 })
    // Every subschema is ordered too; names under properties, $defs, patternProperties and
    // dependentSchemas keep their order, and data (enum, required) is left as it is.
    for (const keyword of ['items', 'additionalProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else']) {
      expect(keyOrder(ordered[keyword]), keyword).toBe(orderedMember)
    }
    for (const keyword of ['prefixItems', 'allOf', 'anyOf', 'oneOf']) expect(keyOrder(ordered[keyword]), keyword).toBe(`[${orderedMember}]`)
    expect(keyOrder(ordered['properties'])).toBe(`{"b":${orderedMember},"a":${orderedMember}}`)
    expect(keyOrder(ordered['$defs'])).toBe(`{"B":${orderedMember},"A":${orderedMember}}`)
    expect(keyOrder(ordered['patternProperties'])).toBe(`{"^z":${orderedMember},"^a":${orderedMember}}`)
    expect(keyOrder(ordered['dependentSchemas'])).toBe(`{"z":${orderedMember},"a":${orderedMember}}`)
    expect(ordered['enum']).toEqual(['b', 'a'])
    expect(ordered['required']).toEqual(['b', 'a'])
    // A keyword that is data keeps an object value as it is.
    expect(keyOrder(orderKeywords({ const: { z: 1, a: 2 }, default: { z: 1, a: 2 } }))).toBe('{"const":{"z":1,"a":2},"default":{"z":1,"a":2}}')
  })
})

describe('a discriminated union in a generated schema', () => {
  const member = (system: unknown, extra: string) => ({
    type: 'object',
    properties: { system: { const: system }, [extra]: { type: 'string' } },
    required: ['system', extra],
  })

  test('becomes one if/then per member, keyed on the property each member requires with a constant of its own', () => {
    expect(discriminate({ description: 'a review', oneOf: [member('debate', 'a'), member('baseline', 'b')] })).toStrictEqual({
      description: 'a review',
      type: 'object',
      properties: { system: { type: 'string', enum: ['debate', 'baseline'] } },
      required: ['system'],
      allOf: [
        { if: { properties: { system: { const: 'debate' } }, required: ['system'] }, then: member('debate', 'a') },
        { if: { properties: { system: { const: 'baseline' } }, required: ['system'] }, then: member('baseline', 'b') },
      ],
    })
  })

  test('keys on constants of any type, inside arrays and nested schemas too', () => {
    const rewritten = discriminate({ items: [{ oneOf: [member(1, 'a'), member(2, 'b')] }] }) as { items: { properties: unknown }[] }
    expect(rewritten.items[0]!.properties).toStrictEqual({ system: { enum: [1, 2] } })
  })

  test('leaves a union alone when no property tells its members apart', () => {
    const cases = [
      { oneOf: [member('debate', 'a')] },
      { oneOf: [member('debate', 'a'), member('debate', 'b')] },
      { oneOf: [member('debate', 'a'), { ...member('baseline', 'b'), required: ['b'] }] },
      { oneOf: [member('debate', 'a'), { type: 'object', properties: { system: { type: 'string' } }, required: ['system'] }] },
      { oneOf: [{ type: 'string' }, { type: 'number' }] },
      { oneOf: 'not a list' },
      { anyOf: [member('debate', 'a'), member('baseline', 'b')] },
    ]
    for (const schema of cases) expect(discriminate(schema)).toStrictEqual(schema)
    expect(discriminate(null)).toBeNull()
    expect(discriminate('text')).toBe('text')
  })
})
