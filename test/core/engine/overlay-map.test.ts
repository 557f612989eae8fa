import { describe, expect, test } from 'vitest'
import { editedValue } from '../../../src/core/engine/entry-edits.js'
import { FLATTEN_AT, OverlayMap } from '../../../src/core/engine/overlay-map.js'

describe("a document's reviews by case, shared with the document before a save", () => {
  test('read as the map with the saved entries set: the same entries, sizes and order, the document before unchanged', () => {
    const base = new Map([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ])
    const once = OverlayMap.withEntries(base, [
      ['b', 20],
      ['d', 4],
    ])
    const twice = OverlayMap.withEntries(once, [
      ['a', 10],
      ['e', 5],
    ])
    const expected = new Map(base)
    for (const [key, value] of [
      ['b', 20],
      ['d', 4],
      ['a', 10],
      ['e', 5],
    ] as const)
      expected.set(key, value)
    expect([...twice]).toEqual([...expected])
    expect([...twice.keys()]).toEqual([...expected.keys()])
    expect(twice.size).toBe(5)
    expect(twice.get('b')).toBe(20)
    expect(twice.has('z')).toBe(false)
    expect(twice instanceof Map).toBe(true)
    expect([...once]).toEqual([
      ['a', 1],
      ['b', 20],
      ['c', 3],
      ['d', 4],
    ])
    expect([...base]).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ])
    expect(() => (twice as Map<string, number>).set('a', 0)).toThrow(TypeError)
  })

  test('once the saved entries are many, they are copied into one plain map, which reads the same', () => {
    const base = new Map(Array.from({ length: FLATTEN_AT }, (_, index) => [`case-${index}`, index]))
    let map: ReadonlyMap<string, number> = base
    for (let index = 0; index < FLATTEN_AT; index++) map = OverlayMap.withEntries(map, [[`case-${index}`, -index]])
    expect(map).not.toBeInstanceOf(OverlayMap)
    expect([...map]).toEqual([...base].map(([key, value]) => [key, -value]))
  })
})

describe('a save given entry by entry, made into the value of a records document', () => {
  const document = Object.freeze({ origin: 'o', reviews: Object.freeze([Object.freeze({ id: 'a', expected: Object.freeze({ sha: 'x' }) })]) })

  test('puts and string edits made on copies, the other entries the very values they were', () => {
    const edited = editedValue(document, 'reviews', [
      { kind: 'put', index: 'end', value: { id: 'b' } },
      { kind: 'strings', edits: [{ path: ['reviews', 0, 'expected', 'sha'], from: 'x', to: 'y' }] },
    ])
    expect(edited?.value).toEqual({ origin: 'o', reviews: [{ id: 'a', expected: { sha: 'y' } }, { id: 'b' }] })
    expect(edited?.changed).toEqual([{ id: 'a', expected: { sha: 'y' } }, { id: 'b' }])
    expect(document.reviews[0]?.expected.sha).toBe('x')
  })

  test('a string that is not where the edit expects it is left to the edit of the text, which names it', () => {
    expect(editedValue(document, 'reviews', [{ kind: 'strings', edits: [{ path: ['reviews', 0, 'expected', 'sha'], from: 'z', to: 'y' }] }])).toBeUndefined()
    expect(editedValue(document, 'reviews', [{ kind: 'put', index: 5, value: {} }])).toBeUndefined()
  })
})
