import { spawnSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT, copyFixture } from '../helpers/fixture-copy.js'

const ENTER = '\r'
const DOWN = '\u001b[B'
const UP = '\u001b[A'

interface TerminalRun {
  readonly status: number | null
  readonly screen: string
  readonly missed: string[]
  /** What the driver was waiting for when a guard ran out, or null. */
  readonly timedOut: string | null
}

/**
 * Runs the built bin on a pseudo-terminal (python3's pty), answering its prompts step by step.
 * Each prompt and the exit is waited for up to 30 s, the whole run up to 120 s: guards against a
 * hang, not budgets.
 */
function onTerminal(cwd: string, args: readonly string[], steps: readonly { expect: string; keys: string }[]): TerminalRun {
  const result = spawnSync('python3', [join(ROOT, 'test/helpers/pty_drive.py')], {
    input: JSON.stringify({ argv: [process.execPath, join(ROOT, 'dist/cli/bin.js'), ...args], cwd, steps, step_timeout: 30, timeout: 120 }),
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  })
  if (result.status !== 0) throw new Error(`the pty driver failed: ${result.stderr}`)
  return JSON.parse(result.stdout) as TerminalRun
}

test('the built bin on a real terminal: an interactive review of a case, written after confirmation', { timeout: 180_000 }, async () => {
  const fixture = await copyFixture()
  const rate = (criterion: string, downs: number, reason: string) => [
    { expect: `Rating of ${criterion}`, keys: DOWN.repeat(downs) + ENTER },
    { expect: `${criterion}?`, keys: reason + ENTER },
    { expect: 'The span of the answer', keys: ENTER },
  ]
  const run = onTerminal(
    fixture.dir,
    ['review', '.', '--case', 'not-reviewed'],
    [
      ...rate('command', 0, 'Gives the v3 command.'),
      ...rate('preconditions', 0, 'Approval and staging come first.'),
      ...rate('database_scope', 0, 'Says the database is not restored.'),
      ...rate('verification', 0, 'Asks for a health check.'),
      ...rate('support', 2, 'Not sure the guide says so.'),
      { expect: 'Write the review', keys: ENTER },
    ],
  )
  const seen = `${run.timedOut ?? 'the command exited'}; the screen shows:\n${run.screen.slice(-2000)}`
  expect(run.missed, seen).toEqual([])
  expect(run.status, seen).toBe(0)
  expect(run.screen).toContain('With this review the case is pending (uncertain on support).')
  expect(run.screen).toContain('not-reviewed: recorded a review, then decided pending (uncertain on support)')
  const review = JSON.parse(await readFile(join(fixture.dir, 'annotations.json'), 'utf8')).reviews.at(-1)
  expect(review.answer_id).toBe('not-reviewed')
  expect(review.judgements.support).toMatchObject({ rating: 'uncertain', reason: 'Not sure the guide says so.' })
})

test('on a real terminal: the answer is numbered beside every criterion, a span is given by sentence numbers, and back returns to the previous criterion', {
  timeout: 180_000,
}, async () => {
  const fixture = await copyFixture()
  const run = onTerminal(
    fixture.dir,
    ['review', '.', '--case', 'not-reviewed'],
    [
      { expect: 'Rating of command', keys: ENTER },
      { expect: 'command?', keys: `Gives the v3 command.${ENTER}` },
      { expect: 'The span of the answer', keys: `1${ENTER}` },
      { expect: 'Span of command: "Get release approval', keys: '' },
      { expect: 'Rating of preconditions', keys: ENTER },
      { expect: 'preconditions?', keys: `Approval first.${ENTER}` },
      { expect: 'The span of the answer', keys: `Get release approval${ENTER}` },
      // The third criterion still shows the answer, numbered.
      { expect: 'Criterion 3 of 5: database_scope', keys: '' },
      { expect: '[2] It changes the service version and leaves database contents as they are.', keys: '' },
      // A sentence the answer does not have is refused on the spot.
      { expect: 'Rating of database_scope', keys: ENTER },
      { expect: 'database_scope?', keys: `Leaves the database alone.${ENTER}` },
      { expect: 'The span of the answer', keys: `9${ENTER}` },
      { expect: 'The answer has sentences 1 to 3', keys: `${'\b'.repeat(3)}2-3${ENTER}` },
      // Back from verification to database_scope: its answers come back as they were, and a new rating replaces them;
      // the reason given for the earlier rating is not offered for the new one.
      { expect: 'Rating of verification', keys: UP + ENTER },
      { expect: 'Rating of database_scope', keys: DOWN + ENTER },
      { expect: 'database_scope?', keys: ENTER },
      { expect: 'A reason is needed: say why.', keys: `Says nothing of the migrations.${ENTER}` },
      { expect: 'The span of the answer', keys: ENTER },
      { expect: 'Rating of verification', keys: ENTER },
      { expect: 'verification?', keys: `Asks for a health check.${ENTER}` },
      { expect: 'The span of the answer', keys: `3${ENTER}` },
      { expect: 'Rating of support', keys: DOWN.repeat(3) + ENTER },
      { expect: 'Write the review', keys: ENTER },
    ],
  )
  const seen = `${run.timedOut ?? 'the command exited'}; the screen shows:\n${run.screen.slice(-3000)}`
  expect(run.missed, seen).toEqual([])
  expect(run.status, seen).toBe(0)
  const { judgements } = JSON.parse(await readFile(join(fixture.dir, 'annotations.json'), 'utf8')).reviews.at(-1)
  expect(judgements.command.answer_span).toBe(
    'Get release approval and confirm you are on staging, then run `docuctl releases rollback r41 --environment staging`.',
  )
  expect(judgements.preconditions.answer_span).toBe('Get release approval')
  expect(judgements.database_scope).toMatchObject({
    rating: 'does_not_meet',
    reason: 'Says nothing of the migrations.',
    answer_span: 'It changes the service version and leaves database contents as they are. Check service health afterwards.',
  })
  expect(judgements.verification.answer_span).toBe('Check service health afterwards.')
  expect(Object.keys(judgements)).toEqual(['command', 'preconditions', 'database_scope', 'verification'])
})

test('on a real terminal: adjudicate --case puts the disputed criteria first with every judgement inline and the judge as a prediction, and adopts the agreed ones with one key', {
  timeout: 180_000,
}, async () => {
  const fixture = await copyFixture()
  const judgement = (rating: string, reason: string, span = '') => ({ rating, reason, answer_span: span })
  const agreed = {
    command: judgement('meets', 'Gives the v3 command.'),
    preconditions: judgement('meets', 'Approval and staging first.'),
    database_scope: judgement('meets', 'Leaves the database alone.'),
  }
  const labels = {
    alice: {
      ...agreed,
      verification: judgement('meets', 'Asks for a health check.', 'Check service health afterwards.'),
      support: judgement('meets', 'All in the guide.'),
    },
    bob: { ...agreed, verification: judgement('does_not_meet', 'No check of the rollback.'), support: judgement('uncertain', 'Not sure of the guide.') },
  }
  const record = async (file: string, labelled: object, ...who: string[]) => {
    await writeFile(join(fixture.dir, file), JSON.stringify(labelled))
    const result = spawnSync(process.execPath, [join(ROOT, 'dist/cli/bin.js'), 'review', '.', '--case', 'not-reviewed', ...who, '--from', file], {
      cwd: fixture.dir,
      encoding: 'utf8',
    })
    expect(result.stderr).toBe('')
  }
  await record('alice.json', labels.alice, '--reviewer', 'alice')
  await record('bob.json', labels.bob, '--reviewer', 'bob')
  await record(
    'j1.json',
    { ...agreed, verification: judgement('does_not_meet', 'Never checks.'), support: judgement('meets', 'Supported.') },
    '--judge',
    'j1',
    '--origin',
    'model-x',
  )

  const run = onTerminal(
    fixture.dir,
    ['adjudicate', '.', '--case', 'not-reviewed', '--adjudicator', 'dana'],
    [
      { expect: 'To adjudicate first: verification (disputed), support (disputed).', keys: '' },
      { expect: 'Agreed, pre-filled: command, preconditions and database_scope.', keys: '' },
      { expect: 'Judge j1 (model-x) labelled the case: its labels are shown as predictions, to weigh, never adopted.', keys: '' },
      // The first disputed criterion, with every reviewer's rating, reason and span, and the judge's label as a prediction.
      { expect: '⚠ disputed (1 of 2): verification', keys: '' },
      { expect: 'alice: meets — Asks for a health check. (span: "Check service health afterwards.")', keys: '' },
      { expect: 'bob: does_not_meet — No check of the rollback. (no span: an omission)', keys: '' },
      { expect: 'judge j1, a prediction, not a review: does_not_meet — Never checks.', keys: '' },
      { expect: 'Adopt for verification', keys: DOWN + ENTER },
      { expect: '⚠ disputed (2 of 2): support', keys: '' },
      // Back to verification: bob's judgement, taken before, is where the choice starts.
      { expect: 'Adopt for support', keys: UP + ENTER },
      { expect: 'Adopt for verification', keys: ENTER },
      { expect: 'Adopt for support', keys: DOWN.repeat(2) + ENTER },
      { expect: 'Rating of support', keys: ENTER },
      { expect: 'Why?', keys: `The guide says so.${ENTER}` },
      { expect: 'The span of the answer', keys: `2${ENTER}` },
      // The agreed criteria last, pre-filled: one key adopts them.
      { expect: 'command: meets — alice: Gives the v3 command.', keys: '' },
      { expect: 'Adopt the 3 agreed judgements as they are?', keys: ENTER },
      { expect: 'With this adoption the case is rejected (verification).', keys: '' },
      { expect: 'Adopt this review?', keys: ENTER },
    ],
  )
  const seen = `${run.timedOut ?? 'the command exited'}; the screen shows:\n${run.screen.slice(-4000)}`
  expect(run.missed, seen).toEqual([])
  expect(run.status, seen).toBe(0)
  expect(run.screen).toContain('not-reviewed: adopted a review resolving alice, bob, then decided rejected (verification)')
  const adopted = JSON.parse(await readFile(join(fixture.dir, 'annotations.json'), 'utf8')).reviews.find(
    (review: { answer_id: string }) => review.answer_id === 'not-reviewed',
  )
  expect(adopted.judgements).toMatchObject({
    ...agreed,
    verification: labels.bob.verification,
    support: judgement('meets', 'The guide says so.', 'It changes the service version and leaves database contents as they are.'),
  })
  // The judge's label is never adopted: its reason is nowhere in the adopted review.
  expect(JSON.stringify(adopted)).not.toContain('Never checks.')
})
