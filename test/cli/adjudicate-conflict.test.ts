import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'
import { KEY, scriptedTerminal } from '../helpers/terminal.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

test('a terminal adjudication refused because the case changed meanwhile keeps what was typed, and names the command that records it', async () => {
  const fixture = await copyFixture()
  for (const [who, rating] of [
    ['alice', 'meets'],
    ['bob', 'does_not_meet'],
  ] as const) {
    const judgements = Object.fromEntries(
      CRITERIA.map((criterion) => [criterion, { rating: criterion === 'support' ? rating : 'meets', reason: `${who} on ${criterion}.`, answer_span: '' }]),
    )
    await writeFile(join(fixture.dir, 'labels.json'), JSON.stringify(judgements))
    expect((await runCli(['review', '.', '--case', 'not-reviewed', `--reviewer=${who}`, '--from', 'labels.json'], fixture.dir)).stderr).toBe('')
  }
  // dana writes her own judgement of the disputed criterion, then adopts the agreed ones as they are.
  const script = scriptedTerminal([
    { expect: 'Adopt for support', keys: KEY.down },
    { expect: 'write my own', keys: KEY.down },
    { expect: 'write my own', keys: KEY.enter },
    { expect: 'Rating of support', keys: KEY.down + KEY.enter },
    { expect: 'Why?', keys: `Typed by dana on the terminal.${KEY.enter}` },
    { expect: 'The span of the answer', keys: KEY.enter },
    { expect: 'Adopt the 4 agreed judgements as they are?', keys: KEY.enter },
    { expect: 'Adopt this review?', keys: '' },
  ])
  let stderr = ''
  const running = main(['adjudicate', '.', '--case', 'not-reviewed', '--adjudicator', 'dana'], {
    stdout: () => {},
    stderr: (text) => (stderr += `${text}\n`),
    cwd: fixture.dir,
    terminal: script.terminal,
  })
  while (!script.screen().includes('Adopt this review?')) await new Promise((done) => setTimeout(done, 20))
  // Meanwhile, another adjudicator adopts bob's review of the same case.
  expect((await runCli(['adjudicate', '.', '--case', 'not-reviewed', '--adjudicator', 'erin', '--take', 'bob'], fixture.dir)).code).toBe(0)
  script.terminal.input.write(KEY.enter)
  expect(await running).toBe(1)
  script.finished()

  const message = stderr.replaceAll(/\d{8}T\d{6}Z/g, '<time>')
  expect(message).toContain(
    "fix:      what you typed is kept in .vitest-rubric/drafts/not-reviewed.adjudication.<time>.json: read the case again (`vitest-rubric show . --case not-reviewed`), then, if it still holds (edit the file where it does not), record it with `vitest-rubric adjudicate . --case not-reviewed --adjudicator dana --pick 'command=alice' --pick 'preconditions=alice' --pick 'database_scope=alice' --pick 'verification=alice' --from .vitest-rubric/drafts/not-reviewed.adjudication.<time>.json`.",
  )
  // The draft holds dana's own judgement, in the shape adjudicate --from reads: the command named adopts it over erin's.
  const draftPath = /kept in (\S+):/.exec(stderr)![1]!
  const draft = JSON.parse(await readFile(join(fixture.dir, draftPath), 'utf8'))
  expect(draft.support).toMatchObject({ rating: 'does_not_meet', reason: 'Typed by dana on the terminal.' })
  // The words as a shell would pass them: the quotes around a word are the shell's.
  const command = /record it with `vitest-rubric ([^`]+)`/
    .exec(stderr)![1]!
    .split(' ')
    .map((word) => word.replace(/^'(.*)'$/, '$1'))
  const recorded = await runCli(command, fixture.dir)
  expect(recorded.stderr).toBe('')
  const adopted = JSON.parse(await readFile(join(fixture.dir, 'annotations.json'), 'utf8')).reviews.find(
    (review: { answer_id: string }) => review.answer_id === 'not-reviewed',
  )
  expect(adopted.judgements.support.reason).toBe('Typed by dana on the terminal.')
})
