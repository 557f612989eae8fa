import { isUtf8 } from 'node:buffer'
import { chmod, cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { beforeAll, describe, expect, test } from 'vitest'
import { fingerprint, sha256Hex } from '../../../src/core/json/canonical-json.js'
import { evaluateFixture } from '../../../src/core/engine/evaluate.js'
import { loadFixture } from '../../../src/core/registry.js'
import { planFixtureTests } from '../../../src/core/engine/plan.js'
import type { FixtureKind } from '../../../src/core/registry.js'
import { locateInvalidUtf8 } from '../../../src/core/json/invalid-utf8.js'
import { describeRecordChanges, readRecordedDecisions, recordDecisions, sameRecord, writeRecordedDecisions } from '../../../src/core/engine/decision-record.js'
import { scanFixtures } from '../../../src/core/engine/discover.js'
import {
  acknowledgeReviews,
  BUNDLED,
  describeOutcome,
  editBytes,
  editedCopy,
  editJson,
  edits,
  filesIn,
  messagesOf,
  outcomeOf,
  rebindFiles,
  renameKey,
  RUBRIC_FILE,
  setKey,
  type Edit,
} from '../../helpers/bad-input.js'
import { runCli } from '../../helpers/cli.js'
import { copyFixture } from '../../helpers/fixture-copy.js'
import { scratchDir } from '../../helpers/scratch.js'
import { kinds } from '../../../src/core/registry.js'

/*
 * The bad-input matrix: hand-edited fixture files from many editors and systems. Each bad input is
 * refused with a message naming the file, the JSON path, what was expected, what was found and
 * what to do; none crashes, none becomes a decision, and no file is written. Tested here where a
 * user meets it through `loadFixture`/`evaluateFixture` and the command line; the Vitest runs are
 * in test/e2e/bad-input.test.ts.
 *
 * Covered elsewhere and not repeated:
 * - duplicate ids (entry 8): a duplicate case id, criterion id, two reviews of one case in
 *   test/core/error-messages.test.ts; a duplicate case id, two reviews of one case by one system,
 *   two planted issues or two claims with one id in test/core/scored/error-messages.test.ts.
 * - an unexpected key in a rubric criterion (entry 6): test/core/error-messages.test.ts.
 * - a fixture with no cases in Vitest, one todo and exit 0 (entry 9): test/cli/init.test.ts.
 * - a directory that does not exist, given to the installed bin: exit 1, no stack trace
 *   (entry 14): test/cli/bin.test.ts.
 * - a file removed from a fixture under the plugin (entry 13): test/e2e/plugin.test.ts.
 */

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort()
const untouched: Record<FixtureKind, Record<string, string>> = { criteria: {}, scored: {} }

beforeAll(async () => {
  for (const kind of ['criteria', 'scored'] as const) {
    const outcome = await outcomeOf(BUNDLED[kind])
    if (outcome.refused !== 'cases') throw new Error(`the bundled ${kind} fixture is refused`)
    untouched[kind] = outcome.statuses
  }
})

/**
 * Applies an edit to a copy of a bundled fixture and describes what the user meets, checking on
 * the way what every entry must hold: each message says what to do, a refused fixture gives the
 * same message on the command line (exit 1, no stack trace), no file changed, and
 * `Object.prototype` holds what it held.
 */
async function meet(kind: FixtureKind, edit: Edit): Promise<string> {
  const copy = await editedCopy(kind, edit)
  const before = await filesIn(copy.dir)
  const outcome = await outcomeOf(copy.dir)
  for (const message of messagesOf(outcome)) expect(message).toMatch(/\n {2}fix: {6}\S/)
  if (outcome.refused === 'fixture') {
    expect(await runCli(['evaluate', '.'], copy.dir)).toEqual({ code: 1, stdout: '', stderr: `${outcome.error.message}\n` })
  }
  expect(await filesIn(copy.dir)).toEqual(before)
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS)
  return describeOutcome(outcome, untouched[kind])
}

/** The full message a user meets: the fixture's error, or the refusal of one case. */
async function messageOf(kind: FixtureKind, edit: Edit, caseId?: string): Promise<string> {
  const outcome = await outcomeOf((await editedCopy(kind, edit)).dir)
  if (outcome.refused === 'fixture') return outcome.error.message
  const error = outcome.errors[caseId ?? '']
  if (error === undefined) throw new Error(`expected case ${caseId} to be refused: ${describeOutcome(outcome, untouched[kind])}`)
  return error.message
}

interface Row {
  readonly name: string
  readonly kind: FixtureKind
  readonly edit: Edit
  /** `[CODE] file › path: summary` with the expected and found lines; for a case, its id first. */
  readonly expected: string
}

const text = (file: string, edit: (text: string) => string | Buffer): Edit => editBytes(file, (bytes) => edit(bytes.toString('utf8')))
const replaceOnce = (file: string, from: string, to: string): Edit =>
  text(file, (contents) => {
    if (!contents.includes(from)) throw new Error(`${file} does not hold ${JSON.stringify(from)}`)
    return contents.replace(from, to)
  })
const BOM = '\ufeff'
const crlf = (contents: string) => contents.replaceAll('\n', '\r\n')

describe('1. invalid JSON: the line and column, what was expected there and what was found', () => {
  const rows: Row[] = [
    {
      name: 'a comment in rubric.json',
      kind: 'criteria',
      edit: replaceOnce('rubric.json', '{\n', '{\n  // reviewed by A.\n'),
      expected: `[JSON_MALFORMED] rubric.json: the file is not valid JSON (line 2, column 3).
  expected: a property name in double quotes
  found:    "// reviewed by A.\\n  "`,
    },
    {
      name: 'an empty list closed by a brace in cases.json',
      kind: 'criteria',
      edit: text('cases.json', () => '{\n  "name": "x",\n  "task": "y",\n  "cases": [}\n'),
      expected: `[JSON_MALFORMED] cases.json: the file is not valid JSON (line 4, column 13).
  expected: a value
  found:    "}\\n"`,
    },
    {
      name: 'a missing comma in annotations.json',
      kind: 'criteria',
      edit: replaceOnce('annotations.json', '.schema.json",\n', '.schema.json"\n'),
      expected: `[JSON_MALFORMED] annotations.json: the file is not valid JSON (line 3, column 3).
  expected: "," or "}" after the property value
  found:    "\\"origin\\": \\"Authored "`,
    },
    {
      name: 'single quotes in evaluation_rubric.json',
      kind: 'scored',
      edit: replaceOnce('evaluation_rubric.json', '"scoring_dimensions"', "'scoring_dimensions'"),
      expected: `[JSON_MALFORMED] evaluation_rubric.json: the file is not valid JSON (line 2, column 3).
  expected: a property name in double quotes
  found:    "'scoring_dimensions'"`,
    },
    {
      name: 'a trailing comma in a scored cases.json',
      kind: 'scored',
      edit: text('cases.json', (contents) => contents.replace(/\n\s*\]\s*\}\s*$/, ',\n  ]\n}\n')),
      expected: `[JSON_MALFORMED] cases.json: the file is not valid JSON (line 633, column 3).
  expected: a value
  found:    "]\\n}\\n"`,
    },
    {
      name: 'a truncated scored annotations.json',
      kind: 'scored',
      edit: text('annotations.json', (contents) => contents.slice(0, 300)),
      expected: `[JSON_MALFORMED] annotations.json: the file is not valid JSON (line 7, column 20).
  expected: a closing quote
  found:    the end of the file`,
    },
    {
      name: 'an empty annotations.json',
      kind: 'scored',
      edit: text('annotations.json', () => ''),
      expected: `[JSON_MALFORMED] annotations.json: the file is not valid JSON (line 1, column 1).
  expected: a value
  found:    the end of the file`,
    },
  ]
  test.each(rows)('$name', async ({ kind, edit, expected }) => {
    expect(await meet(kind, edit)).toBe(expected)
  })

  test('the full message', async () => {
    expect(
      await messageOf(
        'criteria',
        text('cases.json', () => '{\n  "name": "x",\n  "task": "y",\n  "cases": [}\n'),
      ),
    ).toMatchInlineSnapshot(`
      "cases.json: the file is not valid JSON (line 4, column 13).
        expected: a value
        found:    "}\\n"
        fix:      fix the JSON syntax there: a missing comma or quote, a trailing comma or a comment are the usual causes."
    `)
  })
})

describe('2. a UTF-8 byte-order mark: refused in JSON; in source.txt its bytes are the revision', () => {
  const jsonFiles: [FixtureKind, string][] = [
    ['criteria', 'rubric.json'],
    ['criteria', 'cases.json'],
    ['criteria', 'annotations.json'],
    ['scored', 'evaluation_rubric.json'],
    ['scored', 'cases.json'],
    ['scored', 'annotations.json'],
  ]
  test.each(jsonFiles)('%s %s starting with a BOM is refused', async (kind, file) => {
    expect(
      await meet(
        kind,
        text(file, (contents) => BOM + contents),
      ),
    ).toBe(
      `[JSON_MALFORMED] ${file}: the file starts with a byte-order mark, which JSON does not allow.\n` +
        '  expected: the JSON value from the first byte\n' +
        '  found:    the bytes EF BB BF (a UTF-8 byte-order mark, invisible in most editors)',
    )
  })

  test('the full message', async () => {
    expect(
      await messageOf(
        'criteria',
        text('rubric.json', (contents) => BOM + contents),
      ),
    ).toMatchInlineSnapshot(`
      "rubric.json: the file starts with a byte-order mark, which JSON does not allow.
        expected: the JSON value from the first byte
        found:    the bytes EF BB BF (a UTF-8 byte-order mark, invisible in most editors)
        fix:      save the file as UTF-8 without a BOM (an editor setting: "UTF-8", not "UTF-8 with BOM"); the mark is part of the bytes, so it also changes the file's SHA-256."
    `)
  })

  test('a BOM added to source.txt: every case is refused, and the message says the mark is the only change', async () => {
    const outcome = await meet(
      'criteria',
      text('source.txt', (contents) => BOM + contents),
    )
    expect(outcome.split('\n').filter((line) => !line.startsWith(' '))).toEqual(
      Object.keys(untouched.criteria).map((id) => expect.stringMatching(new RegExp(`^${id}: \\[CASE_SOURCE_STALE\\] `))),
    )
    expect(
      await messageOf(
        'criteria',
        text('source.txt', (contents) => BOM + contents),
        'complete',
      ),
    ).toMatchInlineSnapshot(`
      "cases.json › cases[0] › expected › source_sha256 (case "complete"): the source changed since the case was written. Only its byte-order mark changed: without the byte-order mark, source.txt has the recorded SHA-256.
        expected: 07e1f15d1d8b0fb80e1e556656c06584237da726d5e6ec4546d9a2c3a2bc3684 (SHA-256 of source.txt now)
        found:    2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2
        fix:      remove the byte-order mark: no review needs to change (see the note on source.txt)."
    `)
  })

  test('a source.txt that had its BOM when the cases were bound is decided as usual: the hash is of the bytes', async () => {
    expect(
      await meet(
        'criteria',
        edits(
          text('source.txt', (contents) => BOM + contents),
          rebindFiles('criteria'),
        ),
      ),
    ).toBe('decided as before')
  })
})

describe('3. line endings: a converted file is told apart from an edited one', () => {
  test('source.txt converted to CRLF: the message says only the line endings changed, and how to stop git converting it', async () => {
    const outcome = await meet('criteria', text('source.txt', crlf))
    expect(outcome.split('\n').filter((line) => !line.startsWith(' '))).toEqual(
      Object.keys(untouched.criteria).map((id) => expect.stringMatching(new RegExp(`^${id}: \\[CASE_SOURCE_STALE\\] `))),
    )
    expect(await messageOf('criteria', text('source.txt', crlf), 'complete')).toMatchInlineSnapshot(`
      "cases.json › cases[0] › expected › source_sha256 (case "complete"): the source changed since the case was written. Only its line endings changed: with LF line endings, source.txt has the recorded SHA-256.
        expected: 7e8ff3a66470705900509a3d4ef088f4efebca174b477da9c75a7f6f9a022358 (SHA-256 of source.txt now)
        found:    2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2
        fix:      convert its line endings back to LF: no review needs to change (see the note on source.txt)."
    `)
  })

  test('source.txt in CRLF and edited too: the line endings may have changed', async () => {
    const edited = text('source.txt', (contents) => crlf(`${contents}Rollbacks take about five minutes.\n`))
    expect(await messageOf('criteria', edited, 'complete')).toMatchInlineSnapshot(`
      "cases.json › cases[0] › expected › source_sha256 (case "complete"): the source changed since the case was written.
        expected: 211c5f8fd47c8b6a1facb1cd1d287b4692d0c7465d62c22d93690d051a698527 (SHA-256 of source.txt now)
        found:    2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2
        fix:      review the answer against the changed source, then run \`vitest-rubric bind . --case complete\`; its line endings may have changed instead (see the note on source.txt)."
    `)
  })

  test('rubric.json converted to CRLF', async () => {
    expect(await messageOf('criteria', text('rubric.json', crlf), 'complete')).toMatchInlineSnapshot(`
      "cases.json › cases[0] › expected › rubric_sha256 (case "complete"): the rubric changed since the case was written. Only its line endings changed: with LF line endings, rubric.json has the recorded SHA-256.
        expected: 0eeb746674faa9ba35740fc30e730f76d7060397620224ac1f417d3622bef866 (SHA-256 of rubric.json now)
        found:    3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228
        fix:      convert its line endings back to LF: no review needs to change (see the note on rubric.json)."
    `)
  })

  test('hashes recorded from a copy in CRLF, the file now in LF: the recorded hash is the converted one', async () => {
    const original = await readFile(join(BUNDLED.criteria, 'source.txt'))
    const recordedInCrlf = edits(
      text('source.txt', crlf),
      rebindFiles('criteria'),
      editBytes('source.txt', () => original),
    )
    expect(await messageOf('criteria', recordedInCrlf, 'complete')).toMatchInlineSnapshot(`
      "cases.json › cases[0] › expected › source_sha256 (case "complete"): the source changed since the case was written. Only its line endings changed: the recorded SHA-256 is that of source.txt with CRLF line endings, as a checkout converted by git's core.autocrlf has them.
        expected: 2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2 (SHA-256 of source.txt now)
        found:    7e8ff3a66470705900509a3d4ef088f4efebca174b477da9c75a7f6f9a022358
        fix:      bind the case to the file as committed: no review needs to change (see the note on source.txt)."
    `)
  })

  test('a review bound before the conversion, its case after it', async () => {
    const caseMoved = edits(text('source.txt', crlf), async (copy) => {
      const now = sha256Hex(await readFile(join(copy.dir, 'source.txt')))
      await copy.editCases((cases) => {
        for (const entry of cases.cases) entry.expected.source_sha256 = now
      })
    })
    expect(await messageOf('criteria', caseMoved, 'complete')).toMatchInlineSnapshot(`
      "annotations.json › reviews[0] › source_sha256 (case "complete"): the source changed since the review was made. Only its line endings changed: with LF line endings, source.txt has the recorded SHA-256.
        expected: 7e8ff3a66470705900509a3d4ef088f4efebca174b477da9c75a7f6f9a022358 (SHA-256 of source.txt now)
        found:    2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2
        fix:      convert its line endings back to LF: no review needs to change (see the note on source.txt)."
    `)
  })

  test('evaluation_rubric.json converted to CRLF', async () => {
    expect(await messageOf('scored', text('evaluation_rubric.json', crlf), 'partial-recall')).toMatchInlineSnapshot(`
      "cases.json › cases[0] › expected › rubric_sha256 (case "partial-recall"): the rubric changed since the case was written; it is fixed once execution begins. Only its line endings changed: with LF line endings, evaluation_rubric.json has the recorded SHA-256.
        expected: cd1c771a23e211fe50c76dd95adebdcbd32fc148d741a5021afae7dc7a344b91 (SHA-256 of evaluation_rubric.json now)
        found:    be89f77dd9c03442e7f5333d6dcf1b906512792f030048390e7a9bc66309c0e0
        fix:      convert its line endings back to LF: no review needs to change (see the note on evaluation_rubric.json)."
    `)
  })

  test('cases.json and annotations.json in CRLF: JSON whitespace, nothing binds their bytes', async () => {
    expect(await meet('criteria', edits(text('cases.json', crlf), text('annotations.json', crlf)))).toBe('decided as before')
    expect(await meet('scored', edits(text('cases.json', crlf), text('annotations.json', crlf)))).toBe('decided as before')
  })

  test('status says so beside each stale binding, and exits 1', async () => {
    const copy = await editedCopy('criteria', text('source.txt', crlf))
    const { code, stdout } = await runCli(['status', '.'], copy.dir)
    expect(code).toBe(1)
    expect(
      // Alike findings are said once: the cases, then the binding they share.
      stdout
        .split('\n')
        .filter(
          (line) => line.includes('complete') || line.startsWith('      cases.json') || line.startsWith('  stale source') || line.startsWith('  note on'),
        ),
    ).toMatchInlineSnapshot(`
      [
        "  stale source (8): the source changed since the review: check the judgements against it, then \`vitest-rubric bind . --case <id>\`",
        "    7 cases: complete, paraphrase, negation, unsupported-guarantee, missing-verification, wrong-command, uncertain-wording",
        "      cases.json › cases[…] › expected › source_sha256 2ce5d06d1dc2… → 7e8ff3a66470…; annotations.json › reviews[…] › source_sha256 2ce5d06d1dc2… → 7e8ff3a66470… (see the note on source.txt)",
        "  note on source.txt: Only its line endings changed: with LF line endings, source.txt has the recorded SHA-256. Convert its line endings back to LF (git's core.autocrlf or an editor converted the file; no review needs to change), and add a .gitattributes line such as \`fixtures/** -text\` so that git never converts fixture files.",
      ]
    `)
  })

  test('status on a scored fixture whose rubric was converted', async () => {
    const copy = await editedCopy('scored', text('evaluation_rubric.json', crlf))
    const { code, stdout } = await runCli(['status', '.'], copy.dir)
    expect(code).toBe(1)
    expect(
      stdout.split('\n').filter((line) => line.includes('partial-recall') || line.startsWith('      cases.json') || line.startsWith('  note on')),
    ).toMatchInlineSnapshot(`
      [
        "    10 cases: partial-recall, zero-planted-issues, false-claim-conceded, concession-without-update, inefficient-resolution, never-terminates, empirical-test-agreed, verdict-normalization, unscoreable-silent-critique, required-test-missing",
        "      cases.json › cases[…] › expected › rubric_sha256 be89f77dd9c0… → cd1c771a23e2…; annotations.json › reviews[…] › rubric_sha256 be89f77dd9c0… → cd1c771a23e2…; annotations.json › reviews[…] › rubric_sha256 be89f77dd9c0… → cd1c771a23e2… (see the note on evaluation_rubric.json)",
        "  note on evaluation_rubric.json: Only its line endings changed: with LF line endings, evaluation_rubric.json has the recorded SHA-256. Convert its line endings back to LF (git's core.autocrlf or an editor converted the file; no review needs to change), and add a .gitattributes line such as \`fixtures/** -text\` so that git never converts fixture files.",
      ]
    `)
  })
})

describe('4. bytes that are not UTF-8: the line, the column and the byte', () => {
  const latin1 = (from: string, to: string) => (bytes: Buffer) => {
    const contents = bytes.toString('utf8')
    if (!contents.includes(from)) throw new Error(`missing ${from}`)
    return Buffer.from(contents.replace(from, to), 'latin1')
  }
  const rows: Row[] = [
    {
      name: 'rubric.json saved as Latin-1',
      kind: 'criteria',
      edit: editBytes('rubric.json', latin1('docuctl 3 staging', 'docuctl 3 stagé')),
      expected: `[FILE_NOT_UTF8] rubric.json: the file is not valid UTF-8 text (line 14, column 45).
  expected: UTF-8 text
  found:    the byte 0xE9 at byte offset 538`,
    },
    {
      name: 'source.txt saved as Latin-1',
      kind: 'criteria',
      edit: editBytes('source.txt', latin1('staging rollback', 'staging rollbäck')),
      expected: `[FILE_NOT_UTF8] source.txt: the file is not valid UTF-8 text (line 1, column 41).
  expected: UTF-8 text
  found:    the byte 0xE4 at byte offset 40`,
    },
    {
      name: 'cases.json saved as Windows-1252',
      kind: 'criteria',
      edit: editBytes('cases.json', latin1('"name"', '"name\x92"')),
      expected: `[FILE_NOT_UTF8] cases.json: the file is not valid UTF-8 text (line 3, column 8).
  expected: UTF-8 text
  found:    the byte 0x92 at byte offset 61`,
    },
    {
      name: 'annotations.json saved as UTF-16',
      kind: 'criteria',
      edit: editBytes('annotations.json', (bytes) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bytes.toString('utf8'), 'utf16le')])),
      expected: `[FILE_NOT_UTF8] annotations.json: the file is not valid UTF-8 text (line 1, column 1).
  expected: UTF-8 text
  found:    the bytes FF FE at the start of the file, a UTF-16 byte-order mark: the file is UTF-16 text`,
    },
    {
      name: 'evaluation_rubric.json cut in the middle of a character',
      kind: 'scored',
      edit: editBytes('evaluation_rubric.json', (bytes) => Buffer.concat([bytes, Buffer.from('é').subarray(0, 1)])),
      expected: `[FILE_NOT_UTF8] evaluation_rubric.json: the file is not valid UTF-8 text (line 27, column 2).
  expected: UTF-8 text
  found:    the byte 0xC3 at byte offset 7445`,
    },
    {
      name: 'a lone continuation byte in a scored cases.json',
      kind: 'scored',
      edit: editBytes('cases.json', (bytes) => Buffer.concat([Buffer.from([0x80]), bytes])),
      expected: `[FILE_NOT_UTF8] cases.json: the file is not valid UTF-8 text (line 1, column 1).
  expected: UTF-8 text
  found:    the byte 0x80 at byte offset 0`,
    },
    {
      name: 'an encoded surrogate in a scored annotations.json',
      kind: 'scored',
      edit: editBytes('annotations.json', (bytes) => Buffer.concat([bytes, Buffer.from([0xed, 0xa0, 0x80])])),
      expected: `[FILE_NOT_UTF8] annotations.json: the file is not valid UTF-8 text (line 598, column 1).
  expected: UTF-8 text
  found:    the byte 0xED at byte offset 24127`,
    },
  ]
  test.each(rows)('$name', async ({ kind, edit, expected }) => {
    expect(await meet(kind, edit)).toBe(expected)
  })

  test('the full message', async () => {
    expect(await messageOf('criteria', editBytes('source.txt', latin1('staging rollback', 'staging rollbäck')))).toMatchInlineSnapshot(`
      "source.txt: the file is not valid UTF-8 text (line 1, column 41).
        expected: UTF-8 text
        found:    the byte 0xE4 at byte offset 40
        fix:      save the file as UTF-8: it was saved in another encoding (Windows-1252, Latin-1 or UTF-16, say), so re-encode it and check the characters there."
    `)
  })

  test('the byte named is where Node finds the bytes stop being UTF-8, and only bytes that are not UTF-8 name one', () => {
    const pieces = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 4 }).map((piece) => Buffer.from(piece)),
      fc.uint8Array({ minLength: 1, maxLength: 3 }),
    )
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 8 }), (parts) => {
        const bytes = Buffer.concat(parts)
        const located = locateInvalidUtf8(bytes)
        expect(located === undefined).toBe(isUtf8(bytes))
        if (located !== undefined) expect(isUtf8(bytes.subarray(0, located.offset))).toBe(true)
      }),
    )
  })
})

const json = editJson
const acknowledged = (kind: FixtureKind, edit: Edit): Edit => edits(edit, acknowledgeReviews(kind))
const firstReview = (kind: FixtureKind, edit: (review: any) => unknown): Edit =>
  acknowledged(
    kind,
    json('annotations.json', (document) => {
      const replaced = edit(document.reviews[0])
      if (replaced !== undefined) document.reviews[0] = replaced
    }),
  )
const firstCase = (edit: (entry: any) => unknown): Edit =>
  json('cases.json', (document) => {
    const replaced = edit(document.cases[0])
    if (replaced !== undefined) document.cases[0] = replaced
  })

describe('5. wrong types at every level', () => {
  const rows: Row[] = [
    // criteria: rubric.json
    {
      name: 'rubric.json: a list at the top',
      kind: 'criteria',
      edit: json('rubric.json', () => []),
      expected: `[RUBRIC_INVALID] rubric.json: the value has the wrong type.
  expected: an object
  found:    an array []`,
    },
    {
      name: 'rubric.json: criteria keyed by id',
      kind: 'criteria',
      edit: json('rubric.json', (rubric) => void (rubric.criteria = { command: rubric.criteria[0] })),
      expected: `[RUBRIC_INVALID] rubric.json › criteria: the value has the wrong type.
  expected: an array
  found:    an object {"command":{"id":"command","rule":"Give the exact docuctl 3…`,
    },
    {
      name: 'rubric.json: the version as a string',
      kind: 'criteria',
      edit: json('rubric.json', (rubric) => void (rubric.version = '1')),
      expected: `[RUBRIC_INVALID] rubric.json › version: the value has the wrong type.
  expected: a number
  found:    the string "1"`,
    },
    {
      name: 'rubric.json: a criterion as a string',
      kind: 'criteria',
      edit: json('rubric.json', (rubric) => void (rubric.criteria[0] = 'command')),
      expected: `[RUBRIC_INVALID] rubric.json › criteria[0]: the value has the wrong type.
  expected: an object
  found:    the string "command"`,
    },
    {
      name: 'rubric.json: a reference quote as a number',
      kind: 'criteria',
      edit: json('rubric.json', (rubric) => void (rubric.criteria[1].reference_quote = 41)),
      expected: `[RUBRIC_INVALID] rubric.json › criteria[1] › reference_quote: the value has the wrong type.
  expected: a string
  found:    the integer 41`,
    },
    // criteria: source.txt
    {
      name: 'source.txt: empty',
      kind: 'criteria',
      edit: editBytes('source.txt', () => ''),
      expected: `[RUBRIC_QUOTE_NOT_IN_SOURCE] rubric.json › criteria[0] › reference_quote: the reference quote does not occur in source.txt.
  expected: an exact excerpt of source.txt
  found:    "Use \`docuctl releases rollback r41 --environment staging\` to select release r41."`,
    },
    // criteria: cases.json
    {
      name: 'cases.json: null',
      kind: 'criteria',
      edit: json('cases.json', () => null),
      expected: `[FILE_SCHEMA] cases.json: the value has the wrong type.
  expected: an object
  found:    null`,
    },
    {
      name: 'cases.json: cases keyed by id',
      kind: 'criteria',
      edit: json('cases.json', (cases) => void (cases.cases = { complete: cases.cases[0] })),
      expected: `[FILE_SCHEMA] cases.json › cases: the value has the wrong type.
  expected: an array
  found:    an object {"complete":{"id":"complete","input":{"question":"Explain a…`,
    },
    {
      name: 'cases.json: the name as a number',
      kind: 'criteria',
      edit: json('cases.json', (cases) => void (cases.name = 7)),
      expected: `[FILE_SCHEMA] cases.json › name: the value has the wrong type.
  expected: a string
  found:    the integer 7`,
    },
    {
      name: 'cases.json: a case as a string',
      kind: 'criteria',
      edit: firstCase(() => 'complete'),
      expected: `[FILE_SCHEMA] cases.json › cases[0]: the entry is not an object.
  expected: an object with a non-empty string id
  found:    the string "complete"`,
    },
    {
      name: 'cases.json: a case as null',
      kind: 'criteria',
      edit: firstCase(() => null),
      expected: `[FILE_SCHEMA] cases.json › cases[0]: the entry is not an object.
  expected: an object with a non-empty string id
  found:    null`,
    },
    {
      name: 'cases.json: an empty case id',
      kind: 'criteria',
      edit: firstCase((entry) => void (entry.id = '')),
      expected: `[FILE_SCHEMA] cases.json › cases[0] › id: the entry's id is not a non-empty string.
  expected: a non-empty string
  found:    the string ""`,
    },
    {
      name: 'cases.json: a case id as a number',
      kind: 'criteria',
      edit: firstCase((entry) => void (entry.id = 1)),
      expected: `[FILE_SCHEMA] cases.json › cases[0] › id: the entry's id is not a non-empty string.
  expected: a non-empty string
  found:    the integer 1`,
    },
    {
      name: 'cases.json: a case input as a list',
      kind: 'criteria',
      edit: firstCase((entry) => void (entry.input = [entry.input])),
      expected: `complete: [CASE_INVALID] cases.json › cases[0] › input (case "complete"): the value has the wrong type.
  expected: an object
  found:    an array [{"question":"Explain a staging rollback to r41, including …`,
    },
    {
      name: 'cases.json: an answer text as a number',
      kind: 'criteria',
      edit: firstCase((entry) => void (entry.input.answer.text = 41)),
      expected: `complete: [CASE_INVALID] cases.json › cases[0] › input › answer › text (case "complete"): the value has the wrong type.
  expected: a string
  found:    the integer 41`,
    },
    {
      name: 'cases.json: expected as a string',
      kind: 'criteria',
      edit: firstCase((entry) => void (entry.expected = 'accepted')),
      expected: `complete: [CASE_INVALID] cases.json › cases[0] › expected (case "complete"): the value has the wrong type.
  expected: an object
  found:    the string "accepted"`,
    },
    {
      name: 'cases.json: acceptable as a string',
      kind: 'criteria',
      edit: firstCase((entry) => void (entry.expected.acceptable = 'true')),
      expected: `complete: [CASE_INVALID] cases.json › cases[0] › expected › acceptable (case "complete"): the value is not one of those allowed.
  expected: true
  found:    "true"`,
    },
    // criteria: annotations.json
    {
      name: 'annotations.json: a string',
      kind: 'criteria',
      edit: json('annotations.json', () => 'reviews'),
      expected: `[FILE_SCHEMA] annotations.json: the value has the wrong type.
  expected: an object
  found:    the string "reviews"`,
    },
    {
      name: 'annotations.json: reviews keyed by case',
      kind: 'criteria',
      edit: json('annotations.json', (annotations) => void (annotations.reviews = { complete: annotations.reviews[0] })),
      expected: `[FILE_SCHEMA] annotations.json › reviews: the value has the wrong type.
  expected: an array
  found:    an object {"complete":{"answer_id":"complete","answer_sha256":"049715…`,
    },
    {
      name: 'annotations.json: a review as a list',
      kind: 'criteria',
      edit: json('annotations.json', (annotations) => void (annotations.reviews[0] = [annotations.reviews[0]])),
      expected: `[FILE_SCHEMA] annotations.json › reviews[0]: the entry is not an object.
  expected: an object with a non-empty string answer_id
  found:    an array [{"answer_id":"complete","answer_sha256":"049715ad867dbf65e…`,
    },
    {
      name: 'annotations.json: an answer_id as a number',
      kind: 'criteria',
      edit: json('annotations.json', (annotations) => void (annotations.reviews[0].answer_id = 0)),
      expected: `[FILE_SCHEMA] annotations.json › reviews[0] › answer_id: the entry's answer_id is not a non-empty string.
  expected: a non-empty string
  found:    the integer 0`,
    },
    {
      name: 'annotations.json: judgements as a list',
      kind: 'criteria',
      edit: firstReview('criteria', (review) => void (review.judgements = Object.values(review.judgements))),
      expected: `complete: [REVIEW_INVALID] annotations.json › reviews[0] › judgements (case "complete"): the value has the wrong type.
  expected: an object
  found:    an array [{"rating":"meets","reason":"Gives the version 3 rollback c…`,
    },
    {
      name: 'annotations.json: a judgement as a string',
      kind: 'criteria',
      edit: firstReview('criteria', (review) => void (review.judgements.command = 'meets')),
      expected: `complete: [REVIEW_INVALID] annotations.json › reviews[0] › judgements › command (case "complete"): the value has the wrong type.
  expected: an object
  found:    the string "meets"`,
    },
    {
      name: 'annotations.json: a rating as a boolean',
      kind: 'criteria',
      edit: firstReview('criteria', (review) => void (review.judgements.command.rating = true)),
      expected: `complete: [REVIEW_INVALID] annotations.json › reviews[0] › judgements › command › rating (case "complete"): the value is not one of those allowed.
  expected: one of "meets", "does_not_meet", "uncertain"
  found:    true`,
    },
    {
      name: 'annotations.json: an answer span as null',
      kind: 'criteria',
      edit: firstReview('criteria', (review) => void (review.judgements.command.answer_span = null)),
      expected: `complete: [REVIEW_INVALID] annotations.json › reviews[0] › judgements › command › answer_span (case "complete"): the value has the wrong type.
  expected: a string
  found:    null`,
    },
    // scored: evaluation_rubric.json
    {
      name: 'evaluation_rubric.json: a list at the top',
      kind: 'scored',
      edit: json('evaluation_rubric.json', () => [1]),
      expected: `[RUBRIC_INVALID] evaluation_rubric.json: the value has the wrong type.
  expected: an object
  found:    an array [1]`,
    },
    {
      name: 'evaluation_rubric.json: dimensions as a list of names',
      kind: 'scored',
      edit: json('evaluation_rubric.json', (rubric) => void (rubric.scoring_dimensions = Object.keys(rubric.scoring_dimensions))),
      expected: `[RUBRIC_INVALID] evaluation_rubric.json › scoring_dimensions: the value has the wrong type.
  expected: an object
  found:    an array ["issue_discovery_recall","issue_discovery_precision","defe…`,
    },
    {
      name: 'evaluation_rubric.json: a threshold as a string',
      kind: 'scored',
      edit: json('evaluation_rubric.json', (rubric) => void (rubric.score_thresholds.per_dimension_pass = '0.5')),
      expected: `[RUBRIC_INVALID] evaluation_rubric.json › score_thresholds › per_dimension_pass: the value has the wrong type.
  expected: a number
  found:    the string "0.5"`,
    },
    {
      name: 'evaluation_rubric.json: the rule as a number',
      kind: 'scored',
      edit: json('evaluation_rubric.json', (rubric) => void (rubric.pass_fail_rule = 4)),
      expected: `[RUBRIC_INVALID] evaluation_rubric.json › pass_fail_rule: the value has the wrong type.
  expected: a string
  found:    the integer 4`,
    },
    // scored: cases.json
    {
      name: 'scored cases.json: a string',
      kind: 'scored',
      edit: json('cases.json', () => 'cases'),
      expected: `[FILE_SCHEMA] cases.json: the value has the wrong type.
  expected: an object
  found:    the string "cases"`,
    },
    {
      name: 'scored cases.json: cases keyed by id',
      kind: 'scored',
      edit: json('cases.json', (cases) => void (cases.cases = { 'partial-recall': cases.cases[0] })),
      expected: `[FILE_SCHEMA] cases.json › cases: the value has the wrong type.
  expected: an array
  found:    an object {"partial-recall":{"id":"partial-recall","spec":{"input":"f…`,
    },
    {
      name: 'scored cases.json: a case as a number',
      kind: 'scored',
      edit: firstCase(() => 1),
      expected: `[FILE_SCHEMA] cases.json › cases[0]: the entry is not an object.
  expected: an object with a non-empty string id
  found:    the integer 1`,
    },
    {
      name: 'scored cases.json: a case id as a number',
      kind: 'scored',
      edit: firstCase((entry) => void (entry.id = 1)),
      expected: `[FILE_SCHEMA] cases.json › cases[0] › id: the entry's id is not a non-empty string.
  expected: a non-empty string
  found:    the integer 1`,
    },
    {
      name: 'scored cases.json: a spec as a list',
      kind: 'scored',
      edit: firstCase((entry) => void (entry.spec = [entry.spec])),
      expected: `partial-recall: [CASE_INVALID] cases.json › cases[0] › spec (case "partial-recall"): the value has the wrong type.
  expected: an object
  found:    an array [{"input":"function paginate(items, page, size) { return it…`,
    },
    {
      name: 'scored cases.json: a transcript as an object',
      kind: 'scored',
      edit: firstCase((entry) => void (entry.outputs.debate.transcript = { 1: 'critique' })),
      expected: `partial-recall: [CASE_INVALID] cases.json › cases[0] › outputs › debate › transcript (case "partial-recall"): the value has the wrong type.
  expected: an array
  found:    an object {"1":"critique"}`,
    },
    {
      name: 'scored cases.json: max_rounds as a string',
      kind: 'scored',
      edit: firstCase((entry) => void (entry.spec.max_rounds = '4')),
      expected: `partial-recall: [CASE_INVALID] cases.json › cases[0] › spec › max_rounds (case "partial-recall"): the value has the wrong type.
  expected: a number
  found:    the string "4"`,
    },
    // scored: annotations.json
    {
      name: 'scored annotations.json: a number',
      kind: 'scored',
      edit: json('annotations.json', () => 0),
      expected: `[FILE_SCHEMA] annotations.json: the value has the wrong type.
  expected: an object
  found:    the integer 0`,
    },
    {
      name: 'scored annotations.json: reviews keyed by case',
      kind: 'scored',
      edit: json('annotations.json', (annotations) => void (annotations.reviews = { 'partial-recall': annotations.reviews[0] })),
      expected: `[FILE_SCHEMA] annotations.json › reviews: the value has the wrong type.
  expected: an array
  found:    an object {"partial-recall":{"case_id":"partial-recall","system":"deb…`,
    },
    {
      name: 'scored annotations.json: a review as a string',
      kind: 'scored',
      edit: json('annotations.json', (annotations) => void (annotations.reviews[0] = 'partial-recall')),
      expected: `[FILE_SCHEMA] annotations.json › reviews[0]: the entry is not an object.
  expected: an object with a non-empty string case_id
  found:    the string "partial-recall"`,
    },
    {
      name: 'scored annotations.json: a system as a number',
      kind: 'scored',
      edit: json('annotations.json', (annotations) => void (annotations.reviews[0].system = 1)),
      expected: `[FILE_SCHEMA] annotations.json › reviews[0] › system: the review's system is not one this kind of fixture knows.
  expected: one of "debate", "baseline"
  found:    the integer 1`,
    },
    {
      name: 'scored annotations.json: claims as an object',
      kind: 'scored',
      edit: firstReview('scored', (review) => void (review.claims = { C1: review.claims[0] })),
      expected: `partial-recall: [REVIEW_INVALID] annotations.json › reviews[0] › claims (case "partial-recall"): the value has the wrong type.
  expected: an array
  found:    an object {"C1":{"id":"C1","span":"The slice end \`page * size + size …`,
    },
    {
      name: 'scored annotations.json: a claim span as a number',
      kind: 'scored',
      edit: firstReview('scored', (review) => void (review.claims[0].span = 1)),
      expected: `partial-recall: [REVIEW_INVALID] annotations.json › reviews[0] › claims[0] › span (case "partial-recall"): the value has the wrong type.
  expected: a string
  found:    the integer 1`,
    },
  ]
  test.each(rows)('$name', async ({ kind, edit, expected }) => {
    expect(await meet(kind, edit)).toBe(expected)
  })
})

describe('6. unknown keys are refused (every object is strict, "$schema" at the top aside); missing keys are named', () => {
  const rows: Row[] = [
    {
      name: 'rubric.json: an unknown key at the top',
      kind: 'criteria',
      edit: json('rubric.json', (rubric) => void (rubric.owner = 'docs team')),
      expected: `[RUBRIC_INVALID] rubric.json: unexpected key "owner".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "owner"`,
    },
    {
      name: 'cases.json: an unknown key at the top',
      kind: 'criteria',
      edit: json('cases.json', (cases) => void (cases.owner = 'docs team')),
      expected: `[FILE_SCHEMA] cases.json: unexpected key "owner".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "owner"`,
    },
    {
      name: 'cases.json: an unknown key in a case',
      kind: 'criteria',
      edit: firstCase((entry) => void (entry.notes = 'check again')),
      expected: `complete: [CASE_INVALID] cases.json › cases[0] (case "complete"): unexpected key "notes".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "notes"`,
    },
    {
      name: 'cases.json: an unknown key in an answer',
      kind: 'criteria',
      edit: firstCase((entry) => void (entry.input.answer.sources = [])),
      expected: `complete: [CASE_INVALID] cases.json › cases[0] › input › answer (case "complete"): unexpected key "sources".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "sources"`,
    },
    {
      name: 'annotations.json: an unknown key at the top',
      kind: 'criteria',
      edit: json('annotations.json', (annotations) => void (annotations.reviewer = 'A')),
      expected: `[FILE_SCHEMA] annotations.json: unexpected key "reviewer".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "reviewer"`,
    },
    {
      name: 'annotations.json: an unknown key in a review',
      kind: 'criteria',
      edit: firstReview('criteria', (review) => void (review.reviewer = 'A')),
      expected: `complete: [REVIEW_INVALID] annotations.json › reviews[0] (case "complete"): unexpected key "reviewer".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "reviewer"`,
    },
    {
      name: 'annotations.json: a misspelt key in a judgement',
      kind: 'criteria',
      edit: firstReview('criteria', (review) => void (review.judgements.command = renameKey(review.judgements.command, 'rating', 'raiting'))),
      expected: `complete: [REVIEW_INVALID] annotations.json › reviews[0] › judgements › command › rating (case "complete"): a required value is missing.
  expected: one of "meets", "does_not_meet", "uncertain"
  found:    nothing (the key is missing)
  also:     annotations.json › reviews[0] › judgements › command: unexpected key "raiting". Expected only the keys the format defines (docs/format.md lists them).`,
    },
    {
      name: 'evaluation_rubric.json: an unknown key at the top',
      kind: 'scored',
      edit: json('evaluation_rubric.json', (rubric) => void (rubric.version = 2)),
      expected: `[RUBRIC_INVALID] evaluation_rubric.json: unexpected key "version".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "version"`,
    },
    {
      name: 'evaluation_rubric.json: an unknown threshold',
      kind: 'scored',
      edit: json('evaluation_rubric.json', (rubric) => void (rubric.score_thresholds.per_case_pass = 0.5)),
      expected: `[RUBRIC_INVALID] evaluation_rubric.json › score_thresholds: unexpected key "per_case_pass".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "per_case_pass"`,
    },
    {
      name: 'scored cases.json: an unknown key in a case',
      kind: 'scored',
      edit: firstCase((entry) => void (entry.notes = 'check again')),
      expected: `partial-recall: [CASE_INVALID] cases.json › cases[0] (case "partial-recall"): unexpected key "notes".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "notes"`,
    },
    {
      name: 'scored annotations.json: an unknown key in a review',
      kind: 'scored',
      edit: firstReview('scored', (review) => void (review.reviewer = 'A')),
      expected: `partial-recall: [REVIEW_INVALID] annotations.json › reviews[0] (case "partial-recall"): unexpected key "reviewer".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "reviewer"`,
    },
    {
      name: 'rubric.json: no task',
      kind: 'criteria',
      edit: json('rubric.json', (rubric) => void delete rubric.task),
      expected: `[RUBRIC_INVALID] rubric.json › task: a required value is missing.
  expected: a string
  found:    nothing (the key is missing)`,
    },
    {
      name: 'rubric.json: a criterion without its reference quote',
      kind: 'criteria',
      edit: json('rubric.json', (rubric) => void delete rubric.criteria[2].reference_quote),
      expected: `[RUBRIC_INVALID] rubric.json › criteria[2] › reference_quote: a required value is missing.
  expected: a string
  found:    nothing (the key is missing)`,
    },
    {
      name: 'cases.json: no name',
      kind: 'criteria',
      edit: json('cases.json', (cases) => void delete cases.name),
      expected: `[FILE_SCHEMA] cases.json › name: a required value is missing.
  expected: a string
  found:    nothing (the key is missing)`,
    },
    {
      name: 'cases.json: a case without an id',
      kind: 'criteria',
      edit: firstCase((entry) => void delete entry.id),
      expected: `[FILE_SCHEMA] cases.json › cases[0] › id: the entry has no id.
  expected: a non-empty string
  found:    nothing (the key is missing)`,
    },
    {
      name: 'cases.json: a case without expected',
      kind: 'criteria',
      edit: firstCase((entry) => void delete entry.expected),
      expected: `complete: [CASE_INVALID] cases.json › cases[0] › expected (case "complete"): a required value is missing.
  expected: an object
  found:    nothing (the key is missing)`,
    },
    {
      name: 'annotations.json: no origin',
      kind: 'criteria',
      edit: json('annotations.json', (annotations) => void delete annotations.origin),
      expected: `[FILE_SCHEMA] annotations.json › origin: a required value is missing.
  expected: a string
  found:    nothing (the key is missing)`,
    },
    {
      name: 'annotations.json: a review without answer_id',
      kind: 'criteria',
      edit: json('annotations.json', (annotations) => void delete annotations.reviews[0].answer_id),
      expected: `[FILE_SCHEMA] annotations.json › reviews[0] › answer_id: the entry has no answer_id.
  expected: a non-empty string
  found:    nothing (the key is missing)`,
    },
    {
      name: 'annotations.json: a review without judgements',
      kind: 'criteria',
      edit: firstReview('criteria', (review) => void delete review.judgements),
      expected: `complete: [REVIEW_INVALID] annotations.json › reviews[0] › judgements (case "complete"): a required value is missing.
  expected: an object
  found:    nothing (the key is missing)`,
    },
    {
      name: 'annotations.json: a judgement without a reason',
      kind: 'criteria',
      edit: firstReview('criteria', (review) => void delete review.judgements.support.reason),
      expected: `complete: [REVIEW_INVALID] annotations.json › reviews[0] › judgements › support › reason (case "complete"): a required value is missing.
  expected: a string
  found:    nothing (the key is missing)`,
    },
    {
      name: 'evaluation_rubric.json: no thresholds',
      kind: 'scored',
      edit: json('evaluation_rubric.json', (rubric) => void delete rubric.score_thresholds),
      expected: `[RUBRIC_INVALID] evaluation_rubric.json › score_thresholds: a required value is missing.
  expected: an object
  found:    nothing (the key is missing)`,
    },
    {
      name: 'scored cases.json: no cases',
      kind: 'scored',
      edit: json('cases.json', (cases) => void delete cases.cases),
      expected: `[FILE_SCHEMA] cases.json › cases: a required value is missing.
  expected: an array
  found:    nothing (the key is missing)`,
    },
    {
      name: 'scored cases.json: a case without outputs',
      kind: 'scored',
      edit: firstCase((entry) => void delete entry.outputs),
      expected: `partial-recall: [CASE_INVALID] cases.json › cases[0] › outputs (case "partial-recall"): a required value is missing.
  expected: an object
  found:    nothing (the key is missing)`,
    },
    {
      name: 'scored annotations.json: no reviews',
      kind: 'scored',
      edit: json('annotations.json', (annotations) => void delete annotations.reviews),
      expected: `[FILE_SCHEMA] annotations.json › reviews: a required value is missing.
  expected: an array
  found:    nothing (the key is missing)`,
    },
    {
      name: 'scored annotations.json: a review without claims',
      kind: 'scored',
      edit: firstReview('scored', (review) => void delete review.claims),
      expected: `partial-recall: [REVIEW_INVALID] annotations.json › reviews[0] › claims (case "partial-recall"): a required value is missing.
  expected: an array
  found:    nothing (the key is missing)`,
    },
  ]
  test.each(rows)('$name', async ({ kind, edit, expected }) => {
    expect(await meet(kind, edit)).toBe(expected)
  })
})

describe('7. "__proto__", "constructor" and "prototype" as keys: refused as unknown keys, or ordinary ids', () => {
  const polluting = () => JSON.parse('{ "polluted": true }') as unknown
  const withProto = (target: object) => void setKey(target, '__proto__', polluting())
  const renameJudgement = (to: string) => firstReview('criteria', (review) => void (review.judgements = renameKey(review.judgements, 'command', to)))
  const rows: Row[] = [
    {
      name: 'rubric.json: "__proto__" at the top',
      kind: 'criteria',
      edit: json('rubric.json', withProto),
      expected: `[RUBRIC_INVALID] rubric.json: unexpected key "__proto__".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "__proto__"`,
    },
    {
      name: 'rubric.json: "__proto__" in a criterion',
      kind: 'criteria',
      edit: json('rubric.json', (rubric) => withProto(rubric.criteria[0])),
      expected: `[RUBRIC_INVALID] rubric.json › criteria[0]: unexpected key "__proto__".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "__proto__"`,
    },
    {
      name: 'rubric.json: a criterion id "__proto__"',
      kind: 'criteria',
      edit: json('rubric.json', (rubric) => void (rubric.criteria[0].id = '__proto__')),
      expected: `[RUBRIC_INVALID] rubric.json › criteria[0] › id: the criterion id "__proto__" cannot key a judgement: JSON tools (zod among them) drop that key from the objects they read, so a review could never judge it.
  expected: any other non-empty string
  found:    "__proto__"`,
    },
    {
      name: 'cases.json: "__proto__" at the top',
      kind: 'criteria',
      edit: json('cases.json', withProto),
      expected: `[FILE_SCHEMA] cases.json: unexpected key "__proto__".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "__proto__"`,
    },
    {
      name: 'cases.json: "__proto__" in a case',
      kind: 'criteria',
      edit: firstCase(withProto),
      expected: `complete: [CASE_INVALID] cases.json › cases[0] (case "complete"): unexpected key "__proto__".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "__proto__"`,
    },
    {
      name: 'cases.json: "__proto__" in an answer',
      kind: 'criteria',
      edit: firstCase((entry) => withProto(entry.input.answer)),
      expected: `complete: [CASE_INVALID] cases.json › cases[0] › input › answer (case "complete"): unexpected key "__proto__".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "__proto__"`,
    },
    {
      name: 'annotations.json: "__proto__" at the top',
      kind: 'criteria',
      edit: json('annotations.json', withProto),
      expected: `[FILE_SCHEMA] annotations.json: unexpected key "__proto__".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "__proto__"`,
    },
    {
      name: 'annotations.json: "__proto__" in a review',
      kind: 'criteria',
      edit: firstReview('criteria', withProto),
      expected: `complete: [REVIEW_INVALID] annotations.json › reviews[0] (case "complete"): unexpected key "__proto__".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "__proto__"`,
    },
    {
      name: 'annotations.json: a judgement keyed "__proto__"',
      kind: 'criteria',
      edit: renameJudgement('__proto__'),
      expected: `complete: [UNKNOWN_CRITERION] annotations.json › reviews[0] › judgements › __proto__ (case "complete"): the review judges a criterion that rubric.json does not define.
  expected: one of "command", "preconditions", "database_scope", "verification", "support"
  found:    "__proto__"`,
    },
    {
      name: 'annotations.json: a judgement keyed "constructor"',
      kind: 'criteria',
      edit: renameJudgement('constructor'),
      expected: `complete: [UNKNOWN_CRITERION] annotations.json › reviews[0] › judgements › constructor (case "complete"): the review judges a criterion that rubric.json does not define.
  expected: one of "command", "preconditions", "database_scope", "verification", "support"
  found:    "constructor"`,
    },
    {
      name: 'annotations.json: a judgement keyed "prototype"',
      kind: 'criteria',
      edit: renameJudgement('prototype'),
      expected: `complete: [UNKNOWN_CRITERION] annotations.json › reviews[0] › judgements › prototype (case "complete"): the review judges a criterion that rubric.json does not define.
  expected: one of "command", "preconditions", "database_scope", "verification", "support"
  found:    "prototype"`,
    },
    {
      name: 'annotations.json: "__proto__" in a judgement',
      kind: 'criteria',
      edit: firstReview('criteria', (review) => withProto(review.judgements.command)),
      expected: `complete: [REVIEW_INVALID] annotations.json › reviews[0] › judgements › command (case "complete"): unexpected key "__proto__".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "__proto__"`,
    },
    {
      name: 'annotations.json: a review of case "__proto__"',
      kind: 'criteria',
      edit: json('annotations.json', (annotations) => void (annotations.reviews[0].answer_id = '__proto__')),
      expected: `[UNKNOWN_REVIEW] annotations.json › reviews[0] › answer_id: the review names a case that cases.json does not hold.
  expected: one of the case ids: "complete", "paraphrase", "negation", "unsupported-guarantee", "missing-verification", "wrong-command", "uncertain-wording", "not-reviewed"
  found:    "__proto__"`,
    },
    {
      name: 'evaluation_rubric.json: "__proto__" at the top',
      kind: 'scored',
      edit: json('evaluation_rubric.json', withProto),
      expected: `[RUBRIC_INVALID] evaluation_rubric.json: unexpected key "__proto__".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "__proto__"`,
    },
    {
      name: 'evaluation_rubric.json: a dimension "__proto__"',
      kind: 'scored',
      edit: json('evaluation_rubric.json', (rubric) => void setKey(rubric.scoring_dimensions, '__proto__', 'Measures nothing.')),
      expected: `[UNKNOWN_DIMENSION] evaluation_rubric.json › scoring_dimensions › __proto__: the rubric names a dimension this package cannot compute.
  expected: one of "issue_discovery_recall", "issue_discovery_precision", "defense_calibration", "debate_resolution_quality", "empirical_test_diagnosticity", "final_verdict_correctness"
  found:    "__proto__"`,
    },
    {
      name: 'evaluation_rubric.json: a dimension "constructor"',
      kind: 'scored',
      edit: json('evaluation_rubric.json', (rubric) => void setKey(rubric.scoring_dimensions, 'constructor', 'Measures nothing.')),
      expected: `[UNKNOWN_DIMENSION] evaluation_rubric.json › scoring_dimensions › constructor: the rubric names a dimension this package cannot compute.
  expected: one of "issue_discovery_recall", "issue_discovery_precision", "defense_calibration", "debate_resolution_quality", "empirical_test_diagnosticity", "final_verdict_correctness"
  found:    "constructor"`,
    },
    {
      name: 'evaluation_rubric.json: "__proto__" in the thresholds',
      kind: 'scored',
      edit: json('evaluation_rubric.json', (rubric) => withProto(rubric.score_thresholds)),
      expected: `[RUBRIC_INVALID] evaluation_rubric.json › score_thresholds: unexpected key "__proto__".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "__proto__"`,
    },
    {
      name: 'scored cases.json: "__proto__" in a case',
      kind: 'scored',
      edit: firstCase(withProto),
      expected: `partial-recall: [CASE_INVALID] cases.json › cases[0] (case "partial-recall"): unexpected key "__proto__".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "__proto__"`,
    },
    {
      name: 'scored annotations.json: "__proto__" in a review',
      kind: 'scored',
      edit: firstReview('scored', withProto),
      expected: `partial-recall: [REVIEW_INVALID] annotations.json › reviews[0] (case "partial-recall"): unexpected key "__proto__".
  expected: only the keys the format defines (docs/format.md lists them)
  found:    "__proto__"`,
    },
    {
      name: 'scored annotations.json: a review of case "constructor"',
      kind: 'scored',
      edit: json('annotations.json', (annotations) => void (annotations.reviews[0].case_id = 'constructor')),
      expected: `[UNKNOWN_REVIEW] annotations.json › reviews[0] › case_id: the review names a case that cases.json does not hold.
  expected: one of the case ids: "partial-recall", "zero-planted-issues", "false-claim-conceded", "concession-without-update", "inefficient-resolution", "never-terminates", "empirical-test-agreed", "verdict-normalization", "unscoreable-silent-critique", "required-test-missing"
  found:    "constructor"`,
    },
  ]
  test.each(rows)('$name', async ({ kind, edit, expected }) => {
    expect(await meet(kind, edit)).toBe(expected)
  })

  const renameCases = (kind: FixtureKind, names: Record<string, string>): Edit =>
    acknowledged(
      kind,
      edits(
        json('cases.json', (cases) => {
          for (const entry of cases.cases as { id: string }[]) entry.id = names[entry.id] ?? entry.id
        }),
        json('annotations.json', (annotations) =>
          annotations.reviews.forEach((review: Record<string, string>) => {
            const key = kind === 'criteria' ? 'answer_id' : 'case_id'
            review[key] = names[review[key]!] ?? review[key]!
          }),
        ),
      ),
    )
  const renamedStatuses = (kind: FixtureKind, names: Record<string, string>) =>
    Object.fromEntries(Object.entries(untouched[kind]).map(([id, status]) => [names[id] ?? id, status]))

  test('case ids "__proto__", "constructor" and "prototype" are ids like any other, in both kinds', async () => {
    const criteria = { complete: '__proto__', 'unsupported-guarantee': 'constructor', 'not-reviewed': 'prototype' }
    const criteriaOutcome = await outcomeOf((await editedCopy('criteria', renameCases('criteria', criteria))).dir)
    expect(criteriaOutcome.refused === 'cases' && criteriaOutcome.statuses).toEqual(renamedStatuses('criteria', criteria))
    const scored = { 'partial-recall': '__proto__', 'never-terminates': 'constructor', 'unscoreable-silent-critique': 'prototype' }
    const scoredOutcome = await outcomeOf((await editedCopy('scored', renameCases('scored', scored))).dir)
    expect(scoredOutcome.refused === 'cases' && scoredOutcome.statuses).toEqual(renamedStatuses('scored', scored))
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS)
  })

  test('criteria named "constructor" and "toString" must be judged like any other: unjudged, the case stays pending', async () => {
    const copy = await editedCopy(
      'criteria',
      edits(
        json('rubric.json', (rubric) => {
          for (const id of ['constructor', 'toString']) rubric.criteria.push({ id, rule: `Rule ${id}.`, reference_quote: rubric.criteria[0].reference_quote })
        }),
        json('annotations.json', (annotations) => {
          const judgements = annotations.reviews[0].judgements
          for (const id of ['constructor', 'toString']) judgements[id] = { ...judgements.command }
        }),
        rebindFiles('criteria'),
      ),
    )
    const { decisions } = evaluateFixture(await loadFixture(copy.dir, { cwd: copy.dir }))
    expect(decisions.map((decision) => `${decision.id}: ${decision.status}${decision.reason === '' ? '' : ` (${decision.reason})`}`)).toEqual([
      'complete: accepted',
      'paraphrase: pending (missing criteria constructor, toString)',
      'negation: pending (missing criteria constructor, toString)',
      'unsupported-guarantee: pending (missing criteria constructor, toString)',
      'missing-verification: pending (missing criteria constructor, toString)',
      'wrong-command: pending (missing criteria constructor, toString)',
      'uncertain-wording: pending (missing criteria constructor, toString; uncertain on support)',
      'not-reviewed: pending (no review)',
    ])
  })

  test('a decision record keyed by such case ids reads back as written, and names a case it lacks', async () => {
    const names = { complete: '__proto__', paraphrase: 'constructor' }
    const copy = await editedCopy('criteria', renameCases('criteria', names))
    const current = recordDecisions(planFixtureTests(evaluateFixture(await loadFixture(copy.dir, { cwd: copy.dir }))))
    const path = join(copy.dir, 'decisions.record.json')
    await writeRecordedDecisions(path, current)
    const recorded = await readRecordedDecisions(path, 'decisions.record.json')
    expect(recorded !== undefined && sameRecord(recorded, current)).toBe(true)
    const withoutConstructor = JSON.parse(JSON.stringify(current).replace('"constructor":', '"renamed":'))
    expect(describeRecordChanges(withoutConstructor, current)).toEqual(['renamed: was accepted, now gone', 'constructor: new case, accepted'])
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS)
  })
})

describe('9. an empty list of cases is valid: a fresh fixture, without a decision', () => {
  const empty = edits(
    json('cases.json', (cases) => void (cases.cases = [])),
    json('annotations.json', (annotations) => void (annotations.reviews = [])),
  )

  test.each(['criteria', 'scored'] as const)('%s: no decision, no quality figure, and status says there are no cases yet', async (kind) => {
    const copy = await editedCopy(kind, empty)
    const evaluation = evaluateFixture(await loadFixture(copy.dir, { cwd: copy.dir }))
    expect(evaluation.decisions).toEqual([])
    expect(evaluation.coverage).toMatchObject({ candidates: 0, graded: 0, pending: 0, refused: 0, outcomes: null })
    expect(planFixtureTests(evaluation).cases).toEqual([])
    const status = await runCli(['status', '.'], copy.dir)
    expect(status.code).toBe(0)
    expect(status.stdout).toContain('  no cases yet: add them with `vitest-rubric add`\n')
  })

  test('a scored benchmark without cases passes none of its gates, and plans no check: in Vitest it is the one todo', async () => {
    const copy = await editedCopy('scored', empty)
    const evaluation = evaluateFixture(await loadFixture(copy.dir, { cwd: copy.dir }))
    const benchmark = evaluation.summary as { gates: Record<string, { passed: boolean }> }
    expect(Object.entries(benchmark.gates).map(([gate, { passed }]) => `${gate}: ${passed ? 'passed' : 'not passed'}`)).toEqual([
      'benchmark: not passed',
      'baseline: not passed',
    ])
    expect(planFixtureTests(evaluation).checks).toEqual([])
  })
})

describe('10. a 10 MB answer is decided by its review like any other', () => {
  const tenMegabytes = 10 * 1024 * 1024
  const longAnswer = (tail: string): Edit =>
    edits(
      json('cases.json', (cases) => void (cases.cases[0].input.answer.text += ` ${'Appendix line. '.repeat(tenMegabytes / 15)}${tail}`)),
      async (copy) => {
        const cases = await copy.readJson<{ cases: { input: { answer: unknown } }[] }>('cases.json')
        await copy.editAnnotations((annotations) => void (annotations.reviews[0]!.answer_sha256 = fingerprint(cases.cases[0]!.input.answer)))
      },
      acknowledgeReviews('criteria'),
    )

  test('accepted when its review is bound to it; refused once one character of it changes', { timeout: 60_000 }, async () => {
    const copy = await editedCopy('criteria', longAnswer('End.'))
    expect((await readFile(join(copy.dir, 'cases.json'))).length).toBeGreaterThan(tenMegabytes)
    expect(await meet('criteria', longAnswer('End.'))).toBe('decided as before')
    const lastCharacterChanged = json('cases.json', (cases) => {
      const answer = cases.cases[0].input.answer
      answer.text = answer.text.replace(/End\.$/, 'End!')
    })
    expect(await meet('criteria', edits(longAnswer('End.'), lastCharacterChanged))).toMatch(
      /^complete: \[REVIEW_ANSWER_STALE\] annotations\.json › reviews\[0\] › answer_sha256 \(case "complete"\): the answer changed since it was reviewed/,
    )
  })
})

describe('11. a missing or unreadable file', () => {
  const files: [FixtureKind, string][] = [
    ['criteria', 'rubric.json'],
    ['criteria', 'source.txt'],
    ['criteria', 'cases.json'],
    ['criteria', 'annotations.json'],
    ['scored', 'evaluation_rubric.json'],
    ['scored', 'cases.json'],
    ['scored', 'annotations.json'],
  ]
  const directoryInstead =
    (file: string): Edit =>
    async (copy) => {
      await rm(join(copy.dir, file))
      await mkdir(join(copy.dir, file))
      await writeFile(join(copy.dir, file, 'notes.txt'), 'moved here by mistake\n')
    }

  test.each(files)('%s: a directory where %s should be', async (kind, file) => {
    const outcome = await meet(kind, directoryInstead(file))
    if (file === RUBRIC_FILE[kind]) {
      expect(outcome).toBe(
        `[FIXTURE_KIND_UNKNOWN] .: the directory holds fixture files but no rubric: neither rubric.json nor evaluation_rubric.json is a file there.\n` +
          `  expected: rubric.json, source.txt, cases.json, annotations.json; or evaluation_rubric.json, cases.json, annotations.json; in the records layout, records/ in place of cases.json and annotations.json\n` +
          `  found:    ${kind === 'criteria' ? 'rubric.json (a directory), source.txt, cases.json, annotations.json' : 'cases.json, annotations.json, evaluation_rubric.json (a directory)'}`,
      )
    } else {
      expect(outcome).toBe(`[FILE_UNREADABLE] ${file}: the path is a directory, not a file.\n  expected: a regular file\n  found:    a directory`)
    }
  })

  test('the full message', async () => {
    expect(await messageOf('criteria', directoryInstead('source.txt'))).toMatchInlineSnapshot(`
      "source.txt: the path is a directory, not a file.
        expected: a regular file
        found:    a directory
        fix:      put the file itself there: a fixture directory holds its files directly, not in subdirectories."
    `)
  })

  test.skipIf(process.getuid?.() === 0)('a file its owner may not read (chmod 000; root reads it anyway, so not as root)', async () => {
    const outcome = await meet('criteria', async (copy) => chmod(join(copy.dir, 'cases.json'), 0o000))
    expect(outcome).toBe('[FILE_UNREADABLE] cases.json: the file cannot be read (EACCES).')
  })

  test('a symbolic link that points at itself, and one that points nowhere', async () => {
    const linked =
      (file: string, target: string): Edit =>
      async (copy) => {
        await rm(join(copy.dir, file))
        await symlink(target, join(copy.dir, file))
      }
    expect(await meet('criteria', linked('cases.json', 'cases.json'))).toBe('[FILE_UNREADABLE] cases.json: the file cannot be read (ELOOP).')
    expect(await meet('scored', linked('annotations.json', 'gone/annotations.json'))).toMatch(
      /^\[FILE_UNREADABLE\] annotations\.json: the file is a symbolic link whose target does not exist \(gone\/annotations\.json\)\.\n {2}expected: a regular file, or a link to one\n {2}found: {4}a link to nothing$/,
    )
  })

  test('a file or folder linked outside the project: refused, never read', async () => {
    const outside = await scratchDir('outside')
    const linkedOut =
      (file: string): Edit =>
      async (copy) => {
        await cp(join(copy.dir, file), join(outside, file), { recursive: true })
        await rm(join(copy.dir, file), { recursive: true })
        await symlink(join(outside, file), join(copy.dir, file))
      }
    const reviewsOut: Edit = async (copy) => {
      await mkdir(join(outside, 'reviews'))
      await symlink(join(outside, 'reviews'), join(copy.dir, 'reviews'))
    }
    const refusal = (file: string) =>
      `[FILE_OUTSIDE_PROJECT] ${file}: the path leads outside the project through a symbolic link, so it is neither read nor written.`
    const first = (outcome: string) => outcome.split('\n')[0]
    expect(first(await meet('criteria', linkedOut('source.txt')))).toBe(refusal('source.txt'))
    expect(first(await meet('scored', linkedOut('cases.json')))).toBe(refusal('cases.json'))
    expect(first(await meet('criteria', reviewsOut))).toBe(refusal('reviews'))
  })
})

describe('12. a symbolic link loop under fixtures/: each fixture once, and no hang', () => {
  async function projectWithLoops(): Promise<string> {
    const root = await scratchDir('loops')
    for (const kind of ['criteria', 'scored'] as const) await cp(BUNDLED[kind], join(root, 'fixtures', kind), { recursive: true })
    await symlink('..', join(root, 'fixtures/criteria/up')) // fixtures/criteria/up/criteria/up/…
    await symlink('self', join(root, 'fixtures/self')) // a link to itself
    return root
  }

  test('discovery finds each fixture once and names the paths that reach one again', async () => {
    const root = await projectWithLoops()
    const scan = await scanFixtures(kinds, root, ['fixtures/**'], [])
    const relative = (path: string) => path.slice(root.length + 1)
    const found = { fixtures: scan.fixtures.map((each) => relative(each.moduleId)), aliases: scan.aliases.map(relative), incomplete: scan.incomplete }
    expect(found).toMatchInlineSnapshot(`
      {
        "aliases": [
          "fixtures/criteria/up/criteria/rubric.json",
          "fixtures/criteria/up/scored/evaluation_rubric.json",
        ],
        "fixtures": [
          "fixtures/criteria/rubric.json",
          "fixtures/scored/evaluation_rubric.json",
        ],
        "incomplete": [],
      }
    `)
  })

  test('status checks each fixture once and exits as the fixtures say', async () => {
    const root = await projectWithLoops()
    const { code, stdout, stderr } = await runCli(['status'], root)
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout.split('\n').filter((line) => !line.startsWith(' '))).toMatchInlineSnapshot(`
      [
        "docuctl-rollback-contrasts (fixtures/criteria)",
        "",
        "debate-benchmark (fixtures/scored)",
        "",
      ]
    `)
  })
})

describe('13. a fixture directory without one of its files', () => {
  test.each([
    ['criteria', 'rubric.json'],
    ['criteria', 'source.txt'],
    ['criteria', 'cases.json'],
    ['criteria', 'annotations.json'],
    ['scored', 'evaluation_rubric.json'],
    ['scored', 'cases.json'],
    ['scored', 'annotations.json'],
  ] as const)('%s without %s', async (kind, file) => {
    const outcome = await meet(kind, async (copy) => rm(join(copy.dir, file)))
    if (file === RUBRIC_FILE[kind]) {
      expect(outcome).toBe(
        `[FIXTURE_KIND_UNKNOWN] .: the directory holds fixture files but no rubric: neither rubric.json nor evaluation_rubric.json is a file there.\n` +
          `  expected: rubric.json, source.txt, cases.json, annotations.json; or evaluation_rubric.json, cases.json, annotations.json; in the records layout, records/ in place of cases.json and annotations.json\n` +
          `  found:    ${kind === 'criteria' ? 'source.txt, cases.json, annotations.json' : 'cases.json, annotations.json'}`,
      )
    } else {
      expect(outcome).toBe(`[FILE_UNREADABLE] ${file}: the file is missing.`)
    }
  })

  test('the full messages', async () => {
    expect(await messageOf('criteria', async (copy) => rm(join(copy.dir, 'rubric.json')))).toMatchInlineSnapshot(`
      ".: the directory holds fixture files but no rubric: neither rubric.json nor evaluation_rubric.json is a file there.
        expected: rubric.json, source.txt, cases.json, annotations.json; or evaluation_rubric.json, cases.json, annotations.json; in the records layout, records/ in place of cases.json and annotations.json
        found:    source.txt, cases.json, annotations.json
        fix:      restore the rubric file (from version control, if it was deleted or renamed): the rubric is what makes the directory a fixture."
    `)
    expect(await messageOf('scored', async (copy) => rm(join(copy.dir, 'annotations.json')))).toMatchInlineSnapshot(`
      "annotations.json: the file is missing.
        fix:      add the file: a fixture directory needs all of its files (docs/format.md describes them)."
    `)
  })

  test('status below fixtures/ lists a directory that lost its rubric as refused, beside the others', async () => {
    const root = await scratchDir('lost-rubric')
    await cp(BUNDLED.criteria, join(root, 'fixtures/kept'), { recursive: true })
    await cp(BUNDLED.criteria, join(root, 'fixtures/lost'), { recursive: true })
    await rm(join(root, 'fixtures/lost/rubric.json'))
    const { code, stdout } = await runCli(['status'], root)
    expect(code).toBe(1)
    const headings = stdout.split('\n').filter((line) => !line.startsWith('    ') && !line.startsWith('  a case') && !line.startsWith('  status'))
    expect(headings).toMatchInlineSnapshot(`
      [
        "docuctl-rollback-contrasts (fixtures/kept)",
        "  unreviewed (1): review the answer: \`vitest-rubric review fixtures/kept --case <id>\` (on a terminal it asks for each criterion; from a script, give --rating, --reason and --span, or --from)",
        "  uncertain (1): settle the uncertain ratings as meets or does_not_meet (the case stays pending until then)",
        "  bound and current (6): nothing to do",
        "",
        "fixtures/lost: the fixture is refused, so none of its cases is decided",
        "  fixtures/lost: the directory holds fixture files but no rubric: neither rubric.json nor evaluation_rubric.json is a file there.",
        "",
      ]
    `)
  })
})

describe('14. a path that holds nothing to check: a message and exit 1, never a silent success', () => {
  test('status given a directory that does not exist', async () => {
    const root = await scratchDir('status-missing')
    expect(await runCli(['status', 'fixtures/nope'], root)).toMatchInlineSnapshot(`
      {
        "code": 1,
        "stderr": "",
        "stdout": "fixtures/nope: the fixture is refused, so none of its cases is decided
        fixtures/nope: no such fixture directory.
          fix:      pass the path of a directory that holds a fixture (for example fixtures/docuctl-rollback).
      ",
      }
    `)
  })

  test('status with nothing below fixtures/', async () => {
    const root = await scratchDir('status-empty')
    expect(await runCli(['status'], root)).toMatchInlineSnapshot(`
      {
        "code": 1,
        "stderr": "",
        "stdout": "no fixture directory found below fixtures/, so nothing was checked: pass the fixture directories to check, or create one with \`vitest-rubric init <dir>\`
      ",
      }
    `)
  })

  test('evaluate given a file instead of a fixture directory', async () => {
    const copy = await copyFixture(BUNDLED.criteria)
    expect(await runCli(['evaluate', 'rubric.json'], copy.dir)).toMatchInlineSnapshot(`
      {
        "code": 1,
        "stderr": "rubric.json: the path is a file, not a fixture directory.
        fix:      pass the directory that holds the fixture's files (.).
      ",
        "stdout": "",
      }
    `)
  })
})
