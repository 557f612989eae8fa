import { isUtf8 } from 'node:buffer'
import { describe, expect, test } from 'vitest'
import { locateInvalidUtf8 } from '../../../src/core/json/invalid-utf8.js'

const bytes = (...values: number[]) => Uint8Array.from(values)
const text = (value: string) => new TextEncoder().encode(value)
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]))

/** The offset of the first bad byte as isUtf8 sees it: the end of the longest valid prefix. */
function referenceOffset(data: Uint8Array): number | undefined {
  if (isUtf8(data)) return undefined
  let offset = 0
  for (let end = 1; end <= data.length; end++) if (isUtf8(data.subarray(0, end))) offset = end
  return offset
}

describe('locateInvalidUtf8', () => {
  test('finds nothing in UTF-8 text, whatever its characters', () => {
    expect(locateInvalidUtf8(text(''))).toBeUndefined()
    expect(locateInvalidUtf8(text('plain\ncafé 中文 \u{1F600} \u{10FFFF} \u007f'))).toBeUndefined()
  })

  test('names a Latin-1 byte with its line, its column in characters and its byte offset', () => {
    expect(locateInvalidUtf8(bytes(0x63, 0x61, 0x66, 0xe9))).toEqual({ offset: 3, line: 1, column: 4, found: 'the byte 0xE9 at byte offset 3' })
    // Line 3; before the bad byte on that line, "é中" is two characters in five bytes.
    expect(locateInvalidUtf8(concat(text('ab\n\ncé中'), bytes(0x92), text('x\n')))).toEqual({
      offset: 10,
      line: 3,
      column: 4,
      found: 'the byte 0x92 at byte offset 10',
    })
    expect(locateInvalidUtf8(concat(text('ab\n'), bytes(0xff)))).toEqual({ offset: 3, line: 2, column: 1, found: 'the byte 0xFF at byte offset 3' })
  })

  test('recognizes UTF-16 by its byte-order mark, in either byte order', () => {
    expect(locateInvalidUtf8(bytes(0xff, 0xfe, 0x61, 0x00))).toEqual({
      offset: 0,
      line: 1,
      column: 1,
      found: 'the bytes FF FE at the start of the file, a UTF-16 byte-order mark: the file is UTF-16 text',
    })
    expect(locateInvalidUtf8(bytes(0xfe, 0xff, 0x00, 0x61))?.found).toBe(
      'the bytes FE FF at the start of the file, a UTF-16 byte-order mark: the file is UTF-16 text',
    )
    // Half a mark, or one of its bytes twice, is a bad byte like any other.
    expect(locateInvalidUtf8(bytes(0xff, 0xff))?.found).toBe('the byte 0xFF at byte offset 0')
    expect(locateInvalidUtf8(bytes(0xfe, 0xfe))?.found).toBe('the byte 0xFE at byte offset 0')
    expect(locateInvalidUtf8(bytes(0xfe))?.found).toBe('the byte 0xFE at byte offset 0')
    expect(locateInvalidUtf8(bytes(0x61, 0xff, 0xfe))?.found).toBe('the byte 0xFF at byte offset 1')
  })

  test.each([
    ['a lone continuation byte', [0x80], 0],
    ['an overlong two-byte form', [0xc1, 0xbf], 0],
    ['a two-byte lead at the end', [0x61, 0xc3], 1],
    ['a lead byte followed by ASCII', [0xc3, 0x41], 0],
    ['an overlong three-byte form', [0xe0, 0x9f, 0xbf], 0],
    ['a surrogate', [0xed, 0xa0, 0x80], 0],
    ['a bad third byte', [0xe1, 0x80, 0xc0], 0],
    ['an overlong four-byte form', [0xf0, 0x8f, 0xbf, 0xbf], 0],
    ['a code point beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a lead byte beyond F4', [0xf5, 0x80, 0x80, 0x80], 0],
    ['a bad fourth byte', [0xf1, 0x80, 0x80, 0x7f], 0],
    ['a bad byte after a four-byte character', [0xf0, 0x9f, 0x98, 0x80, 0xc0], 4],
  ])('finds %s where isUtf8 stops', (_, values, offset) => {
    const data = bytes(...values)
    expect(isUtf8(data)).toBe(false)
    expect(locateInvalidUtf8(data)?.offset).toBe(offset)
  })

  test('agrees with isUtf8 on every two-byte sequence and on the edges of every longer one', () => {
    const disagreements: string[] = []
    const check = (data: Uint8Array) => {
      if (locateInvalidUtf8(data)?.offset !== referenceOffset(data)) disagreements.push(Buffer.from(data).toString('hex'))
    }
    for (let first = 0; first < 256; first++) for (let second = 0; second < 256; second++) check(bytes(first, second))
    const edges = [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff]
    for (let lead = 0xe0; lead <= 0xf5; lead++) {
      for (const second of edges)
        for (const third of edges) {
          check(bytes(lead, second, third))
          for (const fourth of edges) check(bytes(lead, second, third, fourth))
        }
    }
    expect(disagreements).toEqual([])
  })

  test('reads a view into a larger buffer from its own start', () => {
    const backing = concat(text('中中中中\n'), text('ab\nwxyz'), bytes(0xe9))
    expect(locateInvalidUtf8(backing.subarray(13))).toEqual({ offset: 7, line: 2, column: 5, found: 'the byte 0xE9 at byte offset 7' })
  })
})
