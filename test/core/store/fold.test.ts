import { describe, expect, test } from 'vitest'
import { foldKey } from '../../../src/core/store/fold.js'
import type { Stored } from '../../../src/core/store/records.js'

// Which lines of one key are current. Each line here is a record with its content, what it replaces,
// and a save that tells two copies of one change apart (as two branches' saves do).

interface Line {
  readonly content: string
  readonly replaces: readonly string[]
  readonly save: string
}

const stored = (name: string, content: string, replaces: readonly string[] = [], save = name): Stored<Line> => ({
  record: { content, replaces, save },
  line: JSON.stringify({ content, replaces, save }),
  hash: `hash-of-${name}`,
  at: `records/0.jsonl:${name}`,
})

const heads = (...lines: Stored<Line>[]) =>
  foldKey('k', lines, (record) => record.content, new Set())?.heads.map((head) => `${head.record.content} (${head.record.save})`)

describe('foldKey', () => {
  test('a revision of one copy of a change made twice replaces both copies', () => {
    const a1 = stored('a1', 'A')
    const a2 = stored('a2', 'A')
    expect(heads(a1, a2)).toEqual(['A (a1)'])
    expect(heads(a1, a2, stored('b', 'B', [a1.hash]))).toEqual(['B (b)'])
  })

  test('two revisions of one change, each of another copy, are still a fork', () => {
    const a1 = stored('a1', 'A')
    const a2 = stored('a2', 'A')
    expect(heads(a1, a2, stored('b', 'B', [a1.hash]), stored('c', 'C', [a2.hash]))).toEqual(['B (b)', 'C (c)'])
  })

  test('copies of a revision that replaced different copies of one change are one change too', () => {
    const a1 = stored('a1', 'A')
    const a2 = stored('a2', 'A')
    const b1 = stored('b1', 'B', [a1.hash])
    const b2 = stored('b2', 'B', [a2.hash])
    expect(heads(a1, a2, b1, b2, stored('c', 'C', [b1.hash]))).toEqual(['C (c)'])
  })

  test('a revision back to earlier content is a change of its own and stays current', () => {
    const a = stored('a', 'A')
    const b = stored('b', 'B', [a.hash])
    expect(heads(a, b, stored('back', 'A', [b.hash]))).toEqual(['A (back)'])
  })

  test('the same content revising other records is another change: replacing one leaves the other', () => {
    const a = stored('a', 'A')
    const x = stored('x', 'X')
    const fromA = stored('from-a', 'B', [a.hash])
    const fromX = stored('from-x', 'B', [x.hash])
    expect(heads(a, x, fromA, fromX, stored('c', 'C', [fromA.hash]))).toEqual(['B (from-x)', 'C (c)'])
  })

  test('a cycle of replaces made by hand leaves nothing current rather than looping', () => {
    const a = stored('a', 'A', ['hash-of-b'])
    const b = stored('b', 'B', [a.hash])
    expect(heads(a, b)).toBeUndefined()
  })
})
