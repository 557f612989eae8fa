import { describe, expect, test } from 'vitest'
import { RevisionError } from '../../src/core/errors.js'
import { editJsonStrings } from '../../src/core/json-edit.js'

describe('editJsonStrings', () => {
  test('changes only the edited values: indentation, key order, line endings and the final newline stay', () => {
    const text = '{\r\n\t"b": {"sha": "old", "keep": [1, 2.50, "x"]},\r\n\t"a": "old"\r\n}'
    const edited = editJsonStrings(text, 'cases.json', [
      { path: ['b', 'sha'], from: 'old', to: 'new' },
      { path: ['a'], from: 'old', to: 'newer' },
    ])
    expect(edited).toBe('{\r\n\t"b": {"sha": "new", "keep": [1, 2.50, "x"]},\r\n\t"a": "newer"\r\n}')
  })

  test('finds values inside arrays and escapes the new text', () => {
    const edited = editJsonStrings('[{"h": "a"}, {"h": "b"}]\n', 'f.json', [{ path: [1, 'h'], from: 'b', to: 'say "hi"' }])
    expect(edited).toBe('[{"h": "a"}, {"h": "say \\"hi\\""}]\n')
  })

  test('refuses when the value is not the one the edit was planned from', () => {
    expect(() => editJsonStrings('{"h": "changed"}', 'annotations.json', [{ path: ['h'], from: 'old', to: 'new' }])).toThrowErrorMatchingInlineSnapshot(`
      [RevisionError: annotations.json › h: the value to replace was not found where the document has it; nothing was changed.
        expected: "old"
        found:    "changed"
        fix:      make sure every key occurs once per object, then run the command again.]
    `)
  })

  test('refuses a duplicated key rather than editing the copy JSON.parse ignores', () => {
    const text = '{"h": "old", "h": "old"}'
    expect(() => editJsonStrings(text, 'cases.json', [{ path: ['h'], from: 'old', to: 'new' }])).toThrow(RevisionError)
  })
})
