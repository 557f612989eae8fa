import { describe, expect, test } from 'vitest'
import { plural } from '../../../src/core/common/primitives.js'

describe('plural', () => {
  test('one takes the singular; zero and many take the plural', () => {
    expect([0, 1, 2].map((count) => plural(count, 'stale label'))).toEqual(['0 stale labels', '1 stale label', '2 stale labels'])
  })

  test('an irregular plural, and the number written as the caller shows it', () => {
    expect(plural(1, 'criterion', 'criteria')).toBe('1 criterion')
    expect(plural(3, 'criterion', 'criteria')).toBe('3 criteria')
    expect(plural(1000, 'case', 'cases', '1,000')).toBe('1,000 cases')
  })
})
