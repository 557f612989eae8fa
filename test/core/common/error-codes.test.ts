import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { RUBRIC_ERROR_CODES } from '../../../src/core/common/errors.js'
import { HTTP_STATUS } from '../../../src/web/status.js'
import { ROOT } from '../../helpers/fixture-copy.js'

// Every code of the union is documented once, in docs/errors.md, as a table row: | `CODE` | means | fix |
const doc = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8')
const rows = [...doc.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!)
const source = readFileSync(join(ROOT, 'src/core/common/errors.ts'), 'utf8')

describe('docs/errors.md', () => {
  test('documents every code of the union exactly once', () => {
    const counts = new Map<string, number>()
    for (const code of rows) counts.set(code, (counts.get(code) ?? 0) + 1)
    expect(RUBRIC_ERROR_CODES.filter((code) => counts.get(code) !== 1)).toEqual([])
  })

  test('documents no code the union does not have', () => {
    const known = new Set<string>(RUBRIC_ERROR_CODES)
    expect(rows.filter((code) => !known.has(code))).toEqual([])
  })

  test("lists the codes in the union's order, under the union's groups", () => {
    expect(rows).toEqual([...RUBRIC_ERROR_CODES])
  })

  test('gives every row a meaning and a fix', () => {
    const cells = [...doc.matchAll(/^\| `[A-Z][A-Z0-9_]*` \|(.*)$/gm)].map((match) => match[1]!.split(' | ').map((cell) => cell.replace(/\|$/, '').trim()))
    expect(cells.filter((row) => row.length !== 2 || row.some((cell) => cell === ''))).toEqual([])
  })
})

describe('RUBRIC_ERROR_CODES', () => {
  test('is the one list of codes: no code is written into errors.ts outside it', () => {
    const list = source.slice(source.indexOf('export const RUBRIC_ERROR_CODES = ['), source.indexOf('] as const'))
    const quoted = [...list.matchAll(/'([A-Z][A-Z0-9_]*)'/g)].map((match) => match[1])
    expect(quoted).toEqual([...RUBRIC_ERROR_CODES])
    expect(new Set(RUBRIC_ERROR_CODES).size).toBe(RUBRIC_ERROR_CODES.length)
  })

  test('every code has an HTTP status', () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...RUBRIC_ERROR_CODES].sort())
  })
})
