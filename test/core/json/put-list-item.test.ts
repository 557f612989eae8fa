import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { applyEdits, modify } from 'jsonc-parser'
import { describe, expect, test } from 'vitest'
import { putListItem, topLevelListItems, type ListFormat } from '../../../src/core/json/json-edit.js'
import { DOCUCTL } from '../../helpers/fixture-copy.js'

const FORMAT: ListFormat = { insertSpaces: true, tabSize: 2, eol: '\n' }

/** What jsonc-parser's `modify` gives: the text `putListItem` must equal. */
function modified(text: string, key: string, index: number, value: unknown, insert: boolean): string {
  return applyEdits(text, modify(text, [key, index], value, { isArrayInsertion: insert, formattingOptions: FORMAT }))
}

const review = (id: string) => ({
  answer_id: id,
  judgements: { a: { rating: 'meets', reason: 'Says "r41" \\ twice.\nOn two lines – ü', answer_span: '' } },
  list: [1, [2, {}]],
  empty: {},
})

describe('putListItem', () => {
  const layouts: [string, string][] = [
    ['a list of three', `${JSON.stringify({ origin: 'x', reviews: [review('a'), review('b'), review('c')] }, null, 2)}\n`],
    ['a file indented by four', `${JSON.stringify({ origin: 'x', reviews: [review('a'), review('b')], after: [1] }, null, 4)}\n`],
    ['a file indented by tabs', `${JSON.stringify({ reviews: [review('a')], origin: 'x' }, null, '\t')}\n`],
    ['an empty list', '{\n  "origin": "x",\n  "reviews": []\n}\n'],
    ['a list of literals and strings with brackets', '{\n  "reviews": [\n    1,\n    "]}\\"[{",\n    null\n  ]\n}\n'],
    ['CRLF line endings', `${JSON.stringify({ origin: 'x', reviews: [review('a'), review('b')] }, null, 2).replaceAll('\n', '\r\n')}\r\n`],
  ]
  test.each(layouts)('on %s, replaces each element and appends one as modify does', (_name, text) => {
    const count = (JSON.parse(text) as { reviews: unknown[] }).reviews.length
    for (let index = 0; index < count; index++)
      expect(putListItem(text, 'reviews', index, review('new'), FORMAT, false)).toBe(modified(text, 'reviews', index, review('new'), false))
    expect(putListItem(text, 'reviews', count, review('new'), FORMAT, true)).toBe(modified(text, 'reviews', count, review('new'), true))
  })

  test('in a text of one line, writes the value compact in place or after the last element, and leaves the rest as it was', () => {
    for (const text of [JSON.stringify({ origin: 'x', reviews: [review('a'), review('b')] }), `${JSON.stringify({ reviews: [review('a')], origin: 'x' })}\n`]) {
      const document = JSON.parse(text) as { reviews: unknown[] }
      const replaced = putListItem(text, 'reviews', 0, review('new'), FORMAT, false)
      expect(replaced).toBe(text.replace(JSON.stringify(review('a')), JSON.stringify(review('new'))))
      const appended = putListItem(text, 'reviews', document.reviews.length, review('new'), FORMAT, true)
      expect(JSON.parse(appended)).toEqual({ ...document, reviews: [...document.reviews, review('new')] })
      expect(appended.split('\n')).toHaveLength(text.split('\n').length)
    }
  })

  test('on the bundled annotations.json, gives what modify gives', async () => {
    const text = await readFile(join(DOCUCTL, 'annotations.json'), 'utf8')
    expect(putListItem(text, 'reviews', 3, review('new'), FORMAT, false)).toBe(modified(text, 'reviews', 3, review('new'), false))
    expect(putListItem(text, 'reviews', 7, review('new'), FORMAT, true)).toBe(modified(text, 'reviews', 7, review('new'), true))
  })

  test('finds the elements of the list only at the top level, and refuses a key given twice', () => {
    const text = '{"a":{"reviews":[1]},"reviews":[ 10 ,"x"]}'
    expect(topLevelListItems(text, 'reviews')).toEqual([
      [text.indexOf('10'), text.indexOf('10') + 2],
      [text.indexOf('"x"'), text.indexOf('"x"') + 3],
    ])
    expect(topLevelListItems('{"reviews":[1],"reviews":[2]}', 'reviews')).toBeUndefined()
    expect(topLevelListItems('[1]', 'reviews')).toBeUndefined()
    expect(topLevelListItems('{"reviews":[1,', 'reviews')).toBeUndefined()
  })
})
