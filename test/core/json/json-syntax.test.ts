import { describe, expect, test } from 'vitest'
import { lineAndColumn, locateJsonSyntaxError } from '../../../src/core/json/json-syntax.js'

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
    ['a cut literal', '[nul', 4, '"null"'],
    ['a misspelt false', '[fals]', 5, '"false"'],
    ['a missing colon', '{"a" 1}', 5, '":" after the property name'],
    ['an object cut after a value', '{"a": 1', 7, '"," or "}" after the property value'],
    ['a missing comma in an array', '[1 2]', 3, '"," or "]" after the array element'],
    ['a three-digit unicode escape', '["\\u123"]', 3, 'four hexadecimal digits after \\u'],
    ['a raw unit separator (U+001F) in a string', '["a\u001f"]', 3, 'an escaped control character (\\n, \\t, \\u00XX)'],
    ['a number starting with 9 followed by a word', '[9 x]', 3, '"," or "]" after the array element'],
    ['a minus alone', '[-]', 1, 'a value'],
    ['a fraction without digits', '[1.]', 2, '"," or "]" after the array element'],
    ['a bare word', '[yes]', 1, 'a value'],
    ['a backslash at the end', '["\\', 3, 'a valid escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)'],
    // Whatever precedes the error is skipped as JSON reads it: whitespace, escapes, numbers, nesting.
    ['an error after tabs and CRLFs', '{\r\n\t"a":\t1,\r\n\t}', 14, 'a property name in double quotes'],
    ['an error after every escape', '["\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uABCD", x]', 33, 'a value'],
    ['an error after numbers', '[-0.5E+3, 1e-2, 10, 0 x]', 22, '"," or "]" after the array element'],
    ['an error after nested values', '{"a": [true, false, null, {}, [], {"b": [ ]}], "c": }', 52, 'a value'],
    ['text after an empty object', '{ } x', 4, 'the end of the file after the JSON value'],
    ['text after an empty array', '[ ] x', 4, 'the end of the file after the JSON value'],
  ])('finds %s', (_, text, offset, expected) => {
    expect(() => JSON.parse(text)).toThrow()
    expect(locateJsonSyntaxError(text)).toEqual({ offset, expected })
  })

  test('gives 1-based lines and columns', () => {
    expect(lineAndColumn('ab\ncd\nef', 7)).toEqual({ line: 3, column: 2 })
    expect(lineAndColumn('ab', 0)).toEqual({ line: 1, column: 1 })
    // A newline is the last character of its line; the next one starts the next line.
    expect(lineAndColumn('ab\ncd', 2)).toEqual({ line: 1, column: 3 })
    expect(lineAndColumn('ab\ncd', 3)).toEqual({ line: 2, column: 1 })
    expect(lineAndColumn('ab\r\ncd', 4)).toEqual({ line: 2, column: 1 })
  })

  test('locates an error in a file nested deeper than the call stack allows', () => {
    expect(locateJsonSyntaxError('['.repeat(100_000))).toEqual({ offset: 100_000, expected: 'a value' })
    expect(locateJsonSyntaxError(`${'['.repeat(50_000)}${']'.repeat(50_001)}`)).toEqual({
      offset: 100_000,
      expected: 'the end of the file after the JSON value',
    })
    expect(locateJsonSyntaxError(`${'{"a":'.repeat(50_000)}1${'}'.repeat(49_999)},`)).toEqual({ offset: 300_001, expected: 'a property name in double quotes' })
  })

  test('says where valid JSON ends when there is no error', () => {
    expect(locateJsonSyntaxError('{"a": [1]} ')).toEqual({ offset: 11, expected: 'valid JSON' })
  })
})
