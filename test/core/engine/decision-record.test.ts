import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { own } from '../../../src/core/common/primitives.js'
import {
  decisionRecordOf,
  describeRecordChanges,
  differingParts,
  readRecordedDecisions,
  recordDecisions,
  sameRecord,
  writeRecordedDecisions,
  type RecordedDecisions,
} from '../../../src/core/engine/decision-record.js'
import { evaluateFixture } from '../../../src/core/engine/evaluate.js'
import { loadFixture, type TestPlan } from '../../../src/core/registry.js'
import { DOCUCTL } from '../../helpers/fixture-copy.js'
import { scratchDir } from '../../helpers/scratch.js'

const A = 'a'.repeat(64)
const B = 'b'.repeat(64)

const recorded: RecordedDecisions = {
  kind: 'criteria',
  name: 'docuctl',
  identities: { caseSetSha256: A, gradedSetSha256: null, files: { 'rubric.json': A, 'source.txt': A } },
  decisions: {
    same: { status: 'accepted', split: 'development', reason: '' },
    flipped: { status: 'accepted', split: 'development', reason: '' },
    moved: { status: 'rejected', split: 'development', reason: 'command', ratings: { command: 'does_not_meet', tone: 'meets' } },
    rescored: { status: 'accepted', split: 'held_out', reason: '', scores: { clarity: 3, depth: null } },
    reasoned: { status: 'rejected', split: 'held_out', reason: 'command' },
    gone: { status: 'pending', split: 'held_out', reason: 'no review yet' },
  },
  checks: { gate: true, margin: false, dropped: true },
}

const current: RecordedDecisions = {
  kind: 'criteria',
  name: 'docuctl v2',
  identities: { caseSetSha256: B, gradedSetSha256: A, files: { 'rubric.json': A, 'source.txt': B, 'cases.json': B } },
  decisions: {
    same: { status: 'accepted', split: 'development', reason: '' },
    flipped: { status: 'rejected', split: 'development', reason: 'tone' },
    moved: { status: 'rejected', split: 'held_out', reason: 'command', ratings: { command: 'does_not_meet', tone: 'uncertain', extra: 'meets' } },
    rescored: { status: 'accepted', split: 'held_out', reason: '', scores: { clarity: 4 } },
    reasoned: { status: 'rejected', split: 'held_out', reason: 'command, tone' },
    added: { status: 'accepted', split: 'held_out', reason: '' },
  },
  checks: { gate: false, margin: false, added: true },
}

describe('describeRecordChanges', () => {
  test('says every difference on one line, in the order of the record', () => {
    expect(describeRecordChanges(recorded, current)).toMatchInlineSnapshot(`
      [
        "fixture: criteria "docuctl" → criteria "docuctl v2"",
        "full case set: aaaaaaaaaaaa… → bbbbbbbbbbbb…",
        "graded subset: none → aaaaaaaaaaaa…",
        "source.txt: aaaaaaaaaaaa… → bbbbbbbbbbbb…",
        "cases.json: absent → bbbbbbbbbbbb…",
        "flipped: accepted → rejected (tone)",
        "moved: split development → held_out, tone meets → uncertain, extra absent → meets",
        "rescored: clarity 3 → 4, depth N/A → absent",
        "reasoned: rejected (command) → rejected (command, tone)",
        "gone: was pending (no review yet), now gone",
        "added: new case, accepted",
        "check "gate": passed → failed",
        "check "dropped": passed → absent",
        "check "added": absent → passed",
      ]
    `)
  })

  test('says nothing for records that say the same', () => {
    expect(describeRecordChanges(recorded, structuredClone(recorded))).toEqual([])
  })

  test('names a change of kind, and a hash that appears or disappears', () => {
    const scored: RecordedDecisions = {
      ...recorded,
      kind: 'scored',
      identities: { ...recorded.identities, caseSetSha256: null, gradedSetSha256: B, files: {} },
    }
    expect(describeRecordChanges(recorded, scored).slice(0, 3)).toMatchInlineSnapshot(`
      [
        "fixture: criteria "docuctl" → scored "docuctl"",
        "full case set: aaaaaaaaaaaa… → none",
        "graded subset: none → bbbbbbbbbbbb…",
      ]
    `)
  })

  test('reads case ids such as "constructor" and "__proto__" as ids, never as properties of Object', () => {
    const decisions = JSON.parse('{"__proto__": {"status": "accepted", "split": "development", "reason": ""}}') as RecordedDecisions['decisions']
    const withIds = { ...recorded, decisions }
    expect(describeRecordChanges({ ...recorded, decisions: {} }, withIds)).toEqual(['__proto__: new case, accepted'])
    expect(own({ a: 1 }, 'constructor')).toBeUndefined()
    expect(own({ constructor: 2 }, 'constructor')).toBe(2)
    expect(own(undefined, 'a')).toBeUndefined()
  })
})

describe('a record of decisions', () => {
  test('holds each case with its ratings or scores only where the plan has them, and each check', () => {
    const plan = {
      kind: 'criteria',
      name: 'docuctl',
      identities: recorded.identities,
      cases: [
        { id: 'a', split: 'development', status: 'accepted', reason: '', message: 'not recorded', detail: { ratings: { command: 'meets' } } },
        { id: 'b', split: 'held_out', status: 'pending', reason: 'no review yet', detail: { scores: { clarity: null } } },
        { id: 'c', split: 'held_out', status: 'refused', reason: 'stale', code: 'CASE_SOURCE_STALE', detail: {} },
      ],
      checks: [{ name: 'gate', ok: false, message: 'not recorded' }],
    } as unknown as TestPlan
    const record = recordDecisions(plan)
    expect(record).toStrictEqual({
      kind: 'criteria',
      name: 'docuctl',
      identities: recorded.identities,
      decisions: {
        a: { status: 'accepted', split: 'development', reason: '', ratings: { command: 'meets' } },
        b: { status: 'pending', split: 'held_out', reason: 'no review yet', scores: { clarity: null } },
        c: { status: 'refused', split: 'held_out', reason: 'stale' },
      },
      checks: { gate: false },
    })
    expect(Object.keys(record.decisions.c!)).toEqual(['status', 'split', 'reason'])
  })

  test('is the same record whatever the order of its keys, and another when a value differs', () => {
    const reordered = JSON.parse(
      JSON.stringify({ checks: recorded.checks, decisions: recorded.decisions, identities: recorded.identities, name: recorded.name, kind: recorded.kind }),
    ) as RecordedDecisions
    expect(sameRecord(recorded, reordered)).toBe(true)
    expect(sameRecord(recorded, { ...recorded, checks: { ...recorded.checks, gate: false } })).toBe(false)
  })

  test('its diff shows only the cases that differ, whatever the order of their keys', () => {
    // A record written by hand, or by another tool, may order a decision's keys differently.
    const reordered = JSON.parse(
      JSON.stringify(recorded, (_key, value) =>
        value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
      ),
    ) as RecordedDecisions
    expect(Object.keys(reordered.decisions.same!)).toEqual(['reason', 'split', 'status'])
    const parts = differingParts(reordered, current)
    expect(Object.keys(parts.recorded as { decisions: object } & object)).toEqual(['identities', 'decisions', 'checks'])
    expect(Object.keys((parts.recorded as { decisions: object }).decisions).sort()).toEqual(['added', 'flipped', 'gone', 'moved', 'reasoned', 'rescored'])
    expect(Object.keys(differingParts(reordered, recorded).recorded as { decisions: object } & object)).toHaveLength(3)
    expect((differingParts(reordered, recorded).recorded as { decisions: object }).decisions).toEqual({})
  })

  test('is written as two-space JSON with a final newline and read back as written', async () => {
    const dir = await scratchDir('record')
    const path = join(dir, 'decisions.json')
    await writeRecordedDecisions(path, recorded)
    const text = await readFile(path, 'utf8')
    expect(text).toBe(`${JSON.stringify(recorded, null, 2)}\n`)
    expect(text.startsWith('{\n  "kind": "criteria",')).toBe(true)
    expect(await readRecordedDecisions(path, 'decisions.json')).toEqual(recorded)
    // A case id "__proto__" is kept as an id: zod would leave it out.
    await writeFile(
      path,
      JSON.stringify({ ...recorded, decisions: {} }).replace(
        '"decisions":{}',
        '"decisions":{"__proto__":{"status":"accepted","split":"development","reason":""}}',
      ),
    )
    const read = await readRecordedDecisions(path, 'decisions.json')
    expect(Object.keys(read!.decisions)).toEqual(['__proto__'])
  })

  test('that is missing reads as none; one that is not a file, or not a record, is refused', async () => {
    const dir = await scratchDir('record')
    expect(await readRecordedDecisions(join(dir, 'none.json'), 'none.json')).toBeUndefined()
    await mkdir(join(dir, 'folder.json'))
    await expect(readRecordedDecisions(join(dir, 'folder.json'), 'folder.json')).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: folder.json: the decision record cannot be read (EISDIR).
        fix:      check the file permissions.]
    `)
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ ...recorded, checks: { gate: 'yes' } }))
    await expect(readRecordedDecisions(join(dir, 'bad.json'), 'bad.json')).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: bad.json › checks › gate: the value has the wrong type.
        expected: true or false
        found:    the string "yes"
        fix:      restore the record from version control, or rewrite it from the current decisions with \`vitest -u\`.]
    `)
    await writeFile(join(dir, 'broken.json'), '{')
    await expect(readRecordedDecisions(join(dir, 'broken.json'), 'broken.json')).rejects.toMatchObject({ code: 'JSON_MALFORMED' })
  })
})

test('decisionRecordOf an evaluation is the record `vitest-rubric decisions` keeps for it', async () => {
  const record = decisionRecordOf(evaluateFixture(await loadFixture(DOCUCTL)))
  const committed = await readRecordedDecisions(join(DOCUCTL, 'decisions.record.json'), 'decisions.record.json')
  expect(sameRecord(committed!, record)).toBe(true)
})
