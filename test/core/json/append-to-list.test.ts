import { applyEdits, modify } from 'jsonc-parser'
import { describe, expect, test } from 'vitest'
import { appendToList, type ListFormat } from '../../../src/core/json/json-edit.js'

const FORMAT: ListFormat = { insertSpaces: true, tabSize: 2, eol: '\n' }

/** What inserting the values one `modify` at a time gives: the text `appendToList` must equal. */
function oneAtATime(text: string, key: string, values: readonly unknown[], format: ListFormat): string {
  const count = ((JSON.parse(text) as Record<string, unknown[] | undefined>)[key] ?? []).length
  return values.reduce<string>(
    (edited, value, index) => applyEdits(edited, modify(edited, [key, count + index], value, { isArrayInsertion: true, formattingOptions: format })),
    text,
  )
}

const cases = (...ids: string[]) =>
  ids.map((id) => ({
    id,
    input: { question: 'Q?', answer: { text: `Answer "${id}" – ünïcödé\nline two`, citation: 'guide' } },
    expected: { acceptable: true, list: [1, [2, {}]], empty: [] },
  }))

describe('appendToList', () => {
  test.each([
    ['an empty list', '{\n  "name": "x",\n  "cases": []\n}\n'],
    ['a list of one', `{\n  "name": "x",\n  "cases": [\n    ${JSON.stringify(cases('a')[0])}\n  ]\n}\n`],
    ['a file indented by four', `${JSON.stringify({ name: 'x', cases: cases('a', 'b') }, null, 4)}\n`],
    ['a file indented by tabs', `${JSON.stringify({ name: 'x', cases: cases('a') }, null, '\t')}\n`],
    ['a file without the list', '{\n  "name": "x"\n}\n'],
  ])('on %s, gives what inserting the values one at a time gives', (_name, text) => {
    for (const values of [cases('n1'), cases('n1', 'n2'), cases('n1', 'n2', 'n3', 'n4')]) {
      const appended = appendToList(text, 'cases', values, FORMAT)
      expect(appended).toBe(oneAtATime(text, 'cases', values, FORMAT))
      expect((JSON.parse(appended) as { cases: unknown[] }).cases.slice(-values.length)).toEqual(values)
    }
  })

  test('in a text of one line, appends the values compact and leaves the text on one line', () => {
    const text = JSON.stringify({ name: 'x', cases: cases('a') })
    const appended = appendToList(text, 'cases', cases('n1', 'n2'), FORMAT)
    expect(appended).toBe(
      `${text.slice(0, -2)},${cases('n1', 'n2')
        .map((value) => JSON.stringify(value))
        .join(',')}]}`,
    )
  })

  test('10,000 values are appended in one pass over the text, not one pass per value', () => {
    const values = Array.from({ length: 10_000 }, (_, index) => cases(`case-${index}`)[0])
    const appended = appendToList('{\n  "cases": []\n}\n', 'cases', values, FORMAT)
    expect((JSON.parse(appended) as { cases: unknown[] }).cases).toHaveLength(10_000)
    // The same as one at a time, checked on a prefix that one at a time can afford.
    expect(appendToList('{\n  "cases": []\n}\n', 'cases', values.slice(0, 50), FORMAT)).toBe(
      oneAtATime('{\n  "cases": []\n}\n', 'cases', values.slice(0, 50), FORMAT),
    )
  })
})
