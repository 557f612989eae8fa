import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { CriteriaDecision } from '../../../src/core/kinds/criteria/decision.js'
import { evaluateFixture } from '../../../src/core/engine/evaluate.js'
import { fileNamesOf, KINDS } from '../../../src/core/registry.js'
import { decisionJson } from '../../../src/core/engine/evaluation-json.js'
import { FixtureError } from '../../../src/core/common/errors.js'
import type { ScoredDecision } from '../../../src/core/kinds/scored/decision.js'
import type { ScoredDecisionJson } from '../../../src/core/kinds/scored/present.js'
import { DOCUCTL } from '../../helpers/fixture-copy.js'
import { jsonFile, loadCriteriaFromMemory, loadScoredFromMemory, readFixtureFiles, type FixtureFiles } from '../../helpers/in-memory-fixture.js'
import { DEBATE } from '../../helpers/scored-copy.js'
import {
  applyByteEdit,
  applyCharEdit,
  byteEdit,
  charEdit,
  decodeUtf8,
  locateStringValues,
  stringLeaves,
  stringLiterals,
  setValueAt,
  valueAt,
  type CharEdit,
  type JsonPath,
} from './arbitraries.js'

// Every fixture here is the bundled one with one edit, served to the loader from memory.

const DOCUCTL_FILES = await readFixtureFiles(DOCUCTL, fileNamesOf('criteria'))
const DEBATE_FILES = await readFixtureFiles(DEBATE, fileNamesOf('scored'))
const decisionRecord = (decision: CriteriaDecision) => decisionJson(KINDS.criteria, decision)
const scoredCaseRecord = (decision: ScoredDecision) => decisionJson(KINDS.scored, decision) as ScoredDecisionJson
const utf8 = (text: string) => new TextEncoder().encode(text)
const textOf = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

/** What became of a fixture: refused whole (the error code), or each case's outcome by id. */
type Outcome = { readonly fixture: string } | { readonly cases: Readonly<Record<string, string>> }

function criteriaOutcome(decision: CriteriaDecision): string {
  return decision.status === 'refused' ? `refused ${decision.error.code}` : decision.status
}

function scoredOutcome(decision: ScoredDecision): string {
  const { baseline } = decision
  const system = decision.status === 'refused' ? `refused ${decision.error.code}` : decision.status
  return `${system} / baseline ${baseline.status === 'refused' ? `refused ${baseline.error.code}` : baseline.status}`
}

/** The loaded fixture, or the code of the error that refuses it whole. */
async function loadOrRefuse<F>(load: () => Promise<F>): Promise<{ readonly loaded: F } | { readonly fixture: string }> {
  try {
    return { loaded: await load() }
  } catch (error) {
    if (error instanceof FixtureError) return { fixture: error.code }
    throw error
  }
}

async function evaluateCriteria(files: FixtureFiles) {
  return evaluateFixture(await loadCriteriaFromMemory(files))
}

async function criteriaOutcomes(files: FixtureFiles): Promise<Outcome> {
  const result = await loadOrRefuse(() => loadCriteriaFromMemory(files))
  if ('fixture' in result) return result
  const { decisions } = evaluateFixture(result.loaded)
  return { cases: Object.fromEntries(decisions.map((decision) => [decision.id, criteriaOutcome(decision)])) }
}

async function evaluateScored(files: FixtureFiles) {
  return evaluateFixture(await loadScoredFromMemory(files))
}

async function scoredOutcomes(files: FixtureFiles): Promise<Outcome> {
  const result = await loadOrRefuse(() => loadScoredFromMemory(files))
  if ('fixture' in result) return result
  const { decisions } = evaluateFixture(result.loaded)
  return { cases: Object.fromEntries(decisions.map((decision) => [decision.id, scoredOutcome(decision)])) }
}

const untouchedDocuctl = await evaluateCriteria(DOCUCTL_FILES)
const DOCUCTL_IDS = untouchedDocuctl.decisions.map((decision) => decision.id)
const untouchedDebate = await evaluateScored(DEBATE_FILES)
const DEBATE_IDS = untouchedDebate.decisions.map((decision) => decision.id)

/** Every case of the docuctl fixture refused with this code. */
const everyCriteriaCase = (code: string): Outcome => ({ cases: Object.fromEntries(DOCUCTL_IDS.map((id) => [id, `refused ${code}`])) })
/** Every case of the debate benchmark refused with this code, for the debate system and the baseline alike. */
const everyScoredCase = (code: string): Outcome => ({
  cases: Object.fromEntries(DEBATE_IDS.map((id) => [id, `refused ${code} / baseline refused ${code}`])),
})

const SOURCE = textOf(DOCUCTL_FILES['source.txt']!)
const RUBRIC_TEXT = textOf(DOCUCTL_FILES['rubric.json']!)
const RUBRIC = JSON.parse(RUBRIC_TEXT) as { task: string; criteria: { id: string; reference_quote: string }[] }
const QUOTES = RUBRIC.criteria.map((criterion) => criterion.reference_quote)

/** Replaces the text between `start` and `end`. */
function splice(text: string, start: number, end: number, replacement: string): string {
  return text.slice(0, start) + replacement + text.slice(end)
}

test('unedited, both fixtures decide every case: each refusal below comes from the edit', () => {
  expect(untouchedDocuctl.coverage).toMatchObject({ candidates: 8, refused: 0 })
  expect(untouchedDebate.coverage).toMatchObject({ candidates: 10, refused: 0 })
  expect(untouchedDebate.decisions.filter((decision) => decision.baseline.status === 'refused')).toEqual([])
})

describe('criteria kind: a change to a bound file refuses every case bound to it', () => {
  test('any one-byte change of source.txt: the fixture is refused (not UTF-8, a reference quote gone) or every case is CASE_SOURCE_STALE', async () => {
    await fc.assert(
      fc.asyncProperty(byteEdit, async (edit) => {
        const source = applyByteEdit(DOCUCTL_FILES['source.txt']!, edit)
        const text = decodeUtf8(source)
        const expected =
          text === undefined
            ? { fixture: 'FILE_NOT_UTF8' }
            : QUOTES.some((quote) => !text.includes(quote))
              ? { fixture: 'RUBRIC_QUOTE_NOT_IN_SOURCE' }
              : everyCriteriaCase('CASE_SOURCE_STALE')
        expect(await criteriaOutcomes({ ...DOCUCTL_FILES, 'source.txt': source })).toEqual(expected)
      }),
      { numRuns: 100 },
    )
  })

  test('a changed character of source.txt that leaves every reference quote in place refuses every case as CASE_SOURCE_STALE', async () => {
    // Code points of the source outside every occurrence of a reference quote.
    const chars = [...SOURCE]
    const covered = new Set<number>()
    for (const quote of QUOTES) {
      const start = [...SOURCE.slice(0, SOURCE.indexOf(quote))].length
      for (let index = start; index < start + [...quote].length; index++) covered.add(index)
    }
    const free = chars.map((_, index) => index).filter((index) => !covered.has(index))
    await fc.assert(
      fc.asyncProperty(charEdit, async (edit) => {
        const source = applyCharEdit(SOURCE, { ...edit, at: free[edit.at % free.length]! })
        fc.pre(source !== SOURCE)
        expect(QUOTES.every((quote) => source.includes(quote))).toBe(true)
        expect(await criteriaOutcomes({ ...DOCUCTL_FILES, 'source.txt': utf8(source) })).toEqual(everyCriteriaCase('CASE_SOURCE_STALE'))
      }),
      { numRuns: 60 },
    )
  })

  test('any one-byte change of rubric.json: the fixture is refused, or every case is refused (CASE_RUBRIC_STALE; QUESTION_MISMATCH if the task changed)', async () => {
    await fc.assert(
      fc.asyncProperty(byteEdit, async (edit) => {
        const rubric = applyByteEdit(DOCUCTL_FILES['rubric.json']!, edit)
        const outcome = await criteriaOutcomes({ ...DOCUCTL_FILES, 'rubric.json': rubric })
        const text = decodeUtf8(rubric)
        if (text === undefined) return void expect(outcome).toEqual({ fixture: 'FILE_NOT_UTF8' })
        let parsed: { task?: unknown }
        try {
          parsed = JSON.parse(text) as { task?: unknown }
        } catch {
          return void expect(outcome).toEqual({ fixture: 'JSON_MALFORMED' })
        }
        if ('fixture' in outcome) {
          expect(['RUBRIC_INVALID', 'RUBRIC_QUOTE_NOT_IN_SOURCE', 'DUPLICATE_CRITERION']).toContain(outcome.fixture)
        } else {
          expect(outcome).toEqual(everyCriteriaCase(parsed.task === RUBRIC.task ? 'CASE_RUBRIC_STALE' : 'QUESTION_MISMATCH'))
        }
      }),
      { numRuns: 100 },
    )
  })

  test('a changed character inside a string value of rubric.json, which still parses, refuses every case or the fixture, as the field decides', async () => {
    const values = locateStringValues(RUBRIC_TEXT)
    for (const value of values) expect(RUBRIC_TEXT.slice(value.start, value.end)).toBe(JSON.stringify(value.value))
    await fc.assert(
      fc.asyncProperty(fc.nat(), charEdit, async (pick, edit) => {
        const target = values[pick % values.length]!
        const changed = applyCharEdit(target.value, edit)
        fc.pre(changed !== target.value)
        // The new value is written as JSON writes it, so any character keeps the file valid JSON.
        const text = splice(RUBRIC_TEXT, target.start, target.end, JSON.stringify(changed))
        const rubric = JSON.parse(text) as typeof RUBRIC
        const [field] = target.path.slice(-1)
        const ids = rubric.criteria.map((criterion) => criterion.id)
        const expected =
          target.path[0] === 'ratings' || changed === ''
            ? { fixture: 'RUBRIC_INVALID' }
            : field === 'reference_quote' && !SOURCE.includes(changed)
              ? { fixture: 'RUBRIC_QUOTE_NOT_IN_SOURCE' }
              : new Set(ids).size < ids.length
                ? { fixture: 'DUPLICATE_CRITERION' }
                : everyCriteriaCase(target.path[0] === 'task' ? 'QUESTION_MISMATCH' : 'CASE_RUBRIC_STALE')
        expect(await criteriaOutcomes({ ...DOCUCTL_FILES, 'rubric.json': utf8(text) })).toEqual(expected)
      }),
      { numRuns: 100 },
    )
  })

  test('a rewrite of rubric.json that parses to the same rubric (a character escaped, whitespace added) still refuses every case: the binding is to the bytes', async () => {
    const literals = stringLiterals(RUBRIC_TEXT)
    const inLiteral = (index: number) => literals.some((literal) => index > literal.start && index < literal.end)
    const between = Array.from({ length: RUBRIC_TEXT.length + 1 }, (_, index) => index).filter((index) => !inLiteral(index))
    const rewrite = fc.oneof(
      fc.record({ kind: fc.constant('escape' as const), literal: fc.nat(), char: fc.nat() }),
      fc.record({ kind: fc.constant('whitespace' as const), at: fc.nat(), space: fc.constantFrom(' ', '\n', '\t', '\r\n') }),
    )
    await fc.assert(
      fc.asyncProperty(rewrite, async (change) => {
        let text: string
        if (change.kind === 'escape') {
          // Keys and values alike: one character of the literal written as \uXXXX (a surrogate pair for astral ones).
          const literal = literals[change.literal % literals.length]!
          const content = [...RUBRIC_TEXT.slice(literal.start + 1, literal.end - 1)]
          const at = change.char % content.length
          content[at] = [...content[at]!]
            .flatMap((char) => Array.from({ length: char.length }, (_, unit) => char.charCodeAt(unit)))
            .map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`)
            .join('')
          text = splice(RUBRIC_TEXT, literal.start + 1, literal.end - 1, content.join(''))
        } else {
          const at = between[change.at % between.length]!
          text = splice(RUBRIC_TEXT, at, at, change.space)
        }
        expect(JSON.parse(text)).toEqual(RUBRIC)
        expect(await criteriaOutcomes({ ...DOCUCTL_FILES, 'rubric.json': utf8(text) })).toEqual(everyCriteriaCase('CASE_RUBRIC_STALE'))
      }),
      { numRuns: 60 },
    )
  })

  test("any change of an answer's text or citation makes its review stale: that case alone is refused (REVIEW_ANSWER_STALE), the others keep their decisions", async () => {
    const cases = JSON.parse(textOf(DOCUCTL_FILES['cases.json']!)) as { cases: { id: string; input: { answer: Record<'text' | 'citation', string> } }[] }
    const reviewed = new Set(untouchedDocuctl.fixture.reviews.keys())
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.constantFrom('text' as const, 'citation' as const), charEdit, async (pick, field, edit) => {
        const edited = structuredClone(cases)
        const theCase = edited.cases[pick % edited.cases.length]!
        const before = theCase.input.answer[field]
        theCase.input.answer[field] = applyCharEdit(before, edit)
        fc.pre(theCase.input.answer[field] !== before && theCase.input.answer[field] !== '')

        const { decisions } = await evaluateCriteria({ ...DOCUCTL_FILES, 'cases.json': jsonFile(edited) })
        for (const [index, decision] of decisions.entries()) {
          if (decision.id !== theCase.id) {
            expect(decisionRecord(decision)).toEqual(decisionRecord(untouchedDocuctl.decisions[index]!))
          } else if (reviewed.has(decision.id)) {
            expect(criteriaOutcome(decision)).toBe('refused REVIEW_ANSWER_STALE')
          } else {
            // No review, so no judgement that could go stale: the case stays pending.
            expect(decisionRecord(decision)).toEqual(decisionRecord(untouchedDocuctl.decisions[index]!))
            expect(decision).toMatchObject({ status: 'pending', reason: 'no review' })
          }
        }
      }),
      { numRuns: 60 },
    )
  })
})

describe('scored kind: a review is bound to the rubric bytes, the case spec and the output it judged', () => {
  const RUBRIC_FILE = 'evaluation_rubric.json'
  const SCORED_RUBRIC_TEXT = textOf(DEBATE_FILES[RUBRIC_FILE]!)
  const DEBATE_CASES = JSON.parse(textOf(DEBATE_FILES['cases.json']!)) as {
    cases: { id: string; spec: unknown; outputs: Record<'debate' | 'baseline', unknown> }[]
  }

  test('any one-byte change of evaluation_rubric.json: the fixture is refused, or every case and every baseline is CASE_RUBRIC_STALE', async () => {
    await fc.assert(
      fc.asyncProperty(byteEdit, async (edit) => {
        const rubric = applyByteEdit(DEBATE_FILES[RUBRIC_FILE]!, edit)
        const outcome = await scoredOutcomes({ ...DEBATE_FILES, [RUBRIC_FILE]: rubric })
        const text = decodeUtf8(rubric)
        if (text === undefined) return void expect(outcome).toEqual({ fixture: 'FILE_NOT_UTF8' })
        try {
          JSON.parse(text)
        } catch {
          return void expect(outcome).toEqual({ fixture: 'JSON_MALFORMED' })
        }
        if ('fixture' in outcome) expect(['RUBRIC_INVALID', 'UNKNOWN_DIMENSION', 'RUBRIC_RULE_UNREADABLE']).toContain(outcome.fixture)
        else expect(outcome).toEqual(everyScoredCase('CASE_RUBRIC_STALE'))
      }),
      { numRuns: 40 },
    )
  })

  test('a changed character inside a string value of evaluation_rubric.json refuses every case and baseline as CASE_RUBRIC_STALE, unless the rubric no longer reads', async () => {
    const values = locateStringValues(SCORED_RUBRIC_TEXT)
    for (const value of values) expect(SCORED_RUBRIC_TEXT.slice(value.start, value.end)).toBe(JSON.stringify(value.value))
    await fc.assert(
      fc.asyncProperty(fc.nat(), charEdit, async (pick, edit) => {
        const target = values[pick % values.length]!
        const changed = applyCharEdit(target.value, edit)
        fc.pre(changed !== target.value)
        const text = splice(SCORED_RUBRIC_TEXT, target.start, target.end, JSON.stringify(changed))
        const outcome = await scoredOutcomes({ ...DEBATE_FILES, [RUBRIC_FILE]: utf8(text) })
        if (changed === '' && target.path[0] !== 'notes') return void expect(outcome).toEqual({ fixture: 'RUBRIC_INVALID' })
        // The two rules whose figures are read from a phrase may no longer read; free text always binds.
        if (target.path[0] === 'pass_fail_rule' || target.path[0] === 'trivial_baseline_definition') {
          if ('fixture' in outcome) return void expect(outcome).toEqual({ fixture: 'RUBRIC_RULE_UNREADABLE' })
        }
        expect(outcome).toEqual(everyScoredCase('CASE_RUBRIC_STALE'))
      }),
      { numRuns: 40 },
    )
  })

  /**
   * The string values of one part of a case. Enums (the resolution type, a turn's agent) and
   * planted-issue ids are left out: an enum edited makes the case malformed, and an id may collide
   * with another; either refuses the case before its reviews' bindings are read.
   */
  function editableLeaves(theCase: (typeof DEBATE_CASES)['cases'][number], part: 'spec' | 'debate' | 'baseline'): JsonPath[] {
    const root: JsonPath = part === 'spec' ? ['spec'] : ['outputs', part]
    return stringLeaves(valueAt(theCase, root), root)
      .map((leaf) => leaf.path)
      .filter((path) => {
        const key = path.at(-1)
        if (key === 'ideal_debate_resolution' || key === 'agent') return false
        return !(path.includes('planted_issues') && key === 'id')
      })
  }

  async function afterEdit(part: 'spec' | 'debate' | 'baseline', pick: number, leaf: number, edit: CharEdit) {
    const edited = structuredClone(DEBATE_CASES)
    const theCase = edited.cases[pick % edited.cases.length]!
    const leaves = editableLeaves(theCase, part)
    const path = leaves[leaf % leaves.length]!
    const before = valueAt(theCase, path) as string
    const after = applyCharEdit(before, edit)
    setValueAt(theCase, path, after)
    const changed = after !== before && after.trim() !== ''
    const evaluation = changed ? await evaluateScored({ ...DEBATE_FILES, 'cases.json': jsonFile(edited) }) : undefined
    return { id: theCase.id, changed, evaluation }
  }

  function expectOthersUntouched(decisions: readonly ScoredDecision[], id: string) {
    for (const [index, decision] of decisions.entries()) {
      if (decision.id !== id) expect(scoredCaseRecord(decision)).toEqual(scoredCaseRecord(untouchedDebate.decisions[index]!))
    }
  }

  test("any change of a case's spec makes both its reviews stale: the case and its baseline are refused (REVIEW_SPEC_STALE), the others keep their decisions", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), charEdit, async (pick, leaf, edit) => {
        const { id, changed, evaluation } = await afterEdit('spec', pick, leaf, edit)
        fc.pre(changed)
        const decisions = evaluation!.decisions
        expect(scoredOutcome(decisions.find((decision) => decision.id === id)!)).toBe('refused REVIEW_SPEC_STALE / baseline refused REVIEW_SPEC_STALE')
        expectOthersUntouched(decisions, id)
      }),
      { numRuns: 25 },
    )
  })

  test('any change of the debate output refuses the case (REVIEW_OUTPUT_STALE) and leaves its baseline scored as before', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), charEdit, async (pick, leaf, edit) => {
        const { id, changed, evaluation } = await afterEdit('debate', pick, leaf, edit)
        fc.pre(changed)
        const index = evaluation!.decisions.findIndex((decision) => decision.id === id)
        const record = scoredCaseRecord(evaluation!.decisions[index]!)
        expect(record).toMatchObject({ status: 'refused', error: { code: 'REVIEW_OUTPUT_STALE' } })
        expect(record.baseline).toEqual(scoredCaseRecord(untouchedDebate.decisions[index]!).baseline)
        expectOthersUntouched(evaluation!.decisions, id)
      }),
      { numRuns: 20 },
    )
  })

  test("any change of the baseline output refuses the baseline alone (REVIEW_OUTPUT_STALE): the case's own decision stays", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), charEdit, async (pick, leaf, edit) => {
        const { id, changed, evaluation } = await afterEdit('baseline', pick, leaf, edit)
        fc.pre(changed)
        const index = evaluation!.decisions.findIndex((decision) => decision.id === id)
        const { baseline, ...decision } = scoredCaseRecord(evaluation!.decisions[index]!)
        const { baseline: _, ...before } = scoredCaseRecord(untouchedDebate.decisions[index]!)
        expect(baseline).toMatchObject({ status: 'refused', error: { code: 'REVIEW_OUTPUT_STALE' } })
        expect(decision).toEqual(before)
        expectOthersUntouched(evaluation!.decisions, id)
      }),
      { numRuns: 20 },
    )
  })
})
