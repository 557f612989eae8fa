import { constants } from 'node:buffer'
import { expect, test } from 'vitest'
import { FixtureError } from '../../../src/core/common/errors.js'
import { decodeText } from '../../../src/core/json/read.js'

test('a file whose text is longer than a string can be is refused with its size and the way out, not a crash', () => {
  // One byte past the limit, all spaces: valid UTF-8, one character per byte.
  const bytes = Buffer.alloc(constants.MAX_STRING_LENGTH + 1, 0x20)
  let thrown: unknown
  try {
    decodeText({ display: 'fixtures/huge/annotations.json', bytes })
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(FixtureError)
  const error = thrown as FixtureError
  expect(error.code).toBe('FILE_TOO_LARGE')
  expect(error.message).toContain('fixtures/huge/annotations.json')
  expect(error.message).toContain(`found:    ${(constants.MAX_STRING_LENGTH + 1).toLocaleString('en-US')} bytes`)
  expect(error.message).toContain('split the cases and their reviews into several fixture directories')
})
