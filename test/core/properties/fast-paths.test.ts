import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { z } from 'zod'
import { canonicalJson } from '../../../src/core/canonical-json.js'
import { canonicalWriter } from '../../../src/core/canonical-writer.js'
import * as criteria from '../../../src/core/criteria/schemas.js'
import { CanonicalJsonError } from '../../../src/core/errors.js'
import { schemaGuard } from '../../../src/core/schema-guard.js'
import * as scored from '../../../src/core/scored/schemas.js'
import { DOCUCTL } from '../../helpers/fixture-copy.js'
import { DEBATE } from '../../helpers/scored-copy.js'
import { unicodeText } from './arbitraries.js'

// The compiled guard and writer stand in for zod and the generic writer on the values a fixture
// holds many of. Each must agree with the code it stands in for on every value, valid or not: a
// guard may say "not sure" (false) but never vouch for a value zod refuses; a writer may decline
// (undefined) but never write other text than canonicalJson.

const read = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>
const docuctlCases = read(DOCUCTL, 'cases.json')
const docuctlReviews = read(DOCUCTL, 'annotations.json')
const debateCases = read(DEBATE, 'cases.json')
const debateReviews = read(DEBATE, 'annotations.json')

/**
 * The schemas the core checks once per case, each with the bundled values of its shape, and
 * whether the guard vouches for them: a criteria fixture's cases and reviews must take the fast
 * path; a scored case's final verdict has a refinement (non-blank), so zod checks a case that has one.
 */
const SHAPES: ReadonlyArray<readonly [string, z.ZodType, readonly unknown[], boolean | 'without a final verdict']> = [
  ['criteria case', criteria.CaseSchema, docuctlCases.cases as unknown[], true],
  ['criteria answer', criteria.AnswerSchema, (docuctlCases.cases as { input: { answer: unknown } }[]).map((each) => each.input.answer), true],
  ['criteria review', criteria.ReviewSchema, docuctlReviews.reviews as unknown[], true],
  ['criteria cases file', criteria.CasesFileSchema, [docuctlCases], true],
  ['criteria annotations file', criteria.AnnotationsFileSchema, [docuctlReviews], true],
  ['scored case', scored.ScoredCaseSchema, debateCases.cases as unknown[], 'without a final verdict'],
  ['scored cases file', scored.ScoredCasesFileSchema, [debateCases], false],
  ['scored review', scored.DebateReviewSchema, (debateReviews.reviews as { system: string }[]).filter((each) => each.system === 'debate'), true],
  ['scored baseline review', scored.BaselineReviewSchema, (debateReviews.reviews as { system: string }[]).filter((each) => each.system === 'baseline'), true],
]

const scalar = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, 1, 1.5, 1e-7, 2 ** 53, Number.NaN, '', 'meets', 'a'.repeat(64), '__proto__', '\ud800'),
  fc.integer(),
  fc.double(),
  unicodeText({ maxLength: 8 }),
)
const anyValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(unicodeText({ maxLength: 6 }), fc.constantFrom('__proto__', 'text', 'id', 'rating')), tie('value'), { maxKeys: 4 }),
  ),
})).value

type Edit = { readonly at: number; readonly kind: 'delete' | 'replace' | 'add'; readonly key: string; readonly value: unknown }

const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('delete', 'replace', 'add'),
  key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'extra', '$schema'), unicodeText({ maxLength: 4 })),
  value: anyValue,
})

/** Every object and array inside a value (itself included), in a fixed order. */
function containers(value: unknown, into: object[] = []): object[] {
  if (typeof value === 'object' && value !== null) {
    into.push(value)
    for (const child of Object.values(value)) containers(child, into)
  }
  return into
}

/** A deep copy (JSON.parse keeps "__proto__" as an own key, as a fixture file's would be) with edits applied. */
function edited(value: unknown, edits: readonly Edit[]): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as unknown
  for (const { at, kind, key, value: replacement } of edits) {
    const all = containers(copy)
    if (all.length === 0) return replacement
    const target = all[at % all.length] as Record<string, unknown>
    const keys = Object.keys(target)
    const existing = keys.length === 0 ? undefined : keys[at % keys.length]!
    if (kind === 'delete' && existing !== undefined) delete target[existing]
    else if (kind === 'replace' && existing !== undefined) Object.defineProperty(target, existing, { value: replacement, enumerable: true, writable: true, configurable: true })
    else Object.defineProperty(target, Array.isArray(target) ? String(keys.length) : key, { value: replacement, enumerable: true, writable: true, configurable: true })
  }
  return copy
}

function canonicalOrUndefined(value: unknown): string | undefined {
  try {
    return canonicalJson(value)
  } catch (error) {
    if (error instanceof CanonicalJsonError) return undefined
    throw error
  }
}

describe.each(SHAPES)('the fast paths for a %s', (_, schema, bundled, vouched) => {
  const guard = schemaGuard(schema)
  const write = canonicalWriter(schema)

  test(`take every bundled value: the guard vouches for it ${vouched === true ? 'always' : vouched || 'never'}, the writer writes its canonical text`, () => {
    expect(bundled.length).toBeGreaterThan(0)
    for (const value of bundled) {
      expect(schema.safeParse(value).success).toBe(true)
      const verdict = (value as { spec: { ground_truth: { final_verdict?: unknown } } }).spec?.ground_truth?.final_verdict
      expect(guard(value)).toBe(vouched === 'without a final verdict' ? verdict == null : vouched)
      expect(write(value)).toBe(canonicalJson(value))
    }
  })

  test('the guard vouches only for values zod accepts unchanged, and the writer writes only canonical text', () => {
    fc.assert(
      fc.property(fc.constantFrom(...bundled), fc.array(edit, { minLength: 1, maxLength: 3 }), (value, edits) => {
        const candidate = edited(value, edits)
        if (guard(candidate)) {
          const parsed = schema.safeParse(candidate)
          expect(parsed.success).toBe(true)
          expect(parsed.data).toStrictEqual(candidate)
        }
        const text = write(candidate)
        if (text !== undefined) expect(text).toBe(canonicalOrUndefined(candidate))
      }),
      { numRuns: 150 },
    )
  })
})

describe('the compiled writer', () => {
  test('declines what has no canonical form, which the generic writer then refuses with its path', () => {
    const write = canonicalWriter(criteria.AnswerSchema)
    const broken = { text: 'cut in the middle \ud83d', citation: 'guide' }
    expect(write(broken)).toBeUndefined()
    expect(() => canonicalJson(broken)).toThrow(CanonicalJsonError)
    // A literal backslash before "ud" is ordinary text, written as the generic writer writes it.
    const literal = { text: String.raw`C:\ud800\file`, citation: 'guide' }
    expect(write(literal)).toBe(canonicalJson(literal))
  })

  test('writes the keys of a strict object sorted, whatever their order in the file', () => {
    const write = canonicalWriter(criteria.AnswerSchema)
    expect(write({ text: 'b', citation: 'a' })).toBe('{"citation":"a","text":"b"}')
    expect(write({ citation: 'a', text: 'b', extra: 1 })).toBeUndefined()
  })

  test('on any JSON value, writes canonicalJson or declines', () => {
    const write = canonicalWriter(criteria.ReviewSchema)
    fc.assert(
      fc.property(anyValue, (value) => {
        const text = write(value)
        if (text !== undefined) expect(text).toBe(canonicalOrUndefined(value))
      }),
      { numRuns: 200 },
    )
  })
})

describe('the compiled guard', () => {
  test('defers to zod for what it does not know: a refinement (the rubric ratings)', () => {
    const rubric = read(DOCUCTL, 'rubric.json')
    expect(criteria.RubricSchema.safeParse(rubric).success).toBe(true)
    expect(schemaGuard(criteria.RubricSchema)(rubric)).toBe(false)
  })

  test('defers on a judgement keyed "__proto__", which zod leaves out of what it returns', () => {
    const review = JSON.parse(JSON.stringify(docuctlReviews.reviews)) as { judgements: Record<string, unknown> }[]
    const first = review[0]!
    Object.defineProperty(first.judgements, '__proto__', { value: Object.values(first.judgements)[0], enumerable: true })
    expect(schemaGuard(criteria.ReviewSchema)(first)).toBe(false)
  })
})
