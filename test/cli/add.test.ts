import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { sha256Hex, NULL_FINGERPRINT } from '../../src/core/json/canonical-json.js'
import { runCli } from '../helpers/cli.js'
import { filesIn } from '../helpers/bad-input.js'
import { scratchDir } from '../helpers/scratch.js'

const ANSWER =
  'Get release approval and confirm that staging is the active environment, then run `docuctl releases rollback r41 --environment staging`. It changes the deployed service version only: database contents are not restored. Afterwards, check service health.'
const CITATION = 'Fictional docuctl 3 guide: staging rollback to r41'

/** A fresh criteria fixture made from the docuctl template, in a scratch project. */
async function freshFixture(template = 'docuctl'): Promise<{ cwd: string; dir: string }> {
  const cwd = await scratchDir('add')
  const init = await runCli(['init', 'fx', '--template', template], cwd)
  expect(init.code).toBe(0)
  return { cwd, dir: join(cwd, 'fx') }
}

const json = async (path: string) => JSON.parse(await readFile(path, 'utf8'))

describe('vitest-rubric add', () => {
  test.each([
    ['a blank id', ' ', /--id: the case id is blank; nothing was written\./],
    ['a line break', 'line\nbreak', /--id: the case id holds a control character \(U\+000A, a line break\)/],
    ['a tab', 'tab\tid', /--id: the case id holds a control character \(U\+0009, a tab\)/],
    ['another control character', 'bell\u0007', /--id: the case id holds a control character \(U\+0007\)/],
    ['a zero-width space', 'caf\u00e9\u200b', /--id: the case id holds an invisible format character \(U\+200B\)/],
    ['a zero-width joiner between digits', 't\u200d4', /--id: the case id holds an invisible format character \(U\+200D\)/],
    ['a bidirectional override', 'x\u202ey', /--id: the case id holds an invisible format character \(U\+202E\)/],
    ['a space at its end', 'caf\u00e9 ', /--id: the case id starts or ends with a space/],
    [
      'the same id as another after NFC normalisation',
      'cafe\u0301',
      /--id: a case "café" exists already: the new id is the same text written with other code points/,
    ],
  ])('refuses %s, says what an id may be and writes nothing', async (_, id, message) => {
    const { cwd, dir } = await freshFixture()
    expect((await runCli(['add', 'fx', '--id', 'caf\u00e9', '--answer', ANSWER, '--citation', CITATION], cwd)).code).toBe(0)
    const before = await readFile(join(dir, 'cases.json'), 'utf8')
    const refused = await runCli(['add', 'fx', '--id', id, '--answer', ANSWER, '--citation', CITATION], cwd)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(message)
    expect(refused.stderr).toContain('expected: an id with a visible character, no line break, tab or other control character')
    expect(refused.stderr).toMatch(/fix: +(give the case an id|use the existing case's id)/)
    expect(await readFile(join(dir, 'cases.json'), 'utf8')).toBe(before)
  })

  test('takes a joiner inside an emoji sequence or between letters, where it shapes what prints', async () => {
    const { cwd, dir } = await freshFixture()
    for (const id of ['\u{1F469}\u200d\u{1F4BB}', 'mi\u200cxed'])
      expect((await runCli(['add', 'fx', '--id', id, '--answer', ANSWER, '--citation', CITATION], cwd)).code).toBe(0)
    const ids = (await json(join(dir, 'cases.json'))).cases.map((item: { id: string }) => item.id)
    expect(ids).toEqual(['\u{1F469}\u200d\u{1F4BB}', 'mi\u200cxed'])
  })

  test('refuses two ids of one --from list that are the same after NFC normalisation', async () => {
    const { cwd, dir } = await freshFixture()
    const before = await readFile(join(dir, 'cases.json'), 'utf8')
    const list = ['caf\u00e9', 'cafe\u0301'].map((id) => ({ id, answer: ANSWER, citation: CITATION }))
    await writeFile(join(cwd, 'list.json'), JSON.stringify(list))
    const refused = await runCli(['add', 'fx', '--from', 'list.json'], cwd)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('list.json › [1] › id: a case "café" exists already')
    expect(await readFile(join(dir, 'cases.json'), 'utf8')).toBe(before)
  })

  test('adds a case with its expected hashes, so it is pending at once; the question is the rubric task', async () => {
    const { cwd, dir } = await freshFixture()
    const { code, stdout } = await runCli(['add', 'fx', '--id', 'short', '--answer', ANSWER, '--citation', CITATION, '--split', 'held_out'], cwd)
    expect(code).toBe(0)
    expect(stdout).toBe('fx\n  added short: pending (no review)\n  wrote fx/cases.json\n')
    const rubric = await json(join(dir, 'rubric.json'))
    const [added] = (await json(join(dir, 'cases.json'))).cases
    expect(added).toEqual({
      id: 'short',
      split: 'held_out',
      input: { question: rubric.task, answer: { text: ANSWER, citation: CITATION } },
      expected: {
        acceptable: true,
        source_sha256: sha256Hex(await readFile(join(dir, 'source.txt'))),
        rubric_sha256: sha256Hex(await readFile(join(dir, 'rubric.json'))),
        review_sha256: NULL_FINGERPRINT,
      },
    })
    // Two-space JSON with a final newline, as the format's files are written.
    const text = await readFile(join(dir, 'cases.json'), 'utf8')
    expect(text).toBe(`${JSON.stringify(await json(join(dir, 'cases.json')), null, 2)}\n`)
    const status = await runCli(['status', 'fx'], cwd)
    expect(status.code).toBe(0)
    expect(status.stdout).toContain('unreviewed (1)')
  })

  test('--answer-file reads the answer; --from adds several cases in one run', async () => {
    const { cwd, dir } = await freshFixture()
    // A byte-order mark would be the answer's first character: refused, nothing written.
    await writeFile(join(cwd, 'answer.txt'), `\ufeff${ANSWER}\n`)
    const casesBefore = await readFile(join(dir, 'cases.json'), 'utf8')
    const bom = await runCli(['add', 'fx', '--id', 'from-file', '--answer-file', 'answer.txt', '--citation', CITATION], cwd)
    expect(bom.code).toBe(1)
    expect(bom.stderr).toMatch(/^answer\.txt: the answer file starts with a byte-order mark/)
    expect(await readFile(join(dir, 'cases.json'), 'utf8')).toBe(casesBefore)
    await writeFile(join(cwd, 'answer.txt'), `${ANSWER}\n`)
    expect((await runCli(['add', 'fx', '--id', 'from-file', '--answer-file', 'answer.txt', '--citation', CITATION], cwd)).code).toBe(0)
    await writeFile(
      join(cwd, 'more.json'),
      JSON.stringify([
        { id: 'a', answer: 'Answer A.', citation: CITATION },
        { id: 'b', answer: 'Answer B.', citation: CITATION, split: 'held_out' },
      ]),
    )
    const many = await runCli(['add', 'fx', '--from', 'more.json'], cwd)
    expect(many.stdout).toBe('fx\n  added a: pending (no review)\n  added b: pending (no review)\n  wrote fx/cases.json\n')
    const cases = (await json(join(dir, 'cases.json'))).cases
    expect(cases.map((entry: { id: string }) => entry.id)).toEqual(['from-file', 'a', 'b'])
    expect(cases[0].input.answer.text).toBe(`${ANSWER}\n`)
  })

  test('a scored case from its spec and outputs files', async () => {
    const { cwd, dir } = await freshFixture('debate')
    const bundled = (await json(join(import.meta.dirname, '../../fixtures/debate-benchmark/cases.json'))).cases[0]
    await writeFile(join(cwd, 'spec.json'), JSON.stringify(bundled.spec))
    await writeFile(join(cwd, 'outputs.json'), JSON.stringify(bundled.outputs))
    const { code, stdout } = await runCli(['add', 'fx', '--id', 'pagination', '--spec', 'spec.json', '--outputs', 'outputs.json'], cwd)
    expect(code).toBe(0)
    expect(stdout).toContain('added pagination: pending (')
    const [added] = (await json(join(dir, 'cases.json'))).cases
    expect(added.expected).toEqual({
      rubric_sha256: sha256Hex(await readFile(join(dir, 'evaluation_rubric.json'))),
      debate_review_sha256: NULL_FINGERPRINT,
      baseline_review_sha256: NULL_FINGERPRINT,
    })
    expect(added.spec).toEqual(bundled.spec)
  })

  describe('bad input: a clear error naming the option or file, and nothing written', () => {
    test.each([
      ['a duplicate id', ['--id', 'taken', '--answer', ANSWER, '--citation', CITATION], /^--id: a case "taken" exists already; nothing was written\./],
      ['an empty answer', ['--id', 'new', '--answer', '  ', '--citation', CITATION], /^--answer: the answer is empty; nothing was written\./],
      [
        'a question other than the rubric task',
        ['--id', 'new', '--answer', ANSWER, '--citation', CITATION, '--question', 'What is r41?'],
        /^--question: the question differs from the task fx\/rubric\.json was written for/,
      ],
      [
        'an unknown split',
        ['--id', 'new', '--answer', ANSWER, '--citation', CITATION, '--split', 'test'],
        /^--split: the value is not one of those allowed; nothing was written\.\n {2}expected: one of "development", "held_out"/,
      ],
    ])('%s', async (_name, args, message) => {
      const { cwd, dir } = await freshFixture()
      await writeFile(join(cwd, 'spec.json'), '{}')
      await runCli(['add', 'fx', '--id', 'taken', '--answer', ANSWER, '--citation', CITATION], cwd)
      const before = await filesIn(dir)
      const { code, stderr } = await runCli(['add', 'fx', ...args], cwd)
      expect(code).toBe(1)
      expect(stderr).toMatch(message)
      expect(await filesIn(dir)).toEqual(before)
    })

    test("options of the other kind's case name that kind and the options this fixture's kind takes", async () => {
      const criteria = await freshFixture()
      await writeFile(join(criteria.cwd, 'spec.json'), '{}')
      const before = await filesIn(criteria.dir)
      for (const args of [
        ['--spec', 'spec.json', '--outputs', 'spec.json'],
        ['--answer', ANSWER, '--citation', CITATION, '--spec', 'spec.json'],
      ]) {
        const run = await runCli(['add', 'fx', '--id', 'new', ...args], criteria.cwd)
        expect(run.code).toBe(2)
        const given = args.filter((arg) => arg === '--spec' || arg === '--outputs')
        expect(run.stderr).toMatch(new RegExp(`^fx: ${given.join(' and ')} give(s)? a case of a scored fixture, and this is a criteria fixture\\.`))
        expect(run.stderr).toContain('expected: a criteria case: `vitest-rubric add fx --id <id> (--answer <text> | --answer-file <file>) --citation <text>`')
      }
      expect(await filesIn(criteria.dir)).toEqual(before)
      const scored = await freshFixture('debate')
      const run = await runCli(['add', 'fx', '--id', 'new', '--answer', ANSWER, '--citation', CITATION], scored.cwd)
      expect(run.code).toBe(2)
      expect(run.stderr).toMatch(/^fx: --answer and --citation give a case of a criteria fixture, and this is a scored fixture\./)
      expect(run.stderr).toContain('expected: a scored case: `vitest-rubric add fx --id <id> --spec <spec.json> --outputs <outputs.json>`')
      expect(run.stderr).toContain(
        'fix:      leave out --answer and --citation, and give the case with the options of a scored case above (--spec, --outputs).',
      )
    })

    test('a new case without an option its kind requires is a usage error naming the options, with nothing written', async () => {
      const criteria = await freshFixture()
      const before = await filesIn(criteria.dir)
      for (const [args, missing] of [
        [[], '--answer or --answer-file and --citation'],
        [['--answer', ANSWER], '--citation'],
        [['--citation', CITATION], '--answer or --answer-file'],
      ] as const) {
        const run = await runCli(['add', 'fx', '--id', 'new', ...args], criteria.cwd)
        expect(run.code).toBe(2)
        expect(run.stderr).toMatch(new RegExp(`^fx: a new criteria case needs ${missing}\\.`))
        expect(run.stderr).not.toMatch(/Invalid input|received undefined/)
      }
      expect(await filesIn(criteria.dir)).toEqual(before)
      const scored = await freshFixture('debate')
      await writeFile(join(scored.cwd, 'spec.json'), '{}')
      const run = await runCli(['add', 'fx', '--id', 'new', '--spec', 'spec.json'], scored.cwd)
      expect(run.code).toBe(2)
      expect(run.stderr).toMatch(/^fx: a new scored case needs --outputs\./)
      expect(run.stderr).toContain('expected: `vitest-rubric add fx --id <id> --spec <spec.json> --outputs <outputs.json>`, or --from <file> with whole cases')
    })

    test('a malformed --from file is named at its JSON path; one bad case refuses them all', async () => {
      const { cwd, dir } = await freshFixture()
      const before = await filesIn(dir)
      await writeFile(
        join(cwd, 'more.json'),
        JSON.stringify([
          { id: 'a', answer: 'A.', citation: CITATION },
          { id: 'b', answer: 7, citation: CITATION },
        ]),
      )
      const typed = await runCli(['add', 'fx', '--from', 'more.json'], cwd)
      expect(typed.stderr).toMatch(
        /^more\.json › \[1\] › answer: the value has the wrong type; nothing was written\.\n {2}expected: a string\n {2}found: {4}the integer 7/,
      )
      await writeFile(
        join(cwd, 'more.json'),
        JSON.stringify([
          { id: 'a', answer: 'A.', citation: CITATION },
          { id: 'a', answer: 'B.', citation: CITATION },
        ]),
      )
      const twice = await runCli(['add', 'fx', '--from', 'more.json'], cwd)
      expect(twice.stderr).toMatch(/^more\.json › \[1\] › id: the list gives the case "a" twice \(an earlier entry has this id\); nothing was written\./)
      expect(twice.stderr).toContain('fix:      give each case of the list an id of its own, or leave the repeated entry out.')
      await writeFile(join(cwd, 'more.json'), '[{"id": "a",]')
      expect((await runCli(['add', 'fx', '--from', 'more.json'], cwd)).stderr).toMatch(/^more\.json: the file is not valid JSON \(line 1, column 13\)\./)
      expect(await filesIn(dir)).toEqual(before)
    })

    test('a fixture refused as a whole, and a call without an id, write nothing', async () => {
      const { cwd, dir } = await freshFixture()
      await writeFile(join(dir, 'annotations.json'), '{"origin": "x"}')
      const before = await filesIn(dir)
      const refused = await runCli(['add', 'fx', '--id', 'new', '--answer', ANSWER, '--citation', CITATION], cwd)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toMatch(/^fx\/annotations\.json › reviews: a required value is missing\./)
      const noId = await runCli(['add', 'fx', '--answer', ANSWER], cwd)
      expect(noId.code).toBe(2)
      expect(noId.stderr).toMatch(/^vitest-rubric add: name the new case with --id <id>, or pass --from <file>\./)
      expect(await filesIn(dir)).toEqual(before)
    })
  })
})
