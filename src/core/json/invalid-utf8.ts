/** Where the bytes of a file stop being UTF-8, for error messages. */
export interface InvalidUtf8 {
  /** Offset of the first byte that does not start or continue a UTF-8 character. */
  readonly offset: number
  /** 1-based line and column (in characters) of that byte. */
  readonly line: number
  readonly column: number
  /** What is there, in words: `the byte 0xE9 at byte offset 40`, or a UTF-16 byte-order mark. */
  readonly found: string
}

/**
 * Finds the first byte sequence that is not UTF-8 (the same rules as `isUtf8`: no overlong forms,
 * no surrogates, nothing above U+10FFFF). Only called once a file has failed the check; returns
 * `undefined` for valid UTF-8.
 */
export function locateInvalidUtf8(bytes: Uint8Array): InvalidUtf8 | undefined {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    const mark = bytes[0] === 0xff ? 'FF FE' : 'FE FF'
    return { offset: 0, line: 1, column: 1, found: `the bytes ${mark} at the start of the file, a UTF-16 byte-order mark: the file is UTF-16 text` }
  }
  let at = 0
  while (at < bytes.length) {
    const length = sequenceLength(bytes, at)
    if (length === 0) return describe(bytes, at)
    at += length
  }
  return undefined
}

/** The length of the UTF-8 character starting at `at`, or 0 when none starts there. */
function sequenceLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at]!
  if (lead < 0x80) return 1
  // The range of the second byte depends on the lead byte; further bytes are 80..BF.
  let length: number
  let low = 0x80
  let high = 0xbf
  if (lead >= 0xc2 && lead <= 0xdf) length = 2
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3
    if (lead === 0xe0) low = 0xa0
    if (lead === 0xed) high = 0x9f
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4
    if (lead === 0xf0) low = 0x90
    if (lead === 0xf4) high = 0x8f
  } else return 0
  for (let index = 1; index < length; index++) {
    const byte = bytes[at + index]
    if (byte === undefined || byte < (index === 1 ? low : 0x80) || byte > (index === 1 ? high : 0xbf)) return 0
  }
  return length
}

function describe(bytes: Uint8Array, offset: number): InvalidUtf8 {
  let lineStart = 0
  let line = 1
  for (let index = 0; index < offset; index++) {
    if (bytes[index] === 0x0a) {
      line++
      lineStart = index + 1
    }
  }
  const before = Buffer.from(bytes.buffer, bytes.byteOffset + lineStart, offset - lineStart).toString('utf8')
  // A byte that starts no character is 0x80 or above: always two hexadecimal digits.
  const byte = bytes[offset]!.toString(16).toUpperCase()
  return { offset, line, column: before.length + 1, found: `the byte 0x${byte} at byte offset ${offset}` }
}
