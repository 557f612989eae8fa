import { describe, expect, test } from 'vitest'
import { sha256Hex } from '../../../src/core/json/canonical-json.js'
import { convertedRevisions, explainStaleBytes, fileConversionNote } from '../../../src/core/json/line-endings.js'

const BOM = '\ufeff'
const bytes = (text: string) => new TextEncoder().encode(text)
const hashOf = (text: string) => sha256Hex(bytes(text))
const stale = { summary: 'the case was bound to another revision of source.txt.', hint: 'review the answer, then bind the case.' }

describe('convertedRevisions', () => {
  test('LF text without a mark: only the CRLF conversion, which leaves no LF alone', () => {
    expect(convertedRevisions(bytes('a\nb\n'))).toEqual({ hasCr: false, hasBom: false, asLf: null, asCrlf: hashOf('a\r\nb\r\n') })
    expect(convertedRevisions(bytes('no newline'))).toEqual({ hasCr: false, hasBom: false, asLf: null, asCrlf: null })
  })

  test('CRLF text: back to LF, and a lone LF among CRLFs converted too', () => {
    expect(convertedRevisions(bytes('a\r\nb\nc\r'))).toEqual({ hasCr: true, hasBom: false, asLf: hashOf('a\nb\nc\r'), asCrlf: hashOf('a\r\nb\r\nc\r') })
  })

  test('a byte-order mark is removed, with the line endings converted too', () => {
    expect(convertedRevisions(bytes(`${BOM}a\r\n`))).toEqual({ hasCr: true, hasBom: true, asLf: hashOf('a\n'), asCrlf: hashOf(`${BOM}a\r\n`) })
    expect(convertedRevisions(bytes(`${BOM}a`))).toEqual({ hasCr: false, hasBom: true, asLf: hashOf('a'), asCrlf: null })
    // Only the three bytes of the mark count, at the start: not two of them, not later.
    expect(convertedRevisions(Uint8Array.from([0xef, 0xbb]))).toMatchObject({ hasBom: false, asLf: null })
    expect(convertedRevisions(Uint8Array.from([0xef, 0xbb, 0xbe]))).toMatchObject({ hasBom: false })
    expect(convertedRevisions(Uint8Array.from([0xef, 0xba, 0xbf]))).toMatchObject({ hasBom: false })
    expect(convertedRevisions(Uint8Array.from([0xee, 0xbb, 0xbf]))).toMatchObject({ hasBom: false })
    expect(convertedRevisions(bytes(`a${BOM}`))).toMatchObject({ hasBom: false, asLf: null })
  })

  test('works on bytes that are not UTF-8, and on a view into a larger buffer', () => {
    expect(convertedRevisions(Uint8Array.from([0xe9, 0x0d, 0x0a]))).toEqual({
      hasCr: true,
      hasBom: false,
      asLf: sha256Hex(Uint8Array.from([0xe9, 0x0a])),
      asCrlf: sha256Hex(Uint8Array.from([0xe9, 0x0d, 0x0a])),
    })
    expect(convertedRevisions(bytes('xx\r\na\nb').subarray(4))).toEqual(convertedRevisions(bytes('a\nb')))
  })
})

describe('the message of a stale binding', () => {
  test('says definitely when converting back to LF gives the recorded hash', () => {
    const now = bytes('a\r\nb\r\n')
    expect(explainStaleBytes(stale, 'source.txt', hashOf('a\nb\n'), convertedRevisions(now))).toMatchInlineSnapshot(`
      {
        "hint": "convert its line endings back to LF (git's core.autocrlf or an editor converted the file; no review needs to change), and add a .gitattributes line such as \`fixtures/** -text\` so that git never converts fixture files.",
        "summary": "the case was bound to another revision of source.txt. Only its line endings changed: with LF line endings, source.txt has the recorded SHA-256.",
      }
    `)
    expect(fileConversionNote('source.txt', [hashOf('a\nb\n')], convertedRevisions(now))).toMatchInlineSnapshot(
      `"Only its line endings changed: with LF line endings, source.txt has the recorded SHA-256. Convert its line endings back to LF (git's core.autocrlf or an editor converted the file; no review needs to change), and add a .gitattributes line such as \`fixtures/** -text\` so that git never converts fixture files."`,
    )
  })

  test('says definitely when removing the byte-order mark gives the recorded hash, with or without line endings', () => {
    expect(explainStaleBytes(stale, 'source.txt', hashOf('a\n'), convertedRevisions(bytes(`${BOM}a\n`)))).toMatchInlineSnapshot(`
      {
        "hint": "remove the byte-order mark (git's core.autocrlf or an editor converted the file; no review needs to change), and add a .gitattributes line such as \`fixtures/** -text\` so that git never converts fixture files.",
        "summary": "the case was bound to another revision of source.txt. Only its byte-order mark changed: without the byte-order mark, source.txt has the recorded SHA-256.",
      }
    `)
    expect(explainStaleBytes(stale, 'source.txt', hashOf('a\n'), convertedRevisions(bytes(`${BOM}a\r\n`)))).toMatchInlineSnapshot(`
      {
        "hint": "convert its line endings back to LF and remove the byte-order mark (git's core.autocrlf or an editor converted the file; no review needs to change), and add a .gitattributes line such as \`fixtures/** -text\` so that git never converts fixture files.",
        "summary": "the case was bound to another revision of source.txt. Only its line endings and byte-order mark changed: with LF line endings and without the byte-order mark, source.txt has the recorded SHA-256.",
      }
    `)
  })

  test('says definitely when the recorded hash is of the file with CRLF line endings', () => {
    const now = bytes('a\nb\n')
    expect(explainStaleBytes(stale, 'rubric.json', hashOf('a\r\nb\r\n'), convertedRevisions(now))).toMatchInlineSnapshot(`
      {
        "hint": "add a .gitattributes line such as \`fixtures/** -text\` so that git never converts fixture files, then bind the case to the file as committed; no review needs to change.",
        "summary": "the case was bound to another revision of source.txt. Only its line endings changed: the recorded SHA-256 is that of rubric.json with CRLF line endings, as a checkout converted by git's core.autocrlf has them.",
      }
    `)
    expect(fileConversionNote('rubric.json', [hashOf('a\r\nb\r\n')], convertedRevisions(now))).toMatchInlineSnapshot(
      `"Only its line endings changed: the recorded SHA-256 is that of rubric.json with CRLF line endings, as a checkout converted by git's core.autocrlf has them. Add a .gitattributes line such as \`fixtures/** -text\` so that git never converts fixture files, then bind the case to the file as committed; no review needs to change."`,
    )
  })

  test('says "may" when the file holds CR characters or a mark but no conversion gives the recorded hash', () => {
    const other = hashOf('something else')
    expect(explainStaleBytes(stale, 'source.txt', other, convertedRevisions(bytes('a\r\n')))).toMatchInlineSnapshot(`
      {
        "hint": "review the answer, then bind the case. source.txt holds CR characters, so its line endings may have changed, for example through git's core.autocrlf or an editor. If nothing else changed, convert its line endings back to LF instead, and add a .gitattributes line such as \`fixtures/** -text\` so that git never converts fixture files.",
        "summary": "the case was bound to another revision of source.txt.",
      }
    `)
    expect(explainStaleBytes(stale, 'source.txt', other, convertedRevisions(bytes(`${BOM}a`)))).toMatchInlineSnapshot(`
      {
        "hint": "review the answer, then bind the case. source.txt starts with a byte-order mark, so its byte-order mark may have changed, for example through git's core.autocrlf or an editor. If nothing else changed, remove the byte-order mark instead, and add a .gitattributes line such as \`fixtures/** -text\` so that git never converts fixture files.",
        "summary": "the case was bound to another revision of source.txt.",
      }
    `)
    expect(explainStaleBytes(stale, 'source.txt', other, convertedRevisions(bytes(`${BOM}a\r\n`)))).toMatchInlineSnapshot(`
      {
        "hint": "review the answer, then bind the case. source.txt holds CR characters and starts with a byte-order mark, so its line endings and byte-order mark may have changed, for example through git's core.autocrlf or an editor. If nothing else changed, convert its line endings back to LF and remove the byte-order mark instead, and add a .gitattributes line such as \`fixtures/** -text\` so that git never converts fixture files.",
        "summary": "the case was bound to another revision of source.txt.",
      }
    `)
    expect(fileConversionNote('source.txt', [other], convertedRevisions(bytes(`${BOM}a\r\n`)))).toMatchInlineSnapshot(
      `"source.txt holds CR characters and starts with a byte-order mark, so its line endings and byte-order mark may have changed, for example through git's core.autocrlf or an editor. If nothing else changed, convert its line endings back to LF and remove the byte-order mark instead, and add a .gitattributes line such as \`fixtures/** -text\` so that git never converts fixture files."`,
    )
  })

  test('is left as it is when no conversion is in sight', () => {
    const other = hashOf('something else')
    expect(explainStaleBytes(stale, 'source.txt', other, convertedRevisions(bytes('a\nb\n')))).toBe(stale)
    expect(explainStaleBytes(stale, 'source.txt', other, undefined)).toBe(stale)
    expect(fileConversionNote('source.txt', [other], convertedRevisions(bytes('a\nb\n')))).toBeUndefined()
    expect(fileConversionNote('source.txt', [other], undefined)).toBeUndefined()
  })

  test('keeps the other details of the error', () => {
    const details = { ...stale, code: 'CASE_SOURCE_STALE', found: 'x' }
    expect(explainStaleBytes(details, 'source.txt', hashOf('a\n'), convertedRevisions(bytes('a\r\n')))).toMatchObject({ code: 'CASE_SOURCE_STALE', found: 'x' })
  })
})
