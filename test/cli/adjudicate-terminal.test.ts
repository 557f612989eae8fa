import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'
import { KEY, scriptedTerminal } from '../helpers/terminal.js'

const json = async (path: string) => JSON.parse(await readFile(path, 'utf8'))
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

test('adjudicate on a terminal: every criterion agreed, gone through one by one from the agreed judgements; a stale judge label is named, not shown', async () => {
  const fixture = await copyFixture()
  const judgements = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: `alice on ${criterion}.`, answer_span: '' }]))
  for (const [who, labelled] of [
    ['--reviewer=alice', judgements],
    ['--reviewer=bob', Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: `bob on ${criterion}.`, answer_span: '' }]))],
    ['--judge=j1', Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'does_not_meet', reason: 'The stale label.', answer_span: '' }]))],
  ] as const) {
    await writeFile(join(fixture.dir, 'labels.json'), JSON.stringify(labelled))
    expect((await runCli(['review', '.', '--case', 'not-reviewed', who, '--from', 'labels.json'], fixture.dir)).stderr).toBe('')
  }
  // The judge's label no longer describes the answer: stale.
  const judgeFile = await json(join(fixture.dir, 'judges/j1.json'))
  judgeFile.reviews[0].answer_sha256 = '0'.repeat(64)
  await writeFile(join(fixture.dir, 'judges/j1.json'), JSON.stringify(judgeFile, null, 2))

  const script = scriptedTerminal([
    { expect: 'The reviewers agree on every criterion.', keys: '' },
    { expect: 'The label of judge j1 (origin not given) is not shown:', keys: '' },
    { expect: /describes another answer\.(?!\.)/, keys: '' },
    { expect: 'Adopt the 5 agreed judgements as they are?', keys: KEY.down + KEY.enter },
    // One by one, each starts at the agreed judgement: Enter keeps it.
    ...CRITERIA.map((criterion) => ({ expect: `Adopt for ${criterion}`, keys: KEY.enter })),
    { expect: 'With this adoption the case is accepted.', keys: '' },
    { expect: 'Adopt this review?', keys: KEY.enter },
  ])
  let stdout = ''
  const code = await main(['adjudicate', '.', '--case', 'not-reviewed', '--adjudicator', 'dana'], {
    stdout: (text) => (stdout += `${text}\n`),
    stderr: () => {},
    cwd: fixture.dir,
    terminal: script.terminal,
  })
  script.finished()
  expect(code).toBe(0)
  expect(script.screen()).not.toContain('The stale label.')
  expect(stdout).toContain('not-reviewed: adopted a review resolving alice, bob, then decided accepted')
  const adopted = (await json(join(fixture.dir, 'annotations.json'))).reviews.find((review: { answer_id: string }) => review.answer_id === 'not-reviewed')
  expect(adopted.judgements).toMatchObject(judgements)
})
