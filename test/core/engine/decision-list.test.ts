import { describe, expect, test } from 'vitest'
import type { Decision } from '../../../src/core/contract/decision.js'
import { DecisionList } from '../../../src/core/engine/decision-list.js'

const decision = (id: string, status: 'accepted' | 'pending'): Decision => ({ id, split: 'development', status, reason: `${id} ${status}` })

describe('the decisions of an incremental evaluation, made when first read', () => {
  test('each list gives its own decisions, however many saves were made after it and whichever is read first', () => {
    const first = Array.from({ length: 10 }, (_, index) => decision(`case-${index}`, 'pending'))
    const lists = [DecisionList.of(first)]
    const expected = [first]
    // More saves than a chain holds, each deciding one case again: a few lists are read as they come, the others only at the end.
    for (let save = 1; save <= 70; save++) {
      const position = save % 4
      const after = decision(`case-${position}`, save % 2 === 0 ? 'accepted' : 'pending')
      lists.push(lists.at(-1)!.patched([{ position, after }]))
      expected.push(expected.at(-1)!.map((each, index) => (index === position ? after : each)))
      if (save % 25 === 0) expect(lists.at(-1)!.list).toEqual(expected.at(-1))
    }
    for (const index of [70, 3, 40, 0, 33, 69]) expect(lists[index]!.list, `list ${index}`).toEqual(expected[index])
    // The very decision objects, not copies; and the first list as it was.
    for (const [index, each] of lists[70]!.list.entries()) expect(each).toBe(expected[70]![index])
    expect(lists[0]!.list).toBe(first)
  })
})
