import { execFile } from 'node:child_process'
import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import type { NextAnswer } from '../../src/web/assignment-protocol.js'
import { runCli } from '../helpers/cli.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { raw, type RawResponse } from '../helpers/served-fixture.js'
import { servedTeam, type ServedTeam } from '../helpers/served-team.js'

// `status` shows each person's open reservations of `serve --team`, read from the file the server
// keeps beside its token hashes: another process than the server's sees them.

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const BIN = join(ROOT, 'dist/cli/bin.js')

function as(team: ServedTeam, name: string, path: string, body?: unknown): Promise<RawResponse> {
  const headers: Record<string, string> = { 'x-rubric-token': team.tokens[name]! }
  if (body === undefined) return raw(team.server.port, path, { headers })
  return raw(team.server.port, path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

async function next(team: ServedTeam, name: string): Promise<NonNullable<NextAnswer['next']>> {
  const answer = await as(team, name, '/api/next?fixture=0')
  expect(answer.status, answer.body).toBe(200)
  return (JSON.parse(answer.body) as NextAnswer).next!
}

interface Listed {
  readonly dir: string
  readonly reservations: readonly { person: string; case: string; until: string }[]
}

/** `status --json` run by the built command line, in a process of its own. */
async function statusJson(root: string): Promise<Listed[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'status', 'fixtures/lab', '--json'], { cwd: root }).catch(
    (failed: { stdout: string }) => failed,
  )
  return JSON.parse(stdout) as Listed[]
}

describe('status: the open reservations of serve --team', () => {
  test('a case handed to a reviewer is listed with its person and time, and is gone once they save it', async () => {
    const team = await servedTeam(undefined, { assign: { reviewsPerCase: 2 } })
    const alice = await next(team, 'alice')
    const bob = await next(team, 'bob')
    const [listed] = await statusJson(team.root)
    expect(listed!.dir).toBe('fixtures/lab')
    expect(listed!.reservations).toEqual(
      expect.arrayContaining([
        { person: 'alice', case: alice.id, until: alice.expires },
        { person: 'bob', case: bob.id, until: bob.expires },
      ]),
    )
    expect(listed!.reservations).toHaveLength(2)

    const text = await runCli(['status', 'fixtures/lab'], team.root)
    expect(text.stdout).toContain(`    alice: ${alice.id} until ${alice.expires}`)

    const { versions } = JSON.parse((await as(team, 'alice', `/api/case?fixture=0&id=${alice.id}`)).body) as { versions: Record<string, string | null> }
    const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: 'Checked.', answer_span: '' }]))
    expect((await as(team, 'alice', '/api/review', { fixture: 0, id: alice.id, versions, replace: false, draft })).status).toBe(200)
    expect((await statusJson(team.root))[0]!.reservations).toEqual([{ person: 'bob', case: bob.id, until: bob.expires }])
  })

  test('a skipped case is no longer listed', async () => {
    const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1 } })
    const alice = await next(team, 'alice')
    expect((await runCli(['status', 'fixtures/lab'], team.root)).stdout).toContain(`alice: ${alice.id} until`)
    expect((await as(team, 'alice', '/api/release', { fixture: 0, id: alice.id })).status).toBe(200)
    const after = await runCli(['status', 'fixtures/lab'], team.root)
    expect(after.stdout).not.toContain('reserved by serve --team')
  })

  test('a reservation whose time ran out is not shown as open', async () => {
    let now = Date.now()
    const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1, reserveMs: 60_000, now: () => now } })
    await next(team, 'alice')
    now -= 120_000
    // Bob's reservation is written with a clock two minutes behind: its time ran out a minute ago.
    await next(team, 'bob')
    const listed = (await statusJson(team.root))[0]!.reservations
    expect(listed.map((each) => each.person)).toEqual(['alice'])
  })

  test('a restart keeps the reservations held before it', async () => {
    const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1 } })
    const alice = await next(team, 'alice')
    await team.server.close()
    const again = await servedTeam(team.root, { assign: { reviewsPerCase: 1 } })
    // Alice's links were kept across the restart: her old token still names her.
    const restarted = { ...again, tokens: team.tokens }
    expect((await next(restarted, 'bob')).id).not.toBe(alice.id)
    expect((await next(restarted, 'alice')).id).toBe(alice.id)
    expect((await statusJson(team.root))[0]!.reservations.map((each) => each.case)).toContain(alice.id)
  })

  test('a file of reservations that is not JSON stops status, naming the file and the fix', async () => {
    const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1 } })
    await next(team, 'alice')
    const name = (await readdir(join(team.root, '.vitest-rubric/team'))).find((each) => each.endsWith('.reservations.json'))!
    await writeFile(join(team.root, '.vitest-rubric/team', name), '{"version": 1, "reservations": [')
    const { stderr, code } = await runCli(['status', 'fixtures/lab'], team.root)
    expect(code).not.toBe(0)
    expect(stderr).toContain(`.vitest-rubric/team/${name}: the file of open reservations is not JSON.`)
    expect(stderr).toContain(`fix:      remove .vitest-rubric/team/${name}`)
  })

  test('a file of reservations that is not as the server wrote it stops status, naming the file, the JSON path and the fix', async () => {
    const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1 } })
    await next(team, 'alice')
    const name = (await readdir(join(team.root, '.vitest-rubric/team'))).find((each) => each.endsWith('.reservations.json'))!
    await writeFile(
      join(team.root, '.vitest-rubric/team', name),
      JSON.stringify({ version: 1, team: 'team.json', reservations: [{ person: 'alice', fixture: 'fixtures/lab', case: 'x', until: 'soon' }] }),
    )
    const { stderr, code } = await runCli(['status', 'fixtures/lab'], team.root)
    expect(code).not.toBe(0)
    expect(stderr.replaceAll(name, '<file>')).toMatchInlineSnapshot(`
      ".vitest-rubric/team/<file> › reservations[0] › until: the value is not in the required format.
        expected: an ISO time (2026-12-06T10:42:00.000Z)
        found:    "soon"
        fix:      remove .vitest-rubric/team/<file>: the reservations it held are released, and a running serve --team writes it again at its next change.
      "
    `)
  })
})
