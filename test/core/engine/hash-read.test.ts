import { describe, expect, test } from 'vitest'
import { hashRead } from '../../../src/core/engine/fixture-files-seen.js'
import { sha256Hex } from '../../../src/core/json/canonical-json.js'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('a file read again by the incremental evaluation', () => {
  test('appended to since it was read: its hash, and that it begins with the bytes read before', () => {
    const before = bytes('{"case":"a"}\n{"case":"b"}\n')
    const after = bytes('{"case":"a"}\n{"case":"b"}\n{"case":"c"}\n')
    expect(hashRead(after, { length: before.length, sha256: sha256Hex(before) })).toEqual({
      sha256: sha256Hex(after),
      grownFrom: { length: before.length, sha256: sha256Hex(before) },
    })
  })

  test('rewritten longer with other bytes first, or shorter: its hash alone, so that it is read whole', () => {
    const before = bytes('{"case":"a"}\n{"case":"b"}\n')
    const rewritten = bytes('{"case":"A"}\n{"case":"b"}\n{"case":"c"}\n')
    expect(hashRead(rewritten, { length: before.length, sha256: sha256Hex(before) })).toEqual({ sha256: sha256Hex(rewritten) })
    const shorter = bytes('{"case":"a"}\n')
    expect(hashRead(shorter, { length: before.length, sha256: sha256Hex(before) })).toEqual({ sha256: sha256Hex(shorter) })
    expect(hashRead(before, undefined)).toEqual({ sha256: sha256Hex(before) })
  })
})
