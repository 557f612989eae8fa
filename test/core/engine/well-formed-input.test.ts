import { describe, expect, test } from 'vitest'
import type { FixtureKind } from '../../../src/core/registry.js'
import { editBytes, editedCopy, editJson, outcomeOf, rebindFiles, type Outcome, edits } from '../../helpers/bad-input.js'

const refusedFixture = (outcome: Outcome) => {
  if (outcome.refused !== 'fixture') throw new Error(`expected a refused fixture, got ${JSON.stringify(outcome.statuses)}`)
  return outcome.error
}

describe('the rubric version is checked as written: an integer, never a float that JSON.parse would make one', () => {
  // The reference refuses any version whose type is not int: `1.0` parses to 1 in JavaScript, so the text decides.
  test.each(['1.0', '1e0', '2.0', '1E0', '10e-1'])('"version": %s is refused at rubric.json › version', async (literal) => {
    const copy = await editedCopy(
      'criteria',
      edits(
        editBytes('rubric.json', (bytes) => bytes.toString('utf8').replace(/"version": \d+/, `"version": ${literal}`)),
        rebindFiles('criteria'),
      ),
    )
    const error = refusedFixture(await outcomeOf(copy.dir))
    expect(error.code).toBe('RUBRIC_INVALID')
    expect(error.path).toEqual(['version'])
    expect(error.message).toContain(`rubric.json › version: `)
    expect(error.message).toContain('expected: an integer')
    expect(error.message).toContain(`found:    ${literal}`)
  })

  test('an integer version as written still loads, and its cases are decided', async () => {
    const copy = await editedCopy(
      'criteria',
      edits(
        editBytes('rubric.json', (bytes) => bytes.toString('utf8').replace(/"version": \d+/, '"version": 2')),
        rebindFiles('criteria'),
      ),
    )
    const outcome = await outcomeOf(copy.dir)
    expect(outcome.refused).toBe('cases')
    expect(outcome.refused === 'cases' && outcome.statuses['complete']).toBe('accepted')
  })
})

describe('a rubric string that is not well-formed Unicode is refused at its path, in either kind', () => {
  // "\ud83d" is half of 🚦's surrogate pair: String.includes would find it in a source holding 🚦, a code-point comparison never does.
  test('a reference quote of a lone high surrogate, against a source holding 🚦', async () => {
    const copy = await editedCopy(
      'criteria',
      edits(
        editBytes('source.txt', (bytes) => `${bytes.toString('utf8')}Traffic light: 🚦\n`),
        editBytes('rubric.json', (bytes) => bytes.toString('utf8').replace(/"reference_quote": "[^"]*"/, '"reference_quote": "\\ud83d"')),
        rebindFiles('criteria'),
      ),
    )
    const error = refusedFixture(await outcomeOf(copy.dir))
    expect(error.code).toBe('RUBRIC_INVALID')
    expect(error.path).toEqual(['criteria', 0, 'reference_quote'])
    expect(error.message).toMatch(/^rubric\.json › criteria\[0\] › reference_quote: .*lone surrogate/)
  })

  test.each([
    ['criteria', 'rubric.json', /"task": "/, '"task": "\\udc00 ', ['task']],
    ['scored', 'evaluation_rubric.json', /"notes": "/, '"notes": "\\ud800 ', ['notes']],
  ] as const)('%s: a lone surrogate in %s', async (kind, file, pattern, replacement, path) => {
    const copy = await editedCopy(
      kind,
      edits(
        editBytes(file, (bytes) => bytes.toString('utf8').replace(pattern, replacement)),
        rebindFiles(kind),
      ),
    )
    const error = refusedFixture(await outcomeOf(copy.dir))
    expect(error.code).toBe('RUBRIC_INVALID')
    expect(error.path).toEqual(path)
    expect(error.message).toContain('lone surrogate')
  })
})

describe('a lone surrogate in a case refuses that case, and only it, in both kinds', () => {
  const cases: readonly [FixtureKind, string, (document: any) => void][] = [
    ['criteria', 'complete', (document) => void (document.cases[0].input.answer.text += ' \ud83d')],
    ['scored', 'partial-recall', (document) => void (document.cases[0].outputs.debate.transcript[0].text += ' \ud83d')],
  ]
  test.each(cases)('%s: case %s is refused, naming the string; the other cases are decided', async (kind, id, edit) => {
    const untouched = await outcomeOf((await editedCopy(kind, async () => {})).dir)
    const copy = await editedCopy(kind, editJson('cases.json', edit))
    const outcome = await outcomeOf(copy.dir)
    if (outcome.refused !== 'cases' || untouched.refused !== 'cases') throw new Error('expected decided cases')
    expect(outcome.statuses[id]).toBe('refused')
    expect(outcome.errors[id]!.message).toContain('lone surrogate')
    const others = (statuses: Record<string, string>) => Object.entries(statuses).filter(([other]) => other !== id)
    expect(others(outcome.statuses)).toEqual(others(untouched.statuses))
  })
})
