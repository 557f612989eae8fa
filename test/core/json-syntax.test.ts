import { describe, expect, test } from 'vitest'
import { lineAndColumn, locateJsonSyntaxError } from '../../src/core/json-syntax.js'

describe('locateJsonSyntaxError', () => {
  test.each([
    ['a trailing comma in an object', '{"a": 1,}', 8, 'a property name in double quotes'],
    ['a trailing comma in an array', '[1, 2, ]', 7, 'a value'],
    ['a missing comma', '{"a": 1 "b": 2}', 8, '"," or "}" after the property value'],
    ['a comment', '{\n  // note\n  "a": 1\n}', 4, 'a property name in double quotes'],
    ['single quotes', "{'a': 1}", 1, 'a property name in double quotes'],
    ['an unterminated string', '{"a": "text', 11, 'a closing quote'],
    ['a raw newline in a string', '["a\nb"]', 3, 'an escaped control character (\\n, \\t, \\u00XX)'],
    ['a bad escape', '["\\x41"]', 3, 'a valid escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)'],
    ['a short unicode escape', '["\\u12"]', 3, 'four hexadecimal digits after \\u'],
    ['a leading zero', '[01]', 2, '"," or "]" after the array element'],
    ['text after the value', '{} {}', 3, 'the end of the file after the JSON value'],
    ['an empty file', '', 0, 'a value'],
    ['a misspelt literal', '[tru]', 4, '"true"'],
  ])('finds %s', (_, text, offset, expected) => {
    expect(() => JSON.parse(text)).toThrow()
    expect(locateJsonSyntaxError(text)).toEqual({ offset, expected })
  })

  test('gives 1-based lines and columns', () => {
    expect(lineAndColumn('ab\ncd\nef', 7)).toEqual({ line: 3, column: 2 })
    expect(lineAndColumn('ab', 0)).toEqual({ line: 1, column: 1 })
  })
})
