import { spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { loadTeam } from '../../src/web/team.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { fixtureRoot } from '../helpers/page-browser.js'
import { scratchDir } from '../helpers/scratch.js'

// A reviewer's file is named by the person (reviews/alice.json): two people whose names differ only
// in case, or only in Unicode form, would share one file on macOS or Windows, merging their reviews.

async function teamError(people: readonly { name: string; role: string }[]): Promise<string> {
  const root = await scratchDir('team-twins')
  await writeFile(join(root, 'team.json'), JSON.stringify({ people }))
  return loadTeam('team.json', root).then(
    () => expect.unreachable('the team file was accepted'),
    (error: Error & { code: string }) => `${error.code}: ${error.message}`,
  )
}

test('two people whose names differ only in case are refused, naming both entries by their JSON path', async () => {
  expect(
    await teamError([
      { name: 'Alice', role: 'reviewer' },
      { name: 'bob', role: 'reader' },
      { name: 'alice', role: 'adjudicator' },
    ]),
  ).toMatchInlineSnapshot(`
    "TEAM_INVALID: team.json › people[2] › name: "alice" differs only in case from people[0] › name, "Alice": a case-insensitive file system (macOS, Windows) holds reviews/Alice.json and reviews/alice.json as one file, which would merge two people's reviews.
      expected: a name that is not "Alice" in other letter case
      found:    "alice"
      fix:      keep one of people[0] and people[2] if they are the same person, or give each a name of their own."
  `)
})

test('a name written composed and decomposed (zoë) is one name, refused like a name given twice', async () => {
  expect(
    await teamError([
      { name: 'zo\u00eb', role: 'reviewer' },
      { name: 'zoe\u0308', role: 'reviewer' },
    ]),
  ).toBe(
    [
      'TEAM_INVALID: team.json › people[1] › name: "zoe\u0308" is people[0] › name, "zo\u00eb", written in another Unicode form (composed or decomposed): the two would be one reviewer with one file.',
      '  expected: a name other than "zo\u00eb"',
      '  found:    "zoe\u0308"',
      '  fix:      keep one of people[0] and people[1] if they are the same person, or give each a name of their own.',
    ].join('\n'),
  )
})

test('serve --team with Alice and alice stops before serving: a usage error (exit 2), and no link is printed', async () => {
  const root = await fixtureRoot('team-twins', { 'fixtures/lab': DOCUCTL })
  await writeFile(
    join(root, 'team.json'),
    JSON.stringify({
      people: [
        { name: 'Alice', role: 'reviewer' },
        { name: 'alice', role: 'reviewer' },
      ],
    }),
  )
  const child = spawn(process.execPath, [join(ROOT, 'dist/cli/bin.js'), 'serve', 'fixtures/lab', '--team', 'team.json', '--port', '0'], { cwd: root })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((done) => child.on('exit', done))
  onTestFinished(async () => {
    if (child.exitCode === null) {
      child.kill('SIGINT')
      await exited
    }
  })
  const outcome = await Promise.race([exited, new Promise<'serving'>((done) => child.stdout.on('data', () => stdout.includes('Ctrl-C') && done('serving')))])
  expect(outcome).toBe(2)
  expect(stderr).toMatch(/^team\.json › people\[1\] › name: "alice" differs only in case from people\[0\] › name, "Alice": /)
  expect(stdout).toBe('')
})
