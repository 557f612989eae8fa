import fc from 'fast-check'
import { expect, test } from 'vitest'
import { styled, styledPieces } from '../../../src/core/store/document-style.js'

/**
 * A document the records make is hashed in pieces (a million cases are longer than a string can be):
 * the pieces must join into exactly the text `styled` makes, in every style a seed document is kept in.
 */
const json = fc.jsonValue({ maxDepth: 3 })
const document = fc.record({
  name: fc.string(),
  extra: fc.option(json, { nil: undefined }),
  reviews: fc.array(fc.oneof(json, fc.record({ answer_id: fc.string({ unit: 'grapheme' }), judgements: fc.dictionary(fc.string(), json) })), { maxLength: 6 }),
  after: fc.option(fc.string({ unit: 'grapheme' }), { nil: undefined }),
})
const style = fc.record({ indent: fc.constantFrom(0, 2, 4), ascii: fc.boolean(), newline: fc.boolean() })

test('the pieces of a styled document join into its text', () => {
  fc.assert(
    fc.property(document, style, (value, chosen) => {
      expect([...styledPieces(value, 'reviews', chosen)].join('')).toBe(styled(value, chosen))
    }),
    { numRuns: 500 },
  )
})

test('an empty document and an empty list are written as JSON.stringify writes them', () => {
  for (const chosen of [
    { indent: 2, ascii: false, newline: true },
    { indent: 0, ascii: true, newline: false },
  ]) {
    expect([...styledPieces({}, 'reviews', chosen)].join('')).toBe(styled({}, chosen))
    expect([...styledPieces({ origin: 'x', reviews: [] }, 'reviews', chosen)].join('')).toBe(styled({ origin: 'x', reviews: [] }, chosen))
  }
})
