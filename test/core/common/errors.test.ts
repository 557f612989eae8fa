import { inspect } from 'node:util'
import { resolveOptions, type RubricPluginOptions } from '../../../src/run/options.js'
import { describe, expect, test } from 'vitest'
import {
  BindingError,
  CanonicalJsonError,
  FixtureError,
  preview,
  RevisionError,
  RubricError,
  UsageError,
  type SerializedRubricError,
} from '../../../src/core/common/errors.js'
import { formatLocation, formatPath } from '../../../src/core/common/json-path.js'
import { isGraded } from '../../../src/core/engine/decision.js'
import type { Decision, RefusedDecision } from '../../../src/core/contract/decision.js'
import { evaluateFixture } from '../../../src/core/engine/evaluate.js'
import { fingerprint } from '../../../src/core/json/canonical-json.js'
import { DOCUCTL, type CasesJson } from '../../helpers/fixture-copy.js'
import { editCriteriaFiles, jsonFile, loadCriteriaFromMemory, loadScoredFromMemory, readFixtureFiles } from '../../helpers/in-memory-fixture.js'
import { DEBATE, type CasesJson as ScoredCasesJson } from '../../helpers/scored-copy.js'

describe('error messages', () => {
  test('name the file, the path and the case, then what was expected, found, the fix and the other problems', () => {
    const error = new FixtureError({
      code: 'FILE_SCHEMA',
      file: 'annotations.json',
      path: ['reviews', 3, 'judgements', 'command', 'rating'],
      caseId: 'complete',
      summary: 'the value is not one of those allowed.',
      expected: 'one of "meets", "does_not_meet"',
      found: '"meet"',
      hint: 'use one of the ratings of the rubric.',
      also: ['reviews[4] › id: a required value is missing.', 'reviews[5]: unexpected key "x".'],
    })
    expect(error.message).toMatchInlineSnapshot(`
      "annotations.json › reviews[3] › judgements › command › rating (case "complete"): the value is not one of those allowed.
        expected: one of "meets", "does_not_meet"
        found:    "meet"
        fix:      use one of the ratings of the rubric.
        also:     reviews[4] › id: a required value is missing.
        also:     reviews[5]: unexpected key "x"."
    `)
    expect(error.toJSON()).toMatchInlineSnapshot(`
      {
        "caseId": "complete",
        "code": "FILE_SCHEMA",
        "file": "annotations.json",
        "message": "annotations.json › reviews[3] › judgements › command › rating (case "complete"): the value is not one of those allowed.
        expected: one of "meets", "does_not_meet"
        found:    "meet"
        fix:      use one of the ratings of the rubric.
        also:     reviews[4] › id: a required value is missing.
        also:     reviews[5]: unexpected key "x".",
        "name": "FixtureError",
        "path": "reviews[3] › judgements › command › rating",
      }
    `)
    expect(error.location).toBe('annotations.json › reviews[3] › judgements › command › rating')
    expect(error).toMatchObject({
      code: 'FILE_SCHEMA',
      file: 'annotations.json',
      caseId: 'complete',
      summary: 'the value is not one of those allowed.',
      expected: 'one of "meets", "does_not_meet"',
      found: '"meet"',
      hint: 'use one of the ratings of the rubric.',
    })
  })

  test('leave out the lines they have nothing for; a value outside a file is "(value)"', () => {
    const error = new UsageError({ code: 'USAGE', summary: 'no fixture directory given.', hint: 'pass one.' })
    expect(error.message).toMatchInlineSnapshot(`
      "(value): no fixture directory given.
        fix:      pass one."
    `)
    expect(error.toJSON()).toStrictEqual({ name: 'UsageError', code: 'USAGE', file: null, path: '(value)', caseId: null, message: error.message })
    expect(error.path).toEqual([])
    expect(error.location).toBe('(value)')
    expect(new BindingError({ code: 'CASE_INVALID', file: 'cases.json', summary: 's', found: 'f', hint: 'h' }).message).toBe(
      'cases.json: s\n  found:    f\n  fix:      h',
    )
    expect(new BindingError({ code: 'CASE_INVALID', file: 'cases.json', summary: 's', expected: 'e', hint: 'h' }).message).toBe(
      'cases.json: s\n  expected: e\n  fix:      h',
    )
  })

  test('each class is a RubricError named after itself', () => {
    for (const ErrorClass of [FixtureError, BindingError, CanonicalJsonError, RevisionError, UsageError]) {
      const error = new ErrorClass({ code: 'USAGE', summary: 's', hint: 'h' })
      expect(error).toBeInstanceOf(RubricError)
      expect(error).toBeInstanceOf(Error)
      expect(error.name).toBe(ErrorClass.name)
      expect(error.toJSON().name).toBe(ErrorClass.name)
    }
  })
})

describe('JSON paths', () => {
  test('keys are joined by ›, indexes are bracketed onto what precedes them', () => {
    expect(formatPath([])).toBe('')
    expect(formatPath(['reviews', 2, 'judgements', 'command'])).toBe('reviews[2] › judgements › command')
    expect(formatPath([0, 'id'])).toBe('[0] › id')
    expect(formatPath(['matrix', 1, 2])).toBe('matrix[1][2]')
  })

  test('a location puts the file first, or stands for the value itself', () => {
    expect(formatLocation('cases.json', ['cases', 0])).toBe('cases.json › cases[0]')
    expect(formatLocation('cases.json', [])).toBe('cases.json')
    expect(formatLocation(undefined, ['cases', 0])).toBe('cases[0]')
    expect(formatLocation(undefined, [])).toBe('(value)')
  })
})

describe('preview', () => {
  test('quotes strings, writes other values as JSON, and falls back to String() for what JSON cannot write', () => {
    expect(preview('a "b"')).toBe('"a \\"b\\""')
    expect(preview({ a: [1, null] })).toBe('{"a":[1,null]}')
    expect(preview(undefined)).toBe('undefined')
    expect(preview(5n)).toBe('5')
    const circular: Record<string, unknown> = {}
    circular['self'] = circular
    expect(preview(circular)).toBe('[object Object]')
  })

  test('shortens a text longer than the limit to exactly the limit, ending in an ellipsis', () => {
    expect(preview('x'.repeat(118))).toBe(`"${'x'.repeat(118)}"`) // 120 characters: kept
    expect(preview('x'.repeat(119))).toBe(`"${'x'.repeat(118)}…`) // 121: shortened to 120
    expect(preview('abcdef', 5)).toBe('"abc…')
    expect(preview('abc', 5)).toBe('"abc"')
  })
})

/** The error a decision was refused with; any other decision fails the test. */
function refusalOf(decision: Decision | undefined): SerializedRubricError {
  if (decision?.status !== 'refused') throw new Error(`expected a refused decision, got ${JSON.stringify(decision)}`)
  return (decision as RefusedDecision).error
}

/** The bundled criteria fixture held in memory, with cases.json edited. */
async function criteriaWith(edit: (cases: CasesJson) => void) {
  const files = await readFixtureFiles(DOCUCTL, CRITERIA_FILES)
  return evaluateFixture(await loadCriteriaFromMemory(editCriteriaFiles(files, { cases: edit })))
}

/** The bundled scored fixture held in memory, with cases.json edited. */
async function scoredWith(edit: (cases: ScoredCasesJson) => void) {
  const files = await readFixtureFiles(DEBATE, SCORED_FILES)
  const cases = JSON.parse(new TextDecoder().decode(files['cases.json'])) as ScoredCasesJson
  edit(cases)
  return evaluateFixture(await loadScoredFromMemory({ ...files, 'cases.json': jsonFile(cases) }))
}

const CRITERIA_FILES = ['rubric.json', 'source.txt', 'cases.json', 'annotations.json']
const SCORED_FILES = ['evaluation_rubric.json', 'cases.json', 'annotations.json']

describe('fingerprints and canonical text of the values of a fixture', () => {
  test.each([
    ['criteria', DOCUCTL, CRITERIA_FILES],
    ['scored', DEBATE, SCORED_FILES],
  ] as const)('%s: are those of the values’ canonical JSON, as `fingerprint` gives them', async (kind, dir, names) => {
    const files = await readFixtureFiles(dir, names)
    const fixture = kind === 'criteria' ? await loadCriteriaFromMemory(files) : await loadScoredFromMemory(files)
    const evaluation = evaluateFixture(fixture)
    const { $schema: _, ...document } = JSON.parse(new TextDecoder().decode(files['cases.json'])) as { $schema?: string; cases: unknown[] }
    // Every recorded hash of the bundled fixture is current: no case is refused.
    expect(evaluation.decisions.filter((decision) => decision.status === 'refused')).toEqual([])
    expect(evaluation.identities.caseSetSha256).toBe(fingerprint(document))
    const graded = document.cases.filter((_case, index) => {
      const decision = evaluation.decisions[index]
      return decision !== undefined && isGraded(decision)
    })
    expect(graded.length).toBeGreaterThan(0)
    expect(evaluation.identities.gradedSetSha256).toBe(fingerprint(graded))
  })

  test('refuse only the case holding a value with no canonical form, at the value’s path inside the file', async () => {
    const plain = await criteriaWith(() => {})
    const evaluation = await criteriaWith((cases) => {
      cases.cases[2]!.input.question = 'cut \ud83d'
    })
    const error = refusalOf(evaluation.decisions[2])
    expect(error).toMatchObject({
      name: 'BindingError',
      code: 'NOT_CANONICAL_JSON',
      file: 'fixture/cases.json',
      path: 'cases[2] › input › question',
      caseId: 'negation',
    })
    // The broken value is the headline; the check that the question is the rubric's task follows as an `also:` line.
    expect(error.message).toMatchInlineSnapshot(`
      "fixture/cases.json › cases[2] › input › question (case "negation"): the string holds a lone surrogate, which has no UTF-8 encoding.
        found:    "cut \\ud83d"
        fix:      replace the broken character: the text was probably cut in the middle of an emoji or other character beyond U+FFFF.
        also:     fixture/cases.json › cases[2] › input › question: the question differs from the task fixture/rubric.json was written for, so its criteria do not apply. Fix: restore the question, or revise fixture/rubric.json for the new question and review the answer again."
    `)
    // Every other case is decided as before; the full case set has no fingerprint.
    expect(evaluation.decisions.filter((_decision, index) => index !== 2)).toEqual(plain.decisions.filter((_decision, index) => index !== 2))
    expect(evaluation.identities.caseSetSha256).toBeNull()

    const unsafe = await criteriaWith((cases) => {
      Object.assign(cases.cases[0]!.input, { n: 2 ** 60 })
    })
    expect(refusalOf(unsafe.decisions[0])).toMatchObject({ name: 'BindingError', code: 'NOT_CANONICAL_JSON', caseId: 'complete', path: 'cases[0] › input › n' })
    expect(unsafe.decisions.slice(1)).toEqual(plain.decisions.slice(1))
  })

  test('scored: a case with no canonical form refuses only that case, and a name with none leaves the case set without a fingerprint', async () => {
    // Intended change: this refused the whole fixture before the one engine; now the scored kind does as the criteria kind does.
    const plain = await scoredWith(() => {})
    const evaluation = await scoredWith((cases) => {
      cases.cases[1]!.spec.input = 'cut \ud83d'
    })
    expect(refusalOf(evaluation.decisions[1])).toMatchObject({
      name: 'BindingError',
      code: 'NOT_CANONICAL_JSON',
      path: 'cases[1] › spec › input',
      caseId: 'zero-planted-issues',
    })
    expect(refusalOf(evaluation.decisions[1]).message).toMatchInlineSnapshot(`
      "fixture/cases.json › cases[1] › spec › input (case "zero-planted-issues"): the string holds a lone surrogate, which has no UTF-8 encoding.
        found:    "cut \\ud83d"
        fix:      replace the broken character: the text was probably cut in the middle of an emoji or other character beyond U+FFFF."
    `)
    expect(evaluation.decisions.filter((_decision, index) => index !== 1)).toEqual(plain.decisions.filter((_decision, index) => index !== 1))
    expect(evaluation.identities.caseSetSha256).toBeNull()

    const named = await scoredWith((cases) => {
      cases.name = 'cut \ud83d'
    })
    expect(named.decisions).toEqual(plain.decisions)
    expect(named.identities.caseSetSha256).toBeNull()
    expect(named.identities.gradedSetSha256).toBe(plain.identities.gradedSetSha256)
  })

  test('let any other error through', async () => {
    const fixture = await loadCriteriaFromMemory(await readFixtureFiles(DOCUCTL, CRITERIA_FILES))
    const hostile = {
      get text(): string {
        throw new RangeError('getter failed')
      },
    }
    ;(fixture.cases[0] as { value: unknown }).value = hostile
    expect(() => evaluateFixture(fixture)).toThrow(RangeError)
  })
})

describe('an error shown by Node where the package does not print it (Vitest loading a config with a bad rubric() option)', () => {
  test('is its message alone: no stack of the package’s frames, no dump of its fields', () => {
    let thrown: unknown
    try {
      resolveOptions({ pending: 'warn' } as unknown as RubricPluginOptions)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(UsageError)
    const shown = inspect(thrown)
    expect(shown).toBe(`UsageError: ${(thrown as Error).message}`)
    expect(shown).toContain('rubric() options › pending: the value breaks a rule of the format.')
    expect(shown).not.toMatch(/\n\s+at /)
    expect(shown).not.toContain("code: 'USAGE'")
    // The stack is still there for whoever reads it on purpose.
    expect((thrown as Error).stack).toMatch(/\n\s+at /)
  })
})
