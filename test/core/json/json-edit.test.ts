import { describe, expect, test } from 'vitest'
import { RevisionError } from '../../../src/core/common/errors.js'
import { editJsonStrings } from '../../../src/core/json/json-edit.js'

describe('editJsonStrings', () => {
  test('changes only the edited values: indentation, key order, line endings and the final newline stay', () => {
    const text = '{\r\n\t"b": {"sha": "old", "keep": [1, 2.50, "x"]},\r\n\t"a": "old"\r\n}'
    const edited = editJsonStrings(text, 'cases.json', [
      { path: ['b', 'sha'], from: 'old', to: 'new' },
      { path: ['a'], from: 'old', to: 'newer' },
    ])
    expect(edited).toBe('{\r\n\t"b": {"sha": "new", "keep": [1, 2.50, "x"]},\r\n\t"a": "newer"\r\n}')
  })

  test('places many edits in one pass, in any order', () => {
    const values = Array.from({ length: 500 }, (_, index) => ({ id: index, sha: `old-${index}` }))
    const text = `${JSON.stringify(values, null, 2)}\n`
    const edits = values.map((value, index) => ({ path: [index, 'sha'], from: value.sha, to: `new-${index}` })).reverse()
    expect(editJsonStrings(text, 'f.json', edits)).toBe(text.replace(/"old-(\d+)"/g, '"new-$1"'))
  })

  test('finds values inside arrays and escapes the new text', () => {
    const edited = editJsonStrings('[{"h": "a"}, {"h": "b"}]\n', 'f.json', [{ path: [1, 'h'], from: 'b', to: 'say "hi"' }])
    expect(edited).toBe('[{"h": "a"}, {"h": "say \\"hi\\""}]\n')
  })

  test('refuses when the value is not the one the edit was planned from', () => {
    expect(() => editJsonStrings('{"h": "changed"}', 'annotations.json', [{ path: ['h'], from: 'old', to: 'new' }])).toThrowErrorMatchingInlineSnapshot(`
      [RevisionError: annotations.json › h: the value to replace was not found where the document has it; nothing was changed.
        expected: "old"
        fix:      make sure every key occurs once per object, then run the command again.]
    `)
  })

  test('refuses a duplicated key rather than editing the copy JSON.parse ignores', () => {
    const text = '{"h": "old", "h": "old"}'
    expect(() => editJsonStrings(text, 'cases.json', [{ path: ['h'], from: 'old', to: 'new' }])).toThrow(
      new RevisionError({
        code: 'EDIT_NOT_LOCATED',
        file: 'cases.json',
        path: ['h'],
        summary: 'the key occurs more than once in its object, so which copy to change would be a guess; nothing was changed.',
        expected: '"old"',
        hint: 'make sure every key occurs once per object, then run the command again.',
      }),
    )
  })

  test('refuses a text that is not strict JSON (a comment, a trailing comma), even where the value is found', () => {
    for (const text of ['{"h": "old" // note\n}', '{"h": "old",}', '{"h": "old"']) {
      expect(() => editJsonStrings(text, 'cases.json', [{ path: ['h'], from: 'old', to: 'new' }])).toThrow(
        /the value to replace was not found where the document has it/,
      )
    }
  })

  test("replaces only the value at the path, not an equal value elsewhere, nor another edit's old value at this path", () => {
    const text = '{"a": "y", "b": "x", "list": ["x"], "c": {"a": "x"}}'
    expect(editJsonStrings(text, 'f.json', [{ path: ['b'], from: 'x', to: 'z' }])).toBe('{"a": "y", "b": "z", "list": ["x"], "c": {"a": "x"}}')
    // The value at "a" is the old value of the edit of "b": "a" must not be taken for it.
    expect(() =>
      editJsonStrings(text, 'f.json', [
        { path: ['a'], from: 'x', to: 'z' },
        { path: ['b'], from: 'y', to: 'w' },
      ]),
    ).toThrow(expect.objectContaining({ code: 'EDIT_NOT_LOCATED', path: ['a'], expected: '"x"' }))
    // A number or a nested object where a string is expected is not the value to replace.
    expect(() => editJsonStrings('{"h": 5}', 'f.json', [{ path: ['h'], from: '5', to: 'z' }])).toThrow(expect.objectContaining({ code: 'EDIT_NOT_LOCATED' }))
    expect(() => editJsonStrings('{"h": {"x": "old"}}', 'f.json', [{ path: ['h'], from: 'old', to: 'z' }])).toThrow(
      expect.objectContaining({ code: 'EDIT_NOT_LOCATED' }),
    )
  })

  test('refuses when the key occurs again with a value of another kind, which JSON.parse would keep', () => {
    expect(() => editJsonStrings('{"h": "old", "h": 5}', 'cases.json', [{ path: ['h'], from: 'old', to: 'new' }])).toThrowErrorMatchingInlineSnapshot(`
      [RevisionError: cases.json › h: the edited text would not hold the intended value there; nothing was changed.
        expected: "new"
        fix:      make sure every key occurs once per object, then run the command again.]
    `)
    expect(() => editJsonStrings('{"h": "old", "h": {"x": 1}}', 'cases.json', [{ path: ['h'], from: 'old', to: 'new' }])).toThrow(
      /would not hold the intended value/,
    )
    expect(() => editJsonStrings('{"h": "old", "h": "x"}', 'cases.json', [{ path: ['h'], from: 'old', to: 'new' }])).toThrow(
      /would not hold the intended value/,
    )
    expect(() => editJsonStrings('{"h": {"x": "old"}, "h": null}', 'cases.json', [{ path: ['h', 'x'], from: 'old', to: 'new' }])).toThrow(
      /would not hold the intended value/,
    )
  })

  test('an edit that changes nothing leaves the text as it is, and no edit at all too', () => {
    expect(editJsonStrings('{"h": "same"}\n', 'f.json', [{ path: ['h'], from: 'same', to: 'same' }])).toBe('{"h": "same"}\n')
    expect(editJsonStrings('{"h": "same"}\n', 'f.json', [])).toBe('{"h": "same"}\n')
  })

  test('an edit inside one element of a top-level list reads that element: the same text, and the same refusals with the full path', () => {
    const cases = Array.from({ length: 50 }, (_, index) => ({ id: `c${index}`, sha: 'old', nested: { sha: 'old' } }))
    const text = `${JSON.stringify({ name: 'x', cases }, null, 2)}\n`
    const edited = editJsonStrings(text, 'cases.json', [
      { path: ['cases', 7, 'sha'], from: 'old', to: 'new' },
      { path: ['cases', 3, 'nested', 'sha'], from: 'old', to: 'new' },
    ])
    expect(edited).toBe(text.replace(/("id": "c3",[^}]*"sha": )"old"/, '$1"new"').replace(/("id": "c7",\n\s*"sha": )"old"/, '$1"new"'))
    const parsed = JSON.parse(edited) as { cases: typeof cases }
    expect([parsed.cases[7]!.sha, parsed.cases[3]!.nested.sha, parsed.cases[3]!.sha, parsed.cases[8]!.sha]).toEqual(['new', 'new', 'old', 'old'])

    const twice = text.replace('"id": "c5",', '"id": "c5",\n      "sha": "old",')
    expect(() => editJsonStrings(twice, 'cases.json', [{ path: ['cases', 5, 'sha'], from: 'old', to: 'new' }])).toThrow(
      expect.objectContaining({ code: 'EDIT_NOT_LOCATED', path: ['cases', 5, 'sha'] }),
    )
  })
})
