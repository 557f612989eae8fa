import { execFileSync } from 'node:child_process'
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { announceTeam, openTeam } from '../../src/cli/commands/serve-team.js'
import { startServer, type RunningServer } from '../../src/web/server.js'
import { auditLogPath } from '../../src/web/audit-log.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { convertFixture, type FixtureLayout } from '../../src/core/engine/convert-layout.js'
import { kinds } from '../../src/core/registry.js'
import { postSave, raw, servedCopy, type RawResponse } from '../helpers/served-fixture.js'
import { TEAM } from '../helpers/served-team.js'
import type { Person } from '../../src/web/team.js'
import { scratchDir } from '../helpers/scratch.js'

// `serve --commit`: each accepted save is one git commit of the files it wrote, by the person who
// saved; without it, one line of the fixture's audit log. Raw HTTP, as any script could send it.

const CASE = 'not-reviewed'
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' })
}

/** A scratch project holding fixtures/lab and team.json, committed to a git repository of its own. */
async function repository(layout: FixtureLayout = 'seed', people: readonly Person[] = TEAM): Promise<string> {
  const root = await scratchDir('commit')
  await cp(DOCUCTL, join(root, 'fixtures/lab'), { recursive: true })
  if (layout === 'records') await convertFixture(join(root, 'fixtures/lab'), 'records', { cwd: root, kinds })
  await writeFile(join(root, 'team.json'), `${JSON.stringify({ people }, null, 2)}\n`)
  await writeFile(join(root, '.gitignore'), '.rubric.lock*\n.vitest-rubric/\n')
  git(root, 'init', '--quiet', '--initial-branch=main')
  git(root, 'config', 'user.name', 'Host')
  git(root, 'config', 'user.email', 'host@example.org')
  git(root, 'add', '.')
  git(root, 'commit', '--quiet', '-m', 'the fixture')
  return root
}

async function serveTeam(root: string): Promise<{ server: RunningServer; tokens: Record<string, string> }> {
  const { team, tokens } = await openTeam('team.json', root)
  const server = await startServer({ dirs: ['fixtures/lab'], cwd: root, port: 0, team: tokens, commit: true })
  onTestFinished(() => server.close())
  const links = await announceTeam(team, server, root, { cwd: root, stdout: () => undefined, stderr: () => undefined })
  return { server, tokens: Object.fromEntries(links.flatMap((link) => (link.state === 'issued' ? [[link.name, link.token]] : []))) }
}

function save(extra: Record<string, unknown>, versions: Record<string, string | null>, reason = 'Checked.'): string {
  const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason, answer_span: '' }]))
  return JSON.stringify({ fixture: 0, id: CASE, versions, replace: false, draft, ...extra })
}

function as(server: RunningServer, token: string, path: string, body?: string): Promise<RawResponse> {
  const headers: Record<string, string> = { 'x-rubric-token': token }
  if (body !== undefined) headers['content-type'] = 'application/json'
  return raw(server.port, path, { method: body === undefined ? 'GET' : 'POST', headers, ...(body === undefined ? {} : { body }) })
}

async function versionsOf(server: RunningServer, token: string): Promise<Record<string, string | null>> {
  return JSON.parse((await as(server, token, `/api/case?fixture=0&id=${CASE}`)).body).versions
}

/** The versions a reviewer's page reads, from a server of one token. */
async function singleVersions(server: RunningServer, reviewer: string): Promise<Record<string, string | null>> {
  const path = `/api/case?fixture=0&id=${CASE}&viewer=reviewer:${reviewer}`
  return JSON.parse((await raw(server.port, path, { headers: { 'x-rubric-token': server.token } })).body).versions
}

/** The last commit: its author, subject and the files it changed. */
function lastCommit(root: string): { author: string; subject: string; files: string[] } {
  const [author, subject] = git(root, 'log', '-1', '--format=%an <%ae>%n%s').trim().split('\n')
  const files = git(root, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n')
  return { author: author!, subject: subject!, files }
}

/** Every file of a folder, with its bytes. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile())
  return Object.fromEntries(
    await Promise.all(names.map(async (entry) => [join(entry.parentPath, entry.name), await readFile(join(entry.parentPath, entry.name), 'utf8')] as const)),
  )
}

describe('serve --commit: every save a commit', () => {
  test('a review is one commit of the file it wrote, by its reviewer; what the user staged stays staged and out of it', async () => {
    const root = await repository()
    await writeFile(join(root, 'notes.txt'), 'staged by the user\n')
    git(root, 'add', 'notes.txt')
    const { server, tokens } = await serveTeam(root)
    const alice = tokens['alice']!
    const answer = await as(server, alice, '/api/review', save({}, await versionsOf(server, alice)))
    expect(answer.status).toBe(200)
    expect(lastCommit(root)).toEqual({
      author: 'alice <alice@vitest-rubric.invalid>',
      subject: `review: fixtures/lab case ${CASE} by alice (new)`,
      files: ['fixtures/lab/reviews/alice.json'],
    })
    expect(git(root, 'rev-list', '--count', 'HEAD').trim()).toBe('2')
    // An independent review decides nothing until it is adopted: the message says what it alone would decide, as `review` does.
    expect(git(root, 'log', '-1', '--format=%b')).toBe(
      'decision: none yet; an independent review, which alone would decide accepted\n\n  fixtures/lab/reviews/alice.json\n\n',
    )
    // The user's staged file is still staged, and the fixture has nothing left to commit.
    expect(git(root, 'status', '--porcelain')).toBe('A  notes.txt\n')
  })

  test('a revised review is a commit saying so; in the records layout, a commit of the bucket file the save appended to', async () => {
    const root = await repository('records')
    const { server, tokens } = await serveTeam(root)
    const alice = tokens['alice']!
    expect((await as(server, alice, '/api/review', save({}, await versionsOf(server, alice)))).status).toBe(200)
    const first = lastCommit(root)
    expect(first.subject).toBe(`review: fixtures/lab case ${CASE} by alice (new)`)
    // The case's bucket, and the documents, which gain alice's file of reviews.
    const bucket = expect.stringMatching(/^fixtures\/lab\/records\/[0-9a-f]+\.jsonl$/)
    expect(first.files).toEqual([bucket, 'fixtures/lab/records/documents.jsonl'])
    const revised = JSON.stringify({ ...JSON.parse(save({}, await versionsOf(server, alice), 'Checked again.')), replace: true })
    expect((await as(server, alice, '/api/review', revised)).status).toBe(200)
    expect(lastCommit(root)).toEqual({
      author: 'alice <alice@vitest-rubric.invalid>',
      subject: `review: fixtures/lab case ${CASE} by alice (replaced)`,
      files: [first.files[0]!],
    })
    expect(git(root, 'status', '--porcelain')).toBe('')
  })

  // The save and the review left uncommitted share a file: alice's file of reviews in the seed layout, the case's bucket in the records layout.
  test.each([
    ['seed', 'complete', 'alice'],
    ['records', CASE, 'bob'],
  ] as const)(
    'in the %s layout, a save to a file holding changes no commit has is refused, and nothing is written or committed',
    async (layout, orphanCase, saver) => {
      const root = await repository(layout)
      // alice's review lands, and is never committed: as a server killed between a save's write and its commit leaves it.
      const ratings = CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=ORPHAN.`])
      expect((await runCli(['review', 'fixtures/lab', '--case', orphanCase, '--reviewer', 'alice', ...ratings], root)).code).toBe(0)
      const orphan = git(root, 'status', '--porcelain', '--untracked-files=all')
      expect(orphan).not.toBe('')
      const head = git(root, 'rev-parse', 'HEAD')
      const files = await snapshot(join(root, 'fixtures/lab'))
      const { server, tokens } = await serveTeam(root)
      const token = tokens[saver]!
      const refused = await as(server, token, '/api/review', save({}, await versionsOf(server, token)))
      expect(refused.status).toBe(409)
      const { error } = JSON.parse(refused.body) as { error: { code: string; message: string } }
      expect(error.code).toBe('COMMIT_UNCLEAN')
      expect(error.message).toMatch(
        /^fixtures\/lab\/(reviews\/alice\.json|records\/\w+\.jsonl): the save of case "not-reviewed" was not kept: .* changes no commit has/,
      )
      expect(error.message).toContain('git status')
      // No commit, and every file as it was: the orphan is still the user's to commit or discard.
      expect(git(root, 'rev-parse', 'HEAD')).toBe(head)
      expect(await snapshot(join(root, 'fixtures/lab'))).toEqual(files)
      // Once it is committed, the save goes through, a commit of its own.
      git(root, 'add', 'fixtures/lab')
      git(root, 'commit', '--quiet', '-m', 'the review saved before the crash')
      expect((await as(server, token, '/api/review', save({}, await versionsOf(server, token)))).status).toBe(200)
      expect(lastCommit(root).subject).toBe(`review: fixtures/lab case ${CASE} by ${saver} (new)`)
      const added = git(root, 'show', '--format=', '--unified=0', 'HEAD')
        .split('\n')
        .filter((line) => line.startsWith('+') && !line.startsWith('+++'))
      expect(added.length).toBeGreaterThan(0)
      expect(added.filter((line) => line.includes('ORPHAN'))).toEqual([])
    },
  )

  test("an adoption is one commit by its adjudicator, after each reviewer's own; an email in the team file is the author's", async () => {
    const people = TEAM.map((person) => (person.name === 'dana' ? { ...person, email: 'dana@example.org' } : person))
    const root = await repository('seed', people)
    const { server, tokens } = await serveTeam(root)
    for (const name of ['alice', 'bob']) {
      const answer = await as(server, tokens[name]!, '/api/review', save({}, await versionsOf(server, tokens[name]!)))
      expect(answer.status).toBe(200)
    }
    const dana = tokens['dana']!
    const adopted = await as(server, dana, '/api/adjudicate', save({}, await versionsOf(server, dana)))
    expect(adopted.status).toBe(200)
    const commit = lastCommit(root)
    expect({ author: commit.author, subject: commit.subject }).toEqual({
      author: 'dana <dana@example.org>',
      subject: `adjudicate: fixtures/lab case ${CASE} by dana (adopted)`,
    })
    expect(commit.files).toContain('fixtures/lab/adjudications.json')
    expect(git(root, 'log', '--format=%an', '-3').trim().split('\n')).toEqual(['dana', 'bob', 'alice'])
    expect(git(root, 'status', '--porcelain')).toBe('')
  })

  // In the seed layout the reviewer's file is new, and is removed; in the records layout the save appends to a bucket file
  // that existed, which is put back byte for byte from what the save kept of it.
  test.for(['seed', 'records'] as const)(
    'a commit that fails is an error, the save is not kept, and the files are as they were (%s layout)',
    async (layout) => {
      const root = await repository(layout)
      const { server, tokens } = await serveTeam(root)
      const alice = tokens['alice']!
      const versions = await versionsOf(server, alice)
      const before = await snapshot(join(root, 'fixtures/lab'))
      // Another git command at work: git refuses to commit while its index is locked.
      await writeFile(join(root, '.git/index.lock'), '')
      const refused = await as(server, alice, '/api/review', save({}, versions))
      expect(refused.status).toBe(500)
      const error = JSON.parse(refused.body).error
      expect(error.code).toBe('COMMIT_FAILED')
      expect(error.message).toContain(`the save of case "${CASE}" could not be committed`)
      expect(error.message).toContain('index.lock')
      expect(await snapshot(join(root, 'fixtures/lab'))).toEqual(before)
      expect((await readdir(join(root, 'fixtures/lab'))).filter((name) => name.startsWith('.rubric.lock'))).toEqual([])
      expect(git(root, 'rev-list', '--count', 'HEAD').trim()).toBe('1')

      await rm(join(root, '.git/index.lock'))
      expect(git(root, 'status', '--porcelain')).toBe('')
      const saved = await as(server, alice, '/api/review', save({}, versions))
      expect(saved.status).toBe(200)
      // The bucket file the save appended to (and, for a reviewer new to the fixture, documents.jsonl, which names their file).
      if (layout === 'seed') expect(lastCommit(root).files).toEqual(['fixtures/lab/reviews/alice.json'])
      else expect(lastCommit(root).files).toContainEqual(expect.stringMatching(/^fixtures\/lab\/records\/[0-9a-f]+\.jsonl$/))
    },
  )

  test('a save while HEAD is detached (on no branch) is refused, not committed where a checkout would leave it behind; on a branch again, it is committed', async () => {
    const root = await repository('records')
    git(root, 'commit', '--quiet', '--allow-empty', '-m', 'a second commit')
    const { server, tokens } = await serveTeam(root)
    const bob = tokens['bob']!
    const versions = await versionsOf(server, bob)
    const before = await snapshot(join(root, 'fixtures/lab'))
    // The lead looks at an older commit while the server runs (or a rebase stops to edit one).
    git(root, 'checkout', '--quiet', '--detach', 'HEAD~1')
    const refused = await as(server, bob, '/api/review', save({}, versions))
    expect(refused.status).toBe(500)
    expect(JSON.parse(refused.body).error).toMatchObject({
      code: 'COMMIT_FAILED',
      message: expect.stringContaining(
        `the save of case "${CASE}" could not be committed (HEAD is detached: git is on no branch, so the commit would be left behind by the next checkout of a branch); it was not kept: the files are as they were.`,
      ),
    })
    expect(JSON.parse(refused.body).error.message).toContain(
      'fix:      check out a branch (git switch <branch>; finish or abort a rebase in progress), then save again.',
    )
    expect(await snapshot(join(root, 'fixtures/lab'))).toEqual(before)
    expect(git(root, 'log', '--all', '--format=%s')).not.toContain('by bob')

    git(root, 'switch', '--quiet', 'main')
    expect((await as(server, bob, '/api/review', save({}, versions))).status).toBe(200)
    expect(git(root, 'log', '-1', '--format=%s', 'main').trim()).toBe(`review: fixtures/lab case ${CASE} by bob (new)`)
  })

  test('serve --commit refuses to start on fixtures outside a git work tree', async () => {
    const root = await scratchDir('no-repo')
    await cp(DOCUCTL, join(root, 'fixtures/lab'), { recursive: true })
    await expect(startServer({ dirs: ['fixtures/lab'], cwd: root, port: 0, commit: true })).rejects.toMatchObject({
      code: 'COMMIT_FAILED',
      message: expect.stringContaining('fixtures/lab: serve --commit cannot commit the saves of this fixture: fatal: not a git repository'),
    })
    const run = await runCli(['serve', 'fixtures/lab', '--commit', '--port', '0'], root)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('fixtures/lab: serve --commit cannot commit the saves of this fixture: fatal: not a git repository')
  })

  test('saves made at once each give one commit by their author, and none is lost', async () => {
    const root = await repository()
    const server = await startServer({ dirs: ['fixtures/lab'], cwd: root, port: 0, commit: true })
    onTestFinished(() => server.close())
    const names = ['ann', 'ben', 'cat', 'dan', 'eve']
    const bodies: unknown[] = []
    for (const reviewer of names) bodies.push(JSON.parse(save({ reviewer }, await singleVersions(server, reviewer))))
    const answers = await Promise.all(bodies.map((body) => postSave(server, body)))
    expect(
      answers.map((answer) => answer.status),
      answers[0]!.body,
    ).toEqual(names.map(() => 200))
    expect(git(root, 'log', '--format=%an', `-${names.length}`).trim().split('\n').sort()).toEqual(names)
    for (const name of names) expect(git(root, 'log', '-1', '--format=%an', '--', `fixtures/lab/reviews/${name}.json`).trim()).toBe(name)
    expect(git(root, 'rev-list', '--count', 'HEAD').trim()).toBe(String(names.length + 1))
    expect(git(root, 'status', '--porcelain')).toBe('')
  })
})

describe('serve without --commit: the audit log', () => {
  test('each accepted save is one line: when, who, the fixture, the case, what it did and the files', async () => {
    const { root, dir, server } = await servedCopy()
    expect((await postSave(server, JSON.parse(save({ reviewer: 'alice' }, await singleVersions(server, 'alice'))))).status).toBe(200)
    const lines = (await readFile(auditLogPath(root, dir), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
    expect(lines).toEqual([
      {
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        person: 'alice',
        role: null,
        fixture: 'fixtures/lab',
        case: CASE,
        action: 'review',
        change: 'new',
        decision: expect.any(String),
        files: ['fixtures/lab/reviews/alice.json'],
      },
    ])
    expect(auditLogPath(root, dir)).toMatch(/\.vitest-rubric\/audit\/[0-9a-f]{16}\.jsonl$/)
  })

  test('a link planted in place of the log is refused, not written through, and the save is not kept', async () => {
    const { root, dir, server } = await servedCopy()
    const elsewhere = join(root, 'elsewhere.txt')
    await writeFile(elsewhere, 'not the log\n')
    await mkdir(dirname(auditLogPath(root, dir)), { recursive: true })
    await symlink(elsewhere, auditLogPath(root, dir))
    const before = await snapshot(dir)
    const refused = await postSave(server, JSON.parse(save({ reviewer: 'alice' }, await singleVersions(server, 'alice'))))
    expect(refused.status).toBe(500)
    expect(JSON.parse(refused.body).error.code).toBe('AUDIT_FAILED')
    expect(await readFile(elsewhere, 'utf8')).toBe('not the log\n')
    expect(await snapshot(dir)).toEqual(before)
  })
})
