import { describe, expect, test } from 'vitest'
import { compactRecordLines } from '../../../src/core/store/compact.js'
import { checkItemRecord, type ItemRecord, itemContent, itemKey, lineHash, parseRecordLines, recordLine } from '../../../src/core/store/records.js'
import { fold } from '../../../src/core/store/fold.js'

/**
 * Compacting a record file removes exactly the lines the fold passes over, so every key keeps its
 * current lines (forks included) with their bytes; and a removed line brought back by a git merge
 * stays superseded.
 */

const PROVENANCE = { save: '0123456789ab', at: '2026-12-06T07:00:00.000Z', by: 'lab@host' }

function line(caseId: string, rating: string, replaces: readonly string[] = [], save = PROVENANCE.save): string {
  const record: ItemRecord = { doc: 'annotations.json', case: caseId, n: 0, item: { answer_id: caseId, rating }, replaces, ...PROVENANCE, save }
  return recordLine(record)
}

function read(text: string) {
  const superseded = new Set<string>()
  const lines = parseRecordLines<ItemRecord>(text, 'records/0.jsonl', checkItemRecord, superseded)
  return { lines, superseded }
}

const keyOf = (record: ItemRecord) => itemKey(record.doc, record.case, record.slot)

/** Each key's current lines, as their ratings. */
function current(text: string): Record<string, string[]> {
  const { lines, superseded } = read(text)
  const folded = fold(lines, keyOf, itemContent, superseded)
  return Object.fromEntries(
    [...folded.values()].map((each) => [each.heads[0]!.record.case, each.heads.map((head) => (head.record.item as { rating: string }).rating)]),
  )
}

function compact(text: string) {
  const { lines, superseded } = read(text)
  return compactRecordLines(text, lines, superseded, keyOf, PROVENANCE)
}

// A review revised twice (m ← l ← s), and one never revised.
const m = line('t1', 'first')
const l = line('t1', 'second', [lineHash(m)])
const s = line('t1', 'third', [lineHash(l)])
const other = line('t2', 'only')
const revised = m + other + l + s

describe('compact', () => {
  test('keeps each current line byte for byte and in order, and the fold reads the same', () => {
    const result = compact(revised)
    expect(result).toMatchObject({ changed: true, before: 4, after: 3 })
    const [header, ...kept] = result.text.split('\n').slice(0, -1)
    expect(kept.map((each) => `${each}\n`)).toEqual([other, s])
    expect(JSON.parse(header!)).toEqual({ superseded: [lineHash(m), lineHash(l)].sort(), ...PROVENANCE })
    expect(current(result.text)).toEqual(current(revised))
    expect(current(result.text)).toEqual({ t1: ['third'], t2: ['only'] })
  })

  test('a kept line names a line no longer there: it is current, and a later revision of it is current in turn', () => {
    const compacted = compact(revised).text
    expect(current(compacted).t1).toEqual(['third'])
    const next = line('t1', 'fourth', [lineHash(s)])
    expect(current(compacted + next).t1).toEqual(['fourth'])
  })

  test('a removed line brought back by a merge stays superseded; without the compaction line it would read as current', () => {
    const compacted = compact(revised).text
    // A union merge keeps both sides of a conflicting hunk: the base's m comes back, l (made after the branch) does not.
    const merged = `${compacted}${m}${line('t3', 'from the other branch')}`
    expect(current(merged)).toEqual({ t1: ['third'], t2: ['only'], t3: ['from the other branch'] })
    const withoutHeader = merged.slice(merged.indexOf('\n') + 1)
    expect(current(withoutHeader).t1).toEqual(['third', 'first'])
  })

  test('a fork keeps both revisions, and the line they replace goes', () => {
    const laptop = line('t1', 'laptop', [lineHash(m)], 'aaaaaaaaaaaa')
    const desktop = line('t1', 'desktop', [lineHash(m)], 'bbbbbbbbbbbb')
    const forked = m + laptop + desktop
    const result = compact(forked)
    expect(
      result.text
        .split('\n')
        .slice(1, -1)
        .map((each) => `${each}\n`),
    ).toEqual([laptop, desktop])
    expect(current(result.text).t1).toEqual(['laptop', 'desktop'])
  })

  test('a line held twice (both sides of a merge) is kept once', () => {
    const result = compact(m + other + m)
    expect(result.text).toBe(m + other)
    expect(current(result.text)).toEqual(current(m + other + m))
  })

  test('a second compaction keeps the lines the first one named', () => {
    const first = compact(revised).text
    const next = line('t1', 'fourth', [lineHash(s)])
    const second = compact(first + next)
    const header = JSON.parse(second.text.split('\n')[0]!) as { superseded: string[] }
    expect(header.superseded).toEqual([lineHash(m), lineHash(l), lineHash(s)].sort())
    expect(current(second.text + m + s).t1).toEqual(['fourth'])
  })

  test('a file with nothing superseded is left as it is', () => {
    expect(compact(m + other)).toEqual({ text: m + other, before: 2, after: 2, changed: false })
  })

  test('a compaction line that names something other than SHA-256s refuses the file, naming the line', () => {
    expect(() => read(`${JSON.stringify({ superseded: ['not a hash'], ...PROVENANCE })}\n`)).toThrow(
      /records\/0\.jsonl:1[\s\S]*a compaction line holds superseded/,
    )
  })
})
