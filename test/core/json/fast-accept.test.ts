import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { acceptFor, compileAccept, safeParseFast } from '../../../src/core/json/fast-accept.js'
import { KINDS } from '../../../src/core/registry.js'

const read = (path: string): Record<string, unknown[]> => JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8'))
const criteria = KINDS.criteria
const scored = KINDS.scored

/** Every case and review of the bundled fixtures, with the schema that checks it when a fixture is evaluated. */
const SAMPLES: readonly { readonly name: string; readonly schema: z.ZodType; readonly value: unknown }[] = [
  ...read('fixtures/docuctl-rollback/cases.json')['cases']!.map((value) => ({ name: 'criteria case', schema: criteria.schemas.case, value })),
  ...read('fixtures/docuctl-rollback/annotations.json')['reviews']!.map((value) => ({
    name: 'criteria review',
    schema: criteria.schemas.review('review'),
    value,
  })),
  ...read('fixtures/debate-benchmark/cases.json')['cases']!.map((value) => ({ name: 'scored case', schema: scored.schemas.case, value })),
  ...read('fixtures/debate-benchmark/annotations.json')['reviews']!.map((value) => {
    const system = (value as { system: string }).system
    return { name: `scored ${system} review`, schema: scored.schemas.review(system), value }
  }),
]

/** The paths of every value inside `value`, itself included. */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const paths = [path]
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) paths.push(...pathsOf(item, [...path, index]))
  } else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...path, key]))
  return paths
}

// Values near the edges of what the schemas allow: blank and spaced text, a digest in capitals, a
// confidence just outside 0 to 1, a non-integer round, names an object inherits.
const NEAR = fc.constantFrom<unknown>(
  '',
  ' ',
  '\u00a0\ufeff',
  'x',
  'meets',
  'uncertain',
  'debate',
  'planted',
  'A'.repeat(64),
  'a'.repeat(64),
  'a'.repeat(63),
  0,
  1,
  -0.5,
  1.5,
  0.5,
  2.5,
  2 ** 53 + 2,
  true,
  null,
  [],
  {},
)
const KEY = fc.constantFrom('constructor', 'toString', '__proto__', 'extra', 'split', 'confidence', 'final_verdict', 'id', 'rating')

type Mutation = { readonly at: number; readonly op: 'replace' | 'delete' | 'add'; readonly key: string; readonly value: unknown }
const MUTATION: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  op: fc.constantFrom('replace', 'delete', 'add'),
  key: KEY,
  value: fc.oneof({ weight: 4, arbitrary: NEAR }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }),
})

/** `value` with the mutations made, each at a path picked among those the value then has. */
function mutate(value: unknown, mutations: readonly Mutation[]): unknown {
  let copy: unknown = structuredClone(value)
  for (const { at, op, key, value: replacement } of mutations) {
    const paths = pathsOf(copy)
    const path = paths[at % paths.length]!
    if (path.length === 0) {
      if (op === 'replace') copy = replacement
      continue
    }
    const parent = path.slice(0, -1).reduce<unknown>((node, segment) => (node as Record<string | number, unknown>)[segment], copy) as Record<
      string | number,
      unknown
    >
    const last = path.at(-1)!
    if (op === 'replace') parent[last] = replacement
    else if (op === 'delete' && !Array.isArray(parent)) delete parent[last]
    else if (op === 'add' && !Array.isArray(parent))
      Object.defineProperty(parent, key, { value: replacement, enumerable: true, writable: true, configurable: true })
  }
  return copy
}

describe('the fast check of cases and reviews', () => {
  it('accepts every case and review of the bundled fixtures, so evaluating them needs no zod parse', () => {
    for (const { name, schema, value } of SAMPLES) {
      expect(acceptFor(schema), name).toBeTypeOf('function')
      expect(acceptFor(schema)!(value), name).toBe(true)
    }
  })

  it('says yes only to what the schema accepts and returns unchanged, over random edits near its edges', () => {
    let accepted = 0
    let refused = 0
    fc.assert(
      fc.property(fc.nat(SAMPLES.length - 1), fc.array(MUTATION, { minLength: 1, maxLength: 3 }), (index, mutations) => {
        const { schema, value } = SAMPLES[index]!
        const edited = mutate(value, mutations)
        const parsed = schema.safeParse(edited)
        if (acceptFor(schema)!(edited)) {
          accepted++
          expect(parsed.success).toBe(true)
          expect(parsed.data).toStrictEqual(edited)
        } else refused++
      }),
      { numRuns: 4000 },
    )
    // Both answers were given, many times: a check that always said no would prove nothing.
    expect(accepted).toBeGreaterThan(200)
    expect(refused).toBeGreaterThan(200)
  })

  it('reads a refinement through the equivalent the schema gives editors', () => {
    const verdict = z
      .string()
      .refine((text) => text.trim() !== '')
      .meta({ pattern: '\\S' })
    const accept = compileAccept(z.strictObject({ verdict: verdict.nullable().optional() }))!
    expect(accept({ verdict: 'yes' })).toBe(true)
    expect(accept({ verdict: null })).toBe(true)
    expect(accept({})).toBe(true)
    expect(accept({ verdict: ' \n' })).toBe(false)
    expect(accept({ verdict: 'yes', more: 1 })).toBe(false)
  })

  it('holds numbers to their bounds and integers to whole values', () => {
    const accept = compileAccept(z.strictObject({ round: z.int().min(1), confidence: z.number().min(0).max(1).optional() }))!
    expect(accept({ round: 1, confidence: 0 })).toBe(true)
    expect(accept({ round: 3, confidence: 1 })).toBe(true)
    expect(accept({ round: 0 })).toBe(false)
    expect(accept({ round: 1.5 })).toBe(false)
    expect(accept({ round: 1, confidence: -0.1 })).toBe(false)
    expect(accept({ round: 1, confidence: 1.01 })).toBe(false)
    expect(accept({ round: 1, confidence: Number.NaN })).toBe(false)
    expect(accept({ round: 9007199254740992 })).toBe(false)
    const any = compileAccept(z.number())!
    expect(any(-2.5)).toBe(true)
    expect(any(Number.POSITIVE_INFINITY)).toBe(false)
    expect(any(Number.NaN)).toBe(false)
  })

  it("holds a record's keys to their schema", () => {
    const schema = z.record(z.string().regex(/^c\d$/), z.number())
    const accept = compileAccept(schema)!
    expect(accept({ c1: 1, c2: 2 })).toBe(true)
    expect(schema.safeParse({ x: 1 }).success).toBe(false)
    expect(accept({ c1: 1, x: 1 })).toBe(false)
    expect(accept({ c1: 'one' })).toBe(false)
  })

  it('leaves to zod a schema that changes what it parses, or holds what the check cannot read', () => {
    expect(compileAccept(z.string().transform((text) => text.length))).toBeUndefined()
    expect(compileAccept(z.strictObject({ name: z.string().default('x') }))).toBeUndefined()
    expect(compileAccept(z.string().email())).toBeUndefined()
    // An absent optional key named like an inherited member would be read from the prototype by zod.
    expect(compileAccept(z.strictObject({ constructor: z.string().optional() }))).toBeUndefined()
  })

  it("gives the schema's own issues for a value it does not accept", () => {
    const schema = criteria.schemas.review('review')
    const review = structuredClone(read('fixtures/docuctl-rollback/annotations.json')['reviews']![0]) as Record<string, unknown>
    review['answer_sha256'] = 'A'.repeat(64)
    const parsed = safeParseFast(schema, review)
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['answer_sha256'])
  })
})
