import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { AssignmentsAnswer, NextAnswer } from '../../src/web/assignment-protocol.js'
import type { ServeOptions } from '../../src/web/server.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'
import { raw, servedCopy, type RawResponse } from '../helpers/served-fixture.js'
import { servedTeam, TEAM, type ServedTeam } from '../helpers/served-team.js'

// `serve --team` hands each reviewer their next case and reserves it: raw HTTP, as the page sends it.

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

/** The test team with a third reviewer, carol. */
async function team3(assign: ServeOptions['assign']): Promise<ServedTeam> {
  const root = await scratchDir('assign')
  await cp(DOCUCTL, join(root, 'fixtures/lab'), { recursive: true })
  await writeFile(join(root, 'team.json'), JSON.stringify({ people: [...TEAM, { name: 'carol', role: 'reviewer' }] }))
  return servedTeam(root, assign === undefined ? {} : { assign })
}

function as(team: ServedTeam, name: string, path: string, body?: unknown): Promise<RawResponse> {
  const headers: Record<string, string> = { 'x-rubric-token': team.tokens[name]! }
  if (body === undefined) return raw(team.server.port, path, { headers })
  return raw(team.server.port, path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

async function next(team: ServedTeam, name: string): Promise<NonNullable<NextAnswer['next']>> {
  const answer = await as(team, name, '/api/next?fixture=0')
  expect(answer.status).toBe(200)
  const { next } = JSON.parse(answer.body) as NextAnswer
  expect(next).not.toBeNull()
  return next!
}

async function review(team: ServedTeam, name: string, id: string, reason = 'Checked.'): Promise<void> {
  const { versions } = JSON.parse((await as(team, name, `/api/case?fixture=0&id=${id}`)).body) as { versions: Record<string, string | null> }
  const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason, answer_span: '' }]))
  const saved = await as(team, name, '/api/review', { fixture: 0, id, versions, replace: false, draft })
  expect(saved.status, saved.body).toBe(200)
}

const progress = async (team: ServedTeam) => JSON.parse((await as(team, 'rita', '/api/assignments')).body) as AssignmentsAnswer

describe('serve --team: assignment', () => {
  test('two reviewers asking at once never get the same case when each case needs one review', async () => {
    const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1 } })
    const [alice, bob] = await Promise.all([next(team, 'alice'), next(team, 'bob')])
    expect(alice.id).not.toBe(bob.id)
    expect(alice.reason).toMatch(/^(sampled|disagreement|stale|unreviewed)$/)
    expect(alice.detail).toContain('not reviewed by alice')
  })

  test('a case that needs two reviews is handed to two reviewers, not a third', async () => {
    const team = await team3({ reviewsPerCase: 2 })
    const alice = await next(team, 'alice')
    const bob = await next(team, 'bob')
    const carol = await next(team, 'carol')
    expect(bob.id).toBe(alice.id)
    expect(carol.id).not.toBe(alice.id)
    expect((await progress(team)).fixtures[0]).toMatchObject({ reserved: 2 })
  })

  test('asking again hands the reviewer the case they hold', async () => {
    const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1 } })
    const first = await next(team, 'alice')
    expect((await next(team, 'alice')).id).toBe(first.id)
  })

  test('a save releases the reservation and counts as a review; the reviewer is never handed the case again', async () => {
    const team = await team3({ reviewsPerCase: 1 })
    const alice = await next(team, 'alice')
    await review(team, 'alice', alice.id)
    expect((await next(team, 'bob')).id).not.toBe(alice.id)
    expect((await next(team, 'alice')).id).not.toBe(alice.id)
    const after = await progress(team)
    expect(after.people.find((person) => person.name === 'alice')).toEqual({ name: 'alice', reviews: 1, reservations: 1 })
    expect(after.fixtures[0]).toMatchObject({ index: 0, complete: 1 })
  })

  test('a reviewer who reviewed a case is not handed it even while it needs more reviews', async () => {
    const team = await team3({ reviewsPerCase: 2 })
    const alice = await next(team, 'alice')
    await review(team, 'alice', alice.id)
    // The case still wants a second review: bob is handed it, alice is not.
    expect((await next(team, 'bob')).id).toBe(alice.id)
    expect((await next(team, 'alice')).id).not.toBe(alice.id)
  })

  test("a reviewer's own review gone stale is handed back to them first, though the case has the reviews it needs", async () => {
    const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1 } })
    const draft = CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=Checked.`])
    for (const id of ['complete', 'paraphrase'])
      expect((await runCli(['review', 'fixtures/lab', '--case', id, '--reviewer', 'alice', ...draft], team.root)).code).toBe(0)
    // The answer of complete changes: her review of it no longer describes it.
    const path = join(team.dir, 'cases.json')
    const cases = JSON.parse(await readFile(path, 'utf8')) as { cases: { id: string; input: { answer: { text: string } } }[] }
    cases.cases.find((each) => each.id === 'complete')!.input.answer.text += ' It also restarts the cache.'
    await writeFile(path, `${JSON.stringify(cases, null, 2)}\n`)
    // Her overview flags it as stale, as the stale-binding filter finds it; her other review is not.
    const rows = (JSON.parse((await as(team, 'alice', '/api/overview')).body) as { fixtures: { cases: { id: string; stale: boolean }[] }[] }).fixtures[0]!.cases
    expect(rows.filter((row) => row.stale).map((row) => row.id)).toEqual(['complete'])
    const handed = await next(team, 'alice')
    expect(handed).toMatchObject({ id: 'complete', reason: 'stale' })
    expect(handed.detail).toContain('your review')
    // Asking again keeps it; bob is not handed it, her review holds its place.
    expect((await next(team, 'alice')).id).toBe('complete')
    expect((await next(team, 'bob')).id).not.toBe('complete')
  })

  test('a reviewer whose review is in counts once, though their reservation is not released yet', async () => {
    const team = await team3({ reviewsPerCase: 2 })
    const alice = await next(team, 'alice')
    // Her review lands while her reservation is still held (a save just before its release, or the command line).
    const draft = CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=Checked.`])
    const saved = await runCli(['review', 'fixtures/lab', '--case', alice.id, '--reviewer', 'alice', ...draft], team.root)
    expect(saved.code, saved.stderr).toBe(0)
    expect((await next(team, 'bob')).id).toBe(alice.id)
  })

  test('a reservation expires: the case is handed to the next reviewer who asks', async () => {
    let now = 1_000_000
    const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1, reserveMs: 60_000, now: () => now } })
    const alice = await next(team, 'alice')
    expect(alice.expires).toBe(new Date(now + 60_000).toISOString())
    expect((await next(team, 'bob')).id).not.toBe(alice.id)
    await as(team, 'bob', '/api/release', { fixture: 0, id: (await next(team, 'bob')).id })
    now += 60_000
    expect((await next(team, 'bob')).id).toBe(alice.id)
  })

  test('a skip releases the reservation: the case goes to another reviewer, and the skipper is handed another', async () => {
    const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1 } })
    const alice = await next(team, 'alice')
    const skipped = await as(team, 'alice', '/api/release', { fixture: 0, id: alice.id })
    expect(JSON.parse(skipped.body)).toEqual({ released: true })
    expect((await next(team, 'alice')).id).not.toBe(alice.id)
    expect((await next(team, 'bob')).id).toBe(alice.id)
    expect(JSON.parse((await as(team, 'alice', '/api/release', { fixture: 0, id: alice.id })).body)).toEqual({ released: false })
  })

  test("the answer is blind: it carries nothing of another reviewer's review", async () => {
    const team = await team3({ reviewsPerCase: 2 })
    const bob = await next(team, 'bob')
    await review(team, 'bob', bob.id, 'Bob-only reason text.')
    const answer = await as(team, 'alice', '/api/next?fixture=0')
    const { next: handed } = JSON.parse(answer.body) as NextAnswer
    expect(handed?.id).toBe(bob.id)
    expect(Object.keys(handed!).sort()).toEqual(['detail', 'expires', 'fixture', 'id', 'reason'])
    expect(answer.body).not.toMatch(/bob|meets|Bob-only/i)
  })

  test('an adjudicator and a reader are handed no case (403); both read the progress', async () => {
    const team = await servedTeam()
    for (const name of ['dana', 'rita']) {
      const answer = await as(team, name, '/api/next?fixture=0')
      expect({ name, status: answer.status, code: JSON.parse(answer.body).error.code }).toEqual({ name, status: 403, code: 'ROLE_NOT_PERMITTED' })
      const role = name === 'dana' ? 'an adjudicator' : 'a reader'
      expect(JSON.parse(answer.body).error.message).toBe(`${name} is ${role}: only a reviewer is handed cases to review.`)
      const skip = await as(team, name, '/api/release', { fixture: 0, id: 'not-reviewed' })
      expect(skip.status).toBe(403)
      expect(JSON.parse(skip.body).error.message).toBe(`${name} is ${role}: only a reviewer holds cases to release.`)
      const shown = JSON.parse((await as(team, name, '/api/assignments')).body) as AssignmentsAnswer
      expect(shown).toMatchObject({ reviewsPerCase: 2, reserveMinutes: 30 })
      expect(shown.people.map((person) => person.name)).toEqual(['alice', 'bob'])
    }
  })

  test('the single-person page reserves nothing: its next is the review queue’s, with no end to a reservation', async () => {
    const served = await servedCopy()
    const answer = await raw(served.server.port, '/api/next?fixture=0', { headers: { 'x-rubric-token': served.server.token } })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({ next: { fixture: 0, id: 'not-reviewed', reason: 'unreviewed', detail: 'no review', expires: null, queued: 2 } })
    const released = await raw(served.server.port, '/api/release', {
      method: 'POST',
      headers: { 'x-rubric-token': served.server.token, 'content-type': 'application/json' },
      body: JSON.stringify({ fixture: 0, id: 'not-reviewed' }),
    })
    expect(released.status).toBe(404)
  })
})
