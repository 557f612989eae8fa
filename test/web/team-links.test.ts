import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { scratchDir } from '../helpers/scratch.js'
import { loadTeam } from '../../src/web/team.js'
import { tokenHash } from '../../src/web/team-tokens.js'
import { runCli } from '../helpers/cli.js'
import { raw, type RawResponse } from '../helpers/served-fixture.js'
import { servedTeam, type ServedTeam } from '../helpers/served-team.js'
import { ROUTES as SERVER_ROUTES } from '../../src/web/server.js'
import { ASSETS_PATH } from '../../src/web/routes/page.js'

// `serve --team`: the server knows who asks from their link's token alone. These requests are raw
// HTTP, as any script on the machine could send them.

const CASE = 'not-reviewed'
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

/** Every route the server answers, as a request with what it needs besides a token. */
const ROUTES: readonly { readonly method: 'GET' | 'POST'; readonly path: string; readonly body?: string }[] = [
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/assets/page.js' },
  { method: 'GET', path: '/assets/page.css' },
  { method: 'GET', path: '/api/overview' },
  { method: 'GET', path: '/api/version' },
  { method: 'GET', path: '/api/events' },
  { method: 'GET', path: `/api/case?fixture=0&id=${CASE}` },
  { method: 'GET', path: '/api/compare?a=0&b=0' },
  { method: 'GET', path: '/api/next?fixture=0' },
  { method: 'POST', path: '/api/release', body: JSON.stringify({ fixture: 0, id: CASE }) },
  { method: 'GET', path: '/api/assignments' },
  { method: 'POST', path: '/api/review', body: save({ reviewer: 'alice' }) },
  { method: 'POST', path: '/api/adjudicate', body: save({ adjudicator: 'dana' }) },
]

function save(extra: Record<string, unknown>, versions: Record<string, string | null> = {}, draft = judged('meets')): string {
  return JSON.stringify({ fixture: 0, id: CASE, versions, replace: false, draft, ...extra })
}

function judged(rating: string, reason = 'Checked.'): Record<string, unknown> {
  return Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating, reason, answer_span: '' }]))
}

function as(team: ServedTeam, token: string | undefined, path: string, method = 'GET', body?: string): Promise<RawResponse> {
  const headers: Record<string, string> = token === undefined ? {} : { 'x-rubric-token': token }
  if (body !== undefined) headers['content-type'] = 'application/json'
  return raw(team.server.port, path, { method, headers, ...(body === undefined ? {} : { body }) })
}

const errorOf = (answer: RawResponse) => (JSON.parse(answer.body) as { error: { code: string; message: string } }).error
const versionsOf = async (team: ServedTeam, token: string) => JSON.parse((await as(team, token, `/api/case?fixture=0&id=${CASE}`)).body).versions

describe('serve --team: personal links', () => {
  test('the routes listed here are every route the server answers', () => {
    const answered = [...Object.keys(SERVER_ROUTES), `GET ${ASSETS_PATH}`]
    const listed = new Set(ROUTES.map((route) => `${route.method} ${route.path.startsWith(ASSETS_PATH) ? ASSETS_PATH : route.path.split('?')[0]}`))
    // `/open` exchanges a one-time code for the single token's cookie: refused with a team, below.
    expect(answered.sort()).toEqual([...listed].sort())
  })

  test('every route refuses a missing token, a wrong one and the single token; a person’s own is accepted', async () => {
    const team = await servedTeam()
    const wrong = `${team.tokens['alice']!.slice(0, -2)}xx`
    for (const route of ROUTES) {
      for (const [what, headers] of [
        ['no token', {}],
        ['a wrong token', { 'x-rubric-token': wrong }],
        ['the single token', { 'x-rubric-token': team.server.token }],
        ['the single token as a cookie', { cookie: `vitest-rubric-${team.server.port}=${team.server.token}` }],
      ] as const) {
        const answer = await raw(team.server.port, route.path, { method: route.method, headers, ...(route.body === undefined ? {} : { body: route.body }) })
        expect({ route: route.path, what, status: answer.status, code: errorOf(answer).code }).toEqual({
          route: route.path,
          what,
          status: 403,
          code: 'BAD_TOKEN',
        })
      }
      // The query carries a token as the printed link does.
      const single = await raw(team.server.port, `${route.path}${route.path.includes('?') ? '&' : '?'}token=${team.server.token}`, { method: route.method })
      expect({ route: route.path, status: single.status }).toEqual({ route: route.path, status: 403 })
    }
    // A reader is handed no case (`/api/next` refuses them, test/web/assignment.test.ts).
    for (const route of ROUTES.filter((each) => each.method === 'GET' && each.path !== '/api/events' && !each.path.startsWith('/api/next')))
      expect({ route: route.path, status: (await as(team, team.tokens['rita'], route.path)).status }).toEqual({ route: route.path, status: 200 })
    // A one-time link would set the single token's cookie: with a team, none works.
    const open = await raw(team.server.port, new URL(team.server.openUrl()).pathname + new URL(team.server.openUrl()).search)
    expect(errorOf(open).code).toBe('BAD_CODE')
  })

  test('the page names its person, and carries their token only', async () => {
    const team = await servedTeam()
    const page = (await raw(team.server.port, `/?token=${team.tokens['bob']}`)).body
    expect(page).toContain('<meta name="rubric-identity" content="{&#34;name&#34;:&#34;bob&#34;,&#34;role&#34;:&#34;reviewer&#34;}">')
    expect(page).toContain(team.tokens['bob'])
    expect(page).not.toContain(team.tokens['alice'])
  })

  test('a reviewer saves as themselves: a save naming another is refused, and one naming no one is theirs', async () => {
    const team = await servedTeam()
    const alice = team.tokens['alice']!
    const versions = await versionsOf(team, alice)
    const asBob = await as(team, alice, '/api/review', 'POST', save({ reviewer: 'bob' }, versions))
    expect(asBob.status).toBe(403)
    expect(errorOf(asBob)).toEqual({ code: 'IDENTITY_MISMATCH', message: "this link is alice's: a save through it is made as alice, never as bob." })
    const adopting = await as(team, alice, '/api/adjudicate', 'POST', save({ adjudicator: 'alice' }, versions))
    expect(errorOf(adopting)).toEqual({ code: 'ROLE_NOT_PERMITTED', message: "alice reviews: a reviewer's link cannot adjudicate." })
    await expect(readdir(join(team.dir, 'reviews'))).rejects.toThrow('ENOENT')

    const unnamed = await as(team, alice, '/api/review', 'POST', save({}, versions))
    expect(unnamed.status).toBe(200)
    expect(await readdir(join(team.dir, 'reviews'))).toEqual(['alice.json'])
  })

  test('a reader can save nothing', async () => {
    const team = await servedTeam()
    const rita = team.tokens['rita']!
    const before = await readFile(join(team.dir, 'annotations.json'), 'utf8')
    const versions = await versionsOf(team, rita)
    for (const [path, extra] of [
      ['/api/review', {}],
      ['/api/review', { reviewer: 'rita' }],
      ['/api/adjudicate', { adjudicator: 'rita' }],
    ] as const) {
      const answer = await as(team, rita, path, 'POST', save(extra, versions))
      expect(answer.status).toBe(403)
      expect(errorOf(answer)).toEqual({ code: 'ROLE_NOT_PERMITTED', message: "rita reads: a reader's link saves nothing." })
    }
    expect(await readFile(join(team.dir, 'annotations.json'), 'utf8')).toBe(before)
  })

  test('blindness is by identity: a reviewer asking as a reader or an adjudicator is still served as themselves', async () => {
    const team = await servedTeam()
    for (const reviewer of ['bob', 'carol']) {
      const ratings = CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=${reviewer.toUpperCase()}-SECRET.`])
      expect((await runCli(['review', 'fixtures/lab', '--case', CASE, '--reviewer', reviewer, ...ratings], team.root)).code).toBe(0)
    }
    const alice = team.tokens['alice']!
    for (const viewer of ['', 'reader', 'adjudicator:dana', 'reviewer:bob']) {
      const query = viewer === '' ? '' : `&viewer=${viewer}`
      const overview = await as(team, alice, `/api/overview?${query.slice(1)}`)
      const shown = await as(team, alice, `/api/case?fixture=0&id=${CASE}${query}`)
      const compared = await as(team, alice, '/api/compare?a=0&b=0')
      for (const body of [overview.body, shown.body, compared.body])
        expect({ viewer, secret: /SECRET|bob:|carol:/.test(body) }).toEqual({ viewer, secret: false })
      expect(JSON.parse(shown.body).reviewers).toBe('hidden')
    }
    // The adjudicator's link sees both.
    const dana = await as(team, team.tokens['dana'], `/api/case?fixture=0&id=${CASE}`)
    expect(dana.body).toContain('BOB-SECRET.')
    expect(dana.body).toContain('CAROL-SECRET.')
  })

  test("a blind reviewer's comparison view counts what they are shown of each case, never the fixture's own decisions", async () => {
    const team = await servedTeam()
    const sections = async (token: string | undefined) =>
      (JSON.parse((await as(team, token, '/api/compare?a=0&b=0')).body) as { sections: { split: string; coverage: string; rates: string }[] }).sections
    const development = async (token: string | undefined) => (await sections(token)).find((section) => section.split === 'development')!
    // The adjudicator is shown the fixture's decisions: six of its eight development cases are decided.
    expect((await development(team.tokens['dana'])).coverage).toBe('6 of 8 tasks decided in both; 2 pending in A, 2 pending in B')
    // alice has reviewed nothing: she is shown every case pending, and the comparison counts no decided pair, no rate, no table.
    expect(await development(team.tokens['alice'])).toMatchObject({
      coverage: '0 of 8 tasks decided in both; 8 pending in A, 8 pending in B',
      rates: null,
      table: null,
      criteria: [],
    })
    // For each person, the pairs counted decided are the cases their own overview shows decided.
    const decidedShown = async (token: string | undefined) =>
      (JSON.parse((await as(team, token, '/api/overview')).body) as { fixtures: { cases: { split: string; status: string }[] }[] }).fixtures[0]!.cases.filter(
        (row) => row.split === 'development' && (row.status === 'accepted' || row.status === 'rejected'),
      ).length
    for (const person of ['alice', 'bob', 'dana', 'rita'])
      expect({ person, coverage: (await development(team.tokens[person])).coverage.split(' of ')[0] }).toEqual({
        person,
        coverage: String(await decidedShown(team.tokens[person])),
      })
  })

  test('an adjudicator’s adoption carries their name, whatever the body says', async () => {
    const team = await servedTeam()
    for (const reviewer of ['alice', 'bob']) {
      const ratings = CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=Fine.`])
      expect((await runCli(['review', 'fixtures/lab', '--case', CASE, '--reviewer', reviewer, ...ratings], team.root)).code).toBe(0)
    }
    const dana = team.tokens['dana']!
    const versions = await versionsOf(team, dana)
    const asCarol = await as(team, dana, '/api/adjudicate', 'POST', save({ adjudicator: 'carol' }, versions))
    expect(errorOf(asCarol)).toEqual({ code: 'IDENTITY_MISMATCH', message: "this link is dana's: a save through it is made as dana, never as carol." })
    const reviewing = await as(team, dana, '/api/review', 'POST', save({}, versions))
    expect(errorOf(reviewing).code).toBe('ROLE_NOT_PERMITTED')
    const adopted = await as(team, dana, '/api/adjudicate', 'POST', save({}, versions))
    expect(adopted.status).toBe(200)
    const adoptions = JSON.parse(await readFile(join(team.dir, 'adjudications.json'), 'utf8'))
    expect(adoptions.adoptions).toEqual([expect.objectContaining({ case_id: CASE, adjudicator: 'dana' })])
  })

  test('a link is revoked and reissued while the server runs; the others work throughout', async () => {
    const team = await servedTeam()
    const [alice, bob] = [team.tokens['alice']!, team.tokens['bob']!]
    expect((await as(team, alice, '/api/version')).status).toBe(200)

    const revoked = await runCli(['serve', '--team', 'team.json', '--revoke', 'alice'], team.root)
    expect(revoked).toMatchObject({ code: 0, stderr: '' })
    expect(errorOf(await as(team, alice, '/api/version')).code).toBe('BAD_TOKEN')
    expect((await as(team, bob, '/api/version')).status).toBe(200)

    const reissued = await runCli(['serve', '--team', 'team.json', '--reissue', 'alice'], team.root)
    expect(reissued.code).toBe(0)
    const link = /^alice \(reviewer\): (http:\/\/127\.0\.0\.1:\d+)\/\?token=([\w-]+)$/m.exec(reissued.stdout)
    expect(link?.[1]).toBe(`http://127.0.0.1:${team.server.port}`)
    const fresh = link![2]!
    expect(fresh).not.toBe(alice)
    expect((await as(team, fresh, '/api/version')).status).toBe(200)
    expect(errorOf(await as(team, alice, '/api/version')).code).toBe('BAD_TOKEN')
    expect((await as(team, bob, '/api/version')).status).toBe(200)

    const stranger = await runCli(['serve', '--team', 'team.json', '--revoke', 'mallory'], team.root)
    expect(stranger.code).toBe(2)
    expect(stranger.stderr).toContain('--revoke mallory: team.json has no person of that name (it has alice, bob, dana, rita).')
  })

  test('only hashes are on disk, outside the fixture; a restart keeps every link', async () => {
    const team = await servedTeam()
    const kept = join(team.root, '.vitest-rubric/team')
    const [file] = await readdir(kept)
    const stored = JSON.parse(await readFile(join(kept, file!), 'utf8'))
    expect(stored.people).toEqual(
      Object.fromEntries(Object.entries(team.tokens).map(([name, token]) => [name, { token_sha256: tokenHash(token), issued: expect.any(String) }])),
    )
    const entries = await readdir(team.root, { recursive: true, withFileTypes: true })
    const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
    expect(files.length).toBeGreaterThan(5)
    for (const path of files) {
      const text = await readFile(path, 'latin1')
      for (const [name, token] of Object.entries(team.tokens)) expect({ path, name, found: text.includes(token) }).toEqual({ path, name, found: false })
    }
    expect((await stat(kept)).isDirectory()).toBe(true)

    await team.server.close()
    const again = await servedTeam(team.root)
    expect(again.tokens).toEqual({})
    for (const token of Object.values(team.tokens)) expect((await as(again, token, '/api/version')).status).toBe(200)
  })
})

describe('the team file', () => {
  const teamError = async (text: string | undefined) => {
    const root = await scratchDir('team-file')
    if (text !== undefined) await writeFile(join(root, 'team.json'), text)
    return loadTeam('team.json', root).then(
      () => expect.unreachable('the team file was accepted'),
      (error: Error & { code: string }) => `${error.code}: ${error.message}`,
    )
  }

  test('a mistake is named by its file, its JSON path, what was expected and the fix', async () => {
    expect(await teamError('{ "people": [ { "name": "alice", "role": "reviewer" }, { "name": "bob", "role": "admin" } ] }')).toMatchInlineSnapshot(`
      "TEAM_INVALID: team.json › people[1] › role: the value is not one of those allowed.
        expected: one of "reviewer", "adjudicator", "reader"
        found:    "admin"
        fix:      write the team file as docs/review-page.md#reviewing-as-a-team shows: { "people": [ { "name": "alice", "role": "reviewer" } ] }, each name once."
    `)
    expect(await teamError('{ "people": [ { "name": "alice", "role": "reviewer" }, { "name": "alice", "role": "reader" } ] }')).toMatchInlineSnapshot(`
      "TEAM_INVALID: team.json › people[1] › name: the value breaks a rule of the format.
        expected: a name no other person of the team has
        found:    "alice"
        fix:      write the team file as docs/review-page.md#reviewing-as-a-team shows: { "people": [ { "name": "alice", "role": "reviewer" } ] }, each name once."
    `)
    expect(await teamError('{ "people": [ { "name": "../x", "role": "reader" } ] }')).toMatchInlineSnapshot(`
      "TEAM_INVALID: team.json › people[0] › name: the value is not in the required format.
        expected: a name of letters and digits, then also ".", "_", "-" (at most 64 characters)
        found:    "../x"
        fix:      write the team file as docs/review-page.md#reviewing-as-a-team shows: { "people": [ { "name": "alice", "role": "reviewer" } ] }, each name once."
    `)
    expect(await teamError('{ "people": [] }')).toMatchInlineSnapshot(`
      "TEAM_INVALID: team.json › people: the list is too short.
        expected: at least 1 item
        found:    []
        fix:      write the team file as docs/review-page.md#reviewing-as-a-team shows: { "people": [ { "name": "alice", "role": "reviewer" } ] }, each name once."
    `)
    expect(await teamError('{ "people": [ { "name": "alice", "role": "reader", } ] }')).toMatchInlineSnapshot(`
      "TEAM_INVALID: team.json: the file is not valid JSON (line 1, column 52).
        expected: a property name in double quotes
        found:    "} ] }"
        fix:      write the team file as docs/review-page.md#reviewing-as-a-team shows: { "people": [ { "name": "alice", "role": "reviewer" } ] }, each name once."
    `)
    expect(await teamError(undefined)).toMatchInlineSnapshot(`
      "TEAM_INVALID: team.json: the team file is missing.
        fix:      give --team the path of a team file; write the team file as docs/review-page.md#reviewing-as-a-team shows: { "people": [ { "name": "alice", "role": "reviewer" } ] }, each name once."
    `)
  })

  test('a file of token hashes that is not JSON, or not as written, stops --revoke, naming the file and the fix; nothing is changed', async () => {
    const team = await servedTeam()
    const folder = join(team.root, '.vitest-rubric/team')
    const name = (await readdir(folder)).find((each) => each.endsWith('.json') && !each.endsWith('.reservations.json'))!
    for (const [broken, said] of [
      ['{"version": 1, "people": {', `.vitest-rubric/team/${name}: the file of token hashes is not JSON.`],
      ['{"version": 1, "team": "team.json", "origin": null, "people": {"bob": {"token_sha256": "x"}}}', `.vitest-rubric/team/${name} › people › bob`],
    ] as const) {
      await writeFile(join(folder, name), broken)
      const run = await runCli(['serve', '--team', 'team.json', '--revoke', 'bob'], team.root)
      expect(run.code).not.toBe(0)
      expect(run.stderr).toContain(said)
      expect(run.stderr).toContain(`remove .vitest-rubric/team/${name} and start serve --team again`)
      expect(await readFile(join(folder, name), 'utf8')).toBe(broken)
    }
  })

  test('serve --team refuses to start on a mistake, naming it', async () => {
    const root = await scratchDir('team-file')
    await writeFile(join(root, 'team.json'), '{ "people": [ { "name": "bob", "role": "admin" } ] }')
    const run = await runCli(['serve', 'fixtures/lab', '--team', 'team.json', '--port', '0'], root)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('team.json › people[0] › role')
  })
})
