import { cp, lstat, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer, type AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { announceTeam, openTeam } from '../../src/cli/commands/serve-team.js'
import { startServer } from '../../src/web/server.js'
import { readReservationFile, reservationFilePath, writeReservations } from '../../src/web/reservation-file.js'
import { tokenFilePath } from '../../src/web/team-tokens.js'
import { loadTeam } from '../../src/web/team.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'
import { TEAM } from '../helpers/served-team.js'

// A link is shown once, when it is issued, and only its hash is kept: so a token is issued only
// when its link is printed. `--reissue alice` issues alice's alone, and a start that fails issues none.

async function project(): Promise<string> {
  const root = await scratchDir('team-issued')
  await cp(DOCUCTL, join(root, 'fixtures/lab'), { recursive: true })
  await writeFile(join(root, 'team.json'), `${JSON.stringify({ people: TEAM }, null, 2)}\n`)
  return root
}

/** Starts the team's server as `serve --team team.json` does, and returns the lines it prints for the links. */
async function linksPrinted(root: string): Promise<string[]> {
  const { team, tokens } = await openTeam('team.json', root)
  const server = await startServer({ dirs: ['fixtures/lab'], cwd: root, port: 0, team: tokens })
  onTestFinished(() => server.close())
  const lines: string[] = []
  await announceTeam(team, server, root, { cwd: root, stdout: (text) => lines.push(text), stderr: () => undefined })
  return lines.slice(1).map((line) =>
    line
      .trim()
      .replace(/\?token=[\w-]+$/, '?token=…')
      .replace(/:\d+\//, ':<port>/'),
  )
}

const EVERY_LINK_ISSUED = [
  'alice (reviewer): http://127.0.0.1:<port>/?token=…',
  'bob (reviewer): http://127.0.0.1:<port>/?token=…',
  'dana (adjudicator): http://127.0.0.1:<port>/?token=…',
  'rita (reader): http://127.0.0.1:<port>/?token=…',
]

test('--reissue before any start issues a link to that person only; the first start prints the others’ links', async () => {
  const root = await project()
  const reissued = await runCli(['serve', '--team', 'team.json', '--reissue', 'alice'], root)
  expect(reissued.code).toBe(0)
  expect(reissued.stdout).toMatch(/^alice \(reviewer\): http:\/\/127\.0\.0\.1:5178\/\?token=[\w-]+\n\(the old link no longer works/)
  expect(await linksPrinted(root)).toEqual([
    'alice (reviewer): the link printed earlier still works (only its hash is kept; --reissue alice prints a new one)',
    ...EVERY_LINK_ISSUED.slice(1),
  ])
})

/** What makes a start fail: the options it is given, and how the failure is then put right. */
interface Failure {
  readonly args: readonly string[]
  readonly repair?: () => Promise<void>
}

test.each([
  [
    'the port given is in use',
    async (): Promise<Failure> => {
      const taken = createServer()
      await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done))
      onTestFinished(() => new Promise<void>((done) => taken.close(() => done())))
      // Cast: a server listening on a TCP port has an address object, never a pipe's name.
      return { args: ['--port', String((taken.address() as AddressInfo).port)] }
    },
  ],
  ['--commit outside a git work tree', async (): Promise<Failure> => ({ args: ['--commit', '--port', '0'] })],
  [
    'the file of reservations is broken',
    async (root: string): Promise<Failure> => {
      const path = reservationFilePath(root, await loadTeam('team.json', root))
      await mkdir(dirname(path), { recursive: true })
      await writeFile(path, '{"version": 1, "reservations": [')
      return { args: ['--port', '0'], repair: () => rm(path) }
    },
  ],
] as const)('a start that fails (%s) issues no link; the next start prints every link', async (_, failure) => {
  const root = await project()
  const { args, repair } = await failure(root)
  const failed = await runCli(['serve', 'fixtures/lab', '--team', 'team.json', ...args], root)
  expect(failed.code).toBe(1)
  expect(failed.stdout).not.toContain('token=')
  await repair?.()
  expect(await linksPrinted(root)).toEqual(EVERY_LINK_ISSUED)
})

test('a file of token hashes or of reservations that is a link is refused, not replaced: the links issued and the file it leads to are kept', async () => {
  const root = await project()
  expect((await runCli(['serve', '--team', 'team.json', '--reissue', 'alice'], root)).code).toBe(0)
  const tokens = tokenFilePath(root, await loadTeam('team.json', root))
  const outside = join(await scratchDir('team-outside'), 'h.json')
  await rename(tokens, outside)
  await symlink(outside, tokens)
  const held = await readFile(outside, 'utf8')
  for (const args of [
    ['--reissue', 'bob'],
    ['--revoke', 'alice'],
  ]) {
    const refused = await runCli(['serve', '--team', 'team.json', ...args], root)
    // As a broken file of token hashes is: serve --team cannot start (exit 2).
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('the file of token hashes is a symbolic link, or not a file')
    expect((await lstat(tokens)).isSymbolicLink()).toBe(true)
    expect(await readFile(outside, 'utf8')).toBe(held)
  }
  const reservations = reservationFilePath(root, await loadTeam('team.json', root))
  await writeFile(outside, '{}')
  await symlink(outside, reservations)
  await expect(readReservationFile(root, reservations)).rejects.toThrow('the file of open reservations is a symbolic link, or not a file')
  // A link put in its place while a server runs is refused at the server's next write, and kept.
  await expect(writeReservations(root, await loadTeam('team.json', root), () => [])).rejects.toThrow(
    'the file of open reservations is a symbolic link, or not a file',
  )
  expect((await lstat(reservations)).isSymbolicLink()).toBe(true)
  expect(await readFile(outside, 'utf8')).toBe('{}')
})

test('the first start prints a link to a person named as an Object.prototype member (constructor, toString)', async () => {
  const root = await project()
  const people = [
    { name: 'alice', role: 'reviewer' },
    { name: 'toString', role: 'adjudicator' },
    { name: 'constructor', role: 'reviewer' },
  ]
  await writeFile(join(root, 'team.json'), `${JSON.stringify({ people }, null, 2)}\n`)
  expect(await linksPrinted(root)).toEqual([
    'alice (reviewer): http://127.0.0.1:<port>/?token=…',
    'toString (adjudicator): http://127.0.0.1:<port>/?token=…',
    'constructor (reviewer): http://127.0.0.1:<port>/?token=…',
  ])
})
