import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { fingerprint, sha256Hex } from '../../src/core/json/canonical-json.js'
import { filesIn } from '../helpers/bad-input.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'
import { KEY, scriptedTerminal } from '../helpers/terminal.js'

const json = async (path: string) => JSON.parse(await readFile(path, 'utf8'))

/** The judgements of the bundled "complete" review, given back as options for the unreviewed case's answer. */
const ALL_MEET = [
  ...['command', 'preconditions', 'database_scope', 'verification', 'support'].flatMap((criterion) => [
    '--rating',
    `${criterion}=meets`,
    '--reason',
    `${criterion}=Judged against the answer.`,
  ]),
]

describe('vitest-rubric review, from options', () => {
  test('writes the review with every hash and reference quote filled in, and the case acknowledges it', async () => {
    const fixture = await copyFixture()
    // A criterion rated twice is a usage error: which rating stands would be a guess.
    const twice = await runCli(['review', '.', '--case', 'not-reviewed', ...ALL_MEET, '--rating', 'verification=does_not_meet'], fixture.dir)
    expect(twice.code).toBe(2)
    expect(twice.stderr).toMatch(/^vitest-rubric review: --rating verification=… is given twice\./)
    const judged = ['command', 'preconditions', 'database_scope', 'support'].flatMap((criterion) => [
      '--rating',
      `${criterion}=meets`,
      '--reason',
      `${criterion}=Judged against the answer.`,
    ])
    const reviewed = await runCli(
      ['review', '.', '--case', 'not-reviewed', ...judged, '--rating', 'verification=does_not_meet', '--reason', 'verification=No health check.'],
      fixture.dir,
    )
    expect(reviewed.stderr).toBe('')
    expect(reviewed.stdout).toBe('.\n  not-reviewed: recorded a review, then decided rejected (verification)\n  wrote annotations.json and cases.json\n')

    const rubric = await json(join(fixture.dir, 'rubric.json'))
    const cases = await json(join(fixture.dir, 'cases.json'))
    const annotations = await json(join(fixture.dir, 'annotations.json'))
    const theCase = cases.cases.find((entry: { id: string }) => entry.id === 'not-reviewed')
    const review = annotations.reviews.at(-1)
    expect(Object.keys(review)).toEqual(['answer_id', 'answer_sha256', 'source_sha256', 'rubric_sha256', 'judgements'])
    expect(review.answer_id).toBe('not-reviewed')
    expect(review.answer_sha256).toBe(fingerprint(theCase.input.answer))
    expect(review.source_sha256).toBe(sha256Hex(await readFile(join(fixture.dir, 'source.txt'))))
    expect(review.rubric_sha256).toBe(sha256Hex(await readFile(join(fixture.dir, 'rubric.json'))))
    expect(Object.keys(review.judgements)).toEqual(rubric.criteria.map((criterion: { id: string }) => criterion.id))
    for (const criterion of rubric.criteria) {
      expect(review.judgements[criterion.id]).toMatchObject({ reference_quote: criterion.reference_quote, answer_span: '' })
    }
    expect(theCase.expected.review_sha256).toBe(fingerprint(review))
    const evaluated = JSON.parse((await runCli(['evaluate', '.', '--json'], fixture.dir)).stdout)
    expect(evaluated.decisions['not-reviewed']).toMatchObject({ status: 'rejected', reason: 'verification' })
    expect((await runCli(['status', '.'], fixture.dir)).code).toBe(0)
  })

  test('a criterion left out stays unjudged, and the case pending', async () => {
    const fixture = await copyFixture()
    const { stdout } = await runCli(
      ['review', '.', '--case', 'not-reviewed', '--rating', 'command=meets', '--reason', 'command=Gives the v3 command.'],
      fixture.dir,
    )
    expect(stdout).toContain('not-reviewed: recorded a review, then decided pending (missing criteria preconditions, database_scope, verification, support)')
  })

  test('--replace revises a review and prints the old and new ratings; without it, an existing review is refused', async () => {
    const fixture = await copyFixture()
    const before = await filesIn(fixture.dir)
    const refused = await runCli(['review', '.', '--case', 'uncertain-wording', ...ALL_MEET], fixture.dir)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      /^annotations\.json › reviews\[6\] \(case "uncertain-wording"\): the case has a review already; nothing was written\.\n {2}fix: {6}pass --replace to revise it/,
    )
    expect(await filesIn(fixture.dir)).toEqual(before)
    const replaced = await runCli(['review', '.', '--case', 'uncertain-wording', '--replace', ...ALL_MEET], fixture.dir)
    expect(replaced.stdout).toBe(
      '.\n  uncertain-wording: replaced the review, then decided accepted\n    command: meets\n    preconditions: meets\n    database_scope: meets\n    verification: meets\n    support: uncertain → meets\n  wrote annotations.json and cases.json\n',
    )
    const annotations = await json(join(fixture.dir, 'annotations.json'))
    expect(annotations.reviews).toHaveLength(7)
    expect(annotations.reviews[6].answer_id).toBe('uncertain-wording')
  })

  test('--from a file holding the judgements; --dry-run writes nothing', async () => {
    const fixture = await copyFixture()
    await writeFile(join(fixture.dir, 'judged.json'), JSON.stringify({ command: { rating: 'uncertain', reason: 'Is the flag right?', answer_span: '' } }))
    const before = await filesIn(fixture.dir)
    const dry = await runCli(['review', '.', '--case', 'not-reviewed', '--from', 'judged.json', '--dry-run'], fixture.dir)
    expect(dry.stdout).toContain(
      'not-reviewed: would record a review, then the case would be decided pending (missing criteria preconditions, database_scope, verification, support; uncertain on command)',
    )
    expect(await filesIn(fixture.dir)).toEqual(before)
    expect((await runCli(['review', '.', '--case', 'not-reviewed', '--from', 'judged.json'], fixture.dir)).code).toBe(0)
  })

  describe('bad input: a clear error naming the option or file, and nothing written', () => {
    const rows: [string, string[], RegExp][] = [
      [
        'an unknown case',
        ['--case', 'compleet', '--rating', 'command=meets', '--reason', 'command=x'],
        /^cases\.json: there is no case "compleet"; nothing was written\.\n {2}expected: one of "complete", /,
      ],
      [
        'an unknown criterion',
        ['--case', 'not-reviewed', '--rating', 'tone=meets', '--reason', 'tone=x'],
        /^--rating tone: the rubric defines no criterion "tone"; nothing was written\.\n {2}expected: one of "command", /,
      ],
      [
        'a rating word not in the rubric',
        ['--case', 'not-reviewed', '--rating', 'command=meet', '--reason', 'command=x'],
        /^--rating command: "meet" is not a rating of the rubric; nothing was written\.\n {2}expected: one of "meets", "does_not_meet", "uncertain"/,
      ],
      [
        'a span not in the answer',
        ['--case', 'not-reviewed', '--rating', 'command=meets', '--reason', 'command=x', '--span', 'command=docuctl rollback now'],
        /^--span command: the span does not occur in the answer; nothing was written\./,
      ],
      [
        'a reason left empty',
        ['--case', 'not-reviewed', '--rating', 'command=meets', '--reason', 'command= '],
        /^--reason command: the reason is empty; nothing was written\./,
      ],
      [
        'a rating without a reason',
        ['--case', 'not-reviewed', '--rating', 'command=meets'],
        /^--reason command: a required value is missing; nothing was written\./,
      ],
    ]
    test.each(rows)('%s', async (_name, args, message) => {
      const fixture = await copyFixture()
      const before = await filesIn(fixture.dir)
      const { code, stderr } = await runCli(['review', '.', ...args], fixture.dir)
      expect(code).toBe(1)
      expect(stderr).toMatch(message)
      expect(await filesIn(fixture.dir)).toEqual(before)
    })

    test('a case whose own bindings are stale: review it after status and bind, says the message', async () => {
      const fixture = await copyFixture()
      await appendFile(join(fixture.dir, 'source.txt'), 'A new paragraph.\n')
      const before = await filesIn(fixture.dir)
      const { code, stderr } = await runCli(['review', '.', '--case', 'not-reviewed', '--rating', 'command=meets', '--reason', 'command=x'], fixture.dir)
      expect(code).toBe(1)
      expect(stderr).toMatch(
        /^cases\.json › cases\[7\] › expected › source_sha256 \(case "not-reviewed"\): the case is bound to other revisions of the files \(the source changed since the case was written\)/,
      )
      expect(stderr).toContain('run `vitest-rubric bind . --case not-reviewed`, then review it.')
      expect(await filesIn(fixture.dir)).toEqual(before)
    })

    test('a malformed --from file, at its JSON path', async () => {
      const fixture = await copyFixture()
      await writeFile(join(fixture.dir, 'judged.json'), JSON.stringify({ command: { rating: 'meets', reason: 'ok', answer_span: 3 } }))
      const before = await filesIn(fixture.dir)
      const { code, stderr } = await runCli(['review', '.', '--case', 'not-reviewed', '--from', 'judged.json'], fixture.dir)
      expect(code).toBe(1)
      expect(stderr).toMatch(
        /^judged\.json › command › answer_span: the value has the wrong type; nothing was written\.\n {2}expected: a string\n {2}found: {4}the integer 3/,
      )
      expect(await filesIn(fixture.dir)).toEqual(before)
    })

    test('a fixture refused as a whole', async () => {
      const fixture = await copyFixture()
      await fixture.editCases((cases) => {
        cases.cases[1]!.id = 'complete'
      })
      const before = await filesIn(fixture.dir)
      const { code, stderr } = await runCli(['review', '.', '--case', 'not-reviewed', '--rating', 'command=meets', '--reason', 'command=x'], fixture.dir)
      expect(code).toBe(1)
      expect(stderr).toMatch(/^cases\.json › cases\[1\] › id: the case id is already used by cases\[0\]\./)
      expect(await filesIn(fixture.dir)).toEqual(before)
    })

    test('without a terminal and without judgements: a usage error, never a hang', async () => {
      const fixture = await copyFixture()
      const { code, stderr } = await runCli(['review', '.', '--case', 'not-reviewed'], fixture.dir)
      expect(code).toBe(2)
      expect(stderr).toMatch(
        /^vitest-rubric review: there is no terminal to ask on: give the judgements with --rating, --reason and --span, or with --from <file>\./,
      )
    })
  })
})

describe('vitest-rubric review --reviewer: names', () => {
  const judged = (reason: string) => ['--rating', 'support=meets', '--reason', `support=${reason}`]

  test('a name in any script is accepted, in NFC: zoë composed or decomposed is one reviewer', async () => {
    const fixture = await copyFixture()
    const composed = await runCli(['review', '.', '--case', 'not-reviewed', '--reviewer', 'zo\u00eb', ...judged('Supported.')], fixture.dir)
    expect(composed.stderr).toBe('')
    expect(composed.stdout).toContain('not-reviewed by zo\u00eb: recorded a review')
    const decomposed = await runCli(['review', '.', '--case', 'complete', '--reviewer', 'zoe\u0308', ...judged('Supported too.')], fixture.dir)
    expect(decomposed.stderr).toBe('')
    expect(decomposed.stdout).toContain('complete by zo\u00eb: recorded a review')
    expect(await readdir(join(fixture.dir, 'reviews'))).toEqual(['zo\u00eb.json'])
    expect((await json(join(fixture.dir, 'reviews/zo\u00eb.json'))).reviews.map((review: { answer_id: string }) => review.answer_id)).toEqual([
      'not-reviewed',
      'complete',
    ])
  })

  test("a name that differs only in case from an existing reviewer's file is refused, and nothing is written", async () => {
    const fixture = await copyFixture()
    expect((await runCli(['review', '.', '--case', 'not-reviewed', '--reviewer', 'alice', ...judged('Supported.')], fixture.dir)).code).toBe(0)
    const before = await filesIn(join(fixture.dir, 'reviews'))
    const twin = await runCli(['review', '.', '--case', 'complete', '--reviewer', 'Alice', ...judged('Supported.')], fixture.dir)
    expect(twin.code).toBe(1)
    expect(twin.stderr).toMatchInlineSnapshot(`
      "--reviewer: "Alice" differs only in case from reviews/alice.json; nothing was written.
        expected: a name that is not "alice" in other letter case
        found:    "Alice"
        fix:      a case-insensitive file system (macOS, Windows) holds both names as one file, which would merge two authors' reviews: pass --reviewer alice if they are the same person, or a name of their own.
      "
    `)
    expect(await filesIn(join(fixture.dir, 'reviews'))).toEqual(before)
  })

  test("a judge's name is told as a judge's: its file in judges/, and a twin in letter case is the same judge or another", async () => {
    const fixture = await copyFixture()
    const bad = await runCli(['review', '.', '--case', 'complete', '--judge', '.hidden', ...judged('Supported.')], fixture.dir)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--judge: ".hidden" is not a judge name; nothing was written.')
    expect(bad.stderr).toContain('fix:      name the judge as its file in judges/ will be named, such as gpt-judge or keywords.')
    expect((await runCli(['review', '.', '--case', 'complete', '--judge', 'L', ...judged('Supported.')], fixture.dir)).code).toBe(0)
    const twin = await runCli(['review', '.', '--case', 'paraphrase', '--judge', 'l', ...judged('Supported.')], fixture.dir)
    expect(twin.code).toBe(1)
    expect(twin.stderr).toContain("which would merge two judges' labels: pass --judge L if it is the same judge, or a name of its own.")
    expect(twin.stderr).not.toContain('person')
    // A label is never acknowledged by its case: the fix to revise it says only --replace.
    const again = await runCli(['review', '.', '--case', 'complete', '--judge', 'L', ...judged('Supported.')], fixture.dir)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('fix:      pass --replace to revise it: the old and new ratings are printed.\n')
  })

  test('a name that could leave the folder is still a usage error', async () => {
    const fixture = await copyFixture()
    const outside = await runCli(['review', '.', '--case', 'complete', '--reviewer', '../alice', ...judged('Supported.')], fixture.dir)
    expect(outside.code).toBe(2)
    expect(outside.stderr.split('\n').slice(0, 4).join('\n')).toMatchInlineSnapshot(`
      "--reviewer: "../alice" is not a reviewer name; nothing was written.
        expected: letters and digits (of any script), ".", "_" and "-", not starting with a dot, at most 64 characters: the name is also the reviewer's file name
        fix:      name the reviewer as their file in reviews/ will be named, such as alice or zoë.
      "
    `)
  })
})

describe('vitest-rubric review on a terminal (the prompts driven through their input and output streams)', () => {
  const review = async (dir: string, steps: Parameters<typeof scriptedTerminal>[0], args: string[] = []) => {
    const script = scriptedTerminal(steps)
    let stdout = ''
    let stderr = ''
    const code = await main(['review', '.', '--case', 'not-reviewed', ...args], {
      stdout: (text) => (stdout += `${text}\n`),
      stderr: (text) => (stderr += `${text}\n`),
      cwd: dir,
      terminal: script.terminal,
    })
    script.finished()
    return { code, stdout, stderr, screen: script.screen() }
  }
  /** Answers for one criterion: a rating by its position in the list, a reason and a span. */
  const criterion = (name: string, downs: number, reason: string, span: string) => [
    { expect: `Rating of ${name}`, keys: KEY.down.repeat(downs) + KEY.enter },
    { expect: `${name}?`, keys: `${reason}${KEY.enter}` },
    { expect: 'The span of the answer', keys: `${span}${KEY.enter}` },
  ]

  test('shows the case and each criterion, asks criterion by criterion, shows the decision, and writes after confirmation', async () => {
    const fixture = await copyFixture()
    const answer = (await json(join(fixture.dir, 'cases.json'))).cases[7].input.answer.text as string
    const steps = [
      ...criterion('command', 0, 'Gives the v3 command.', ''),
      ...criterion('preconditions', 0, 'Approval and staging first.', ''),
      ...criterion('database_scope', 0, 'Says the database is not restored.', ''),
      ...criterion('verification', 1, 'No health check after the rollback.', ''),
      { expect: 'Rating of support', keys: KEY.down.repeat(3) + KEY.enter },
      { expect: 'Write the review', keys: KEY.enter },
    ]
    const { code, stdout, screen } = await review(fixture.dir, steps)
    expect(code).toBe(0)
    expect(screen).toContain(answer.slice(0, 40))
    expect(screen).toContain('Criterion 1 of 5: command')
    expect(screen).toContain('Reference quote: "Use `docuctl releases rollback r41')
    expect(screen).toContain('With this review the case is pending (missing criterion support).')
    expect(stdout).toContain('not-reviewed: recorded a review, then decided pending (missing criterion support)')
    const review7 = (await json(join(fixture.dir, 'annotations.json'))).reviews.at(-1)
    expect(Object.keys(review7.judgements)).toEqual(['command', 'preconditions', 'database_scope', 'verification'])
    expect(review7.judgements.verification).toMatchObject({ rating: 'does_not_meet', reason: 'No health check after the rollback.', answer_span: '' })
  })

  test('a span that is not in the answer is refused on the spot and asked again', async () => {
    const fixture = await copyFixture()
    const answer = (await json(join(fixture.dir, 'cases.json'))).cases[7].input.answer.text as string
    const span = answer.slice(0, 20)
    const steps = [
      { expect: 'Rating of command', keys: KEY.enter },
      { expect: 'command?', keys: `Gives the command.${KEY.enter}` },
      { expect: 'The span of the answer', keys: `words the answer never says${KEY.enter}` },
      { expect: 'That text does not occur in the answer', keys: '\u0015'.repeat(1) + '\b'.repeat(40) + span + KEY.enter },
      ...['preconditions', 'database_scope', 'verification', 'support'].map((name) => ({ expect: `Rating of ${name}`, keys: KEY.down.repeat(3) + KEY.enter })),
      { expect: 'Write the review', keys: KEY.enter },
    ]
    const { code } = await review(fixture.dir, steps)
    expect(code).toBe(0)
    expect((await json(join(fixture.dir, 'annotations.json'))).reviews.at(-1).judgements.command.answer_span).toBe(span)
  })

  test('declining to write, or cancelling, writes nothing', async () => {
    const fixture = await copyFixture()
    const before = await filesIn(fixture.dir)
    const declined = await review(fixture.dir, [
      ...['command', 'preconditions', 'database_scope', 'verification'].map((name) => ({
        expect: `Rating of ${name}`,
        keys: KEY.down.repeat(3) + KEY.enter,
      })),
      ...criterion('support', 0, 'Every claim is in the guide.', ''),
      { expect: 'Write the review', keys: KEY.down + KEY.enter },
    ])
    expect(declined.code).toBe(1)
    expect(declined.stderr).toBe('review cancelled: nothing was written\n')
    const cancelled = await review(fixture.dir, [{ expect: 'Rating of command', keys: KEY.ctrlC }])
    expect(cancelled.code).toBe(1)
    expect(await filesIn(fixture.dir)).toEqual(before)
  })

  test('a review that skips every criterion is refused before it is written, as the review page refuses it', async () => {
    const fixture = await copyFixture()
    const before = await filesIn(fixture.dir)
    const skipped = await review(
      fixture.dir,
      ['command', 'preconditions', 'database_scope', 'verification', 'support'].map((name) => ({
        expect: `Rating of ${name}`,
        keys: KEY.down.repeat(3) + KEY.enter,
      })),
    )
    expect(skipped.code).toBe(1)
    expect(skipped.stderr).toContain('the draft judges no criterion, so there is nothing to save; nothing was written.')
    expect(await filesIn(fixture.dir)).toEqual(before)
  })

  test("with --reviewer the review is blind: another reviewer's judgement of the case is never shown", async () => {
    const fixture = await copyFixture()
    const secret = 'Alice thinks the support claim is invented.'
    const alice = await runCli(
      ['review', '.', '--case', 'not-reviewed', '--reviewer', 'alice', '--rating', 'support=does_not_meet', '--reason', `support=${secret}`],
      fixture.dir,
    )
    expect(alice.code).toBe(0)
    const { code, stdout, screen } = await review(
      fixture.dir,
      [
        ...['command', 'preconditions', 'database_scope', 'verification'].map((name) => ({
          expect: `Rating of ${name}`,
          keys: KEY.down.repeat(3) + KEY.enter,
        })),
        ...criterion('support', 0, 'Every claim is in the guide.', ''),
        { expect: 'Write the review', keys: KEY.enter },
      ],
      ['--reviewer', 'bob'],
    )
    expect(code).toBe(0)
    expect(screen).not.toContain(secret)
    expect(screen).not.toContain('alice')
    expect(stdout).toContain(
      'not-reviewed by bob: recorded a review, which alone would decide pending (missing criteria command, preconditions, database_scope, verification)',
    )
    expect(JSON.parse(await readFile(join(fixture.dir, 'reviews/bob.json'), 'utf8')).reviews[0].judgements.support.rating).toBe('meets')
  })

  test("with --reviewer the confirmation names the reviewer's file, the one that is written", async () => {
    const fixture = await copyFixture()
    const { code, stdout } = await review(
      fixture.dir,
      [
        ...['command', 'preconditions', 'database_scope', 'verification'].map((name) => ({
          expect: `Rating of ${name}`,
          keys: KEY.down.repeat(3) + KEY.enter,
        })),
        ...criterion('support', 0, 'Every claim is in the guide.', ''),
        { expect: 'Write the review to reviews/carol.json?', keys: KEY.enter },
      ],
      ['--reviewer', 'carol'],
    )
    expect(code).toBe(0)
    expect(stdout).toContain('wrote reviews/carol.json')
  })

  test('a case reviewed already is refused as from options: exit 1, one message with its fix, nothing asked', async () => {
    const fixture = await copyFixture()
    const before = await filesIn(fixture.dir)
    const fromOptions = await runCli(['review', '.', '--case', 'complete', '--rating', 'support=meets', '--reason', 'support=Supported.'], fixture.dir)
    const script = scriptedTerminal([])
    let stderr = ''
    const code = await main(['review', '.', '--case', 'complete'], {
      stdout: () => {},
      stderr: (text) => (stderr += `${text}\n`),
      cwd: fixture.dir,
      terminal: script.terminal,
    })
    expect({ code, stderr }).toEqual({ code: fromOptions.code, stderr: fromOptions.stderr })
    expect(stderr).toMatchInlineSnapshot(`
      "annotations.json › reviews[0] (case "complete"): the case has a review already; nothing was written.
        fix:      pass --replace to revise it: the old and new ratings are printed, and the case acknowledges the new revision.
      "
    `)
    expect(await filesIn(fixture.dir)).toEqual(before)
  })
})
