import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { withFixtureLock } from '../../src/core/json/fixture-lock.js'
import { kinds, loadFixture } from '../../src/core/registry.js'
import { LoadedFixtures } from '../../src/web/loaded-fixtures.js'
import { evaluateFixture, evaluateWithStates } from '../../src/core/engine/evaluate.js'
import { evaluationJson } from '../../src/core/engine/evaluation-json.js'
import { runCli } from '../helpers/cli.js'
import { postSave, raw, servedCopy } from '../helpers/served-fixture.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const judged = CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=Edited elsewhere.`])

/** The server's event stream, as a client reads it: every chunk, and when it ends. */
function openStream(port: number, path: string, headers: Record<string, string>) {
  let text = ''
  const waiting: { test: (text: string) => boolean; done: () => void }[] = []
  const opened = new Promise<{ status: number; ended: Promise<void> }>((resolve, reject) => {
    const call = request({ host: '127.0.0.1', port, path, headers }, (response) => {
      const ended = new Promise<void>((done) => response.on('close', done))
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8')
        for (const each of waiting.splice(0))
          if (each.test(text)) each.done()
          else waiting.push(each)
      })
      resolve({ status: response.statusCode ?? 0, ended })
    })
    call.on('error', reject)
    call.end()
  })
  const until = (test: (text: string) => boolean) => new Promise<void>((done) => (test(text) ? done() : waiting.push({ test, done })))
  return { opened, until, text: () => text }
}

describe('the served fixtures, kept loaded', () => {
  test('a save answers with its case, its row and its fixture’s figures, not the whole overview', async () => {
    const { server } = await servedCopy()
    const headers = { 'x-rubric-token': server.token }
    const shown = JSON.parse((await raw(server.port, '/api/case?fixture=0&id=not-reviewed', { headers })).body) as { versions: Record<string, string | null> }
    const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: 'Fine.', answer_span: '' }]))
    const saved = await postSave(server, { fixture: 0, id: 'not-reviewed', versions: shown.versions, replace: false, draft })
    expect(saved.status).toBe(200)
    const answer = JSON.parse(saved.body)
    expect(Object.keys(answer).sort()).toEqual(['case', 'decision', 'fixture'])
    // The sample's progress (none here), and no estimate or calibration: this save did not ask for them.
    expect(Object.keys(answer.fixture).sort()).toEqual(['agreement', 'coverage', 'index', 'row', 'sample', 'version'])
    expect(answer.fixture.sample).toBeNull()
    expect(answer.case.decision.status).toBe('accepted')
    const overview = JSON.parse((await raw(server.port, '/api/overview', { headers })).body)
    // What the save answered is what the overview now says.
    expect(overview.fixtures[0].cases.find((row: { id: string }) => row.id === 'not-reviewed')).toEqual(answer.fixture.row)
    expect(overview.fixtures[0].coverage).toEqual(answer.fixture.coverage)
    expect(overview.fixtures[0].version).toBe(answer.fixture.version)
  })

  test('in the records layout: a page save appends to its case’s bucket, an edit elsewhere is seen, and both decide as a full evaluation', async () => {
    const { root, dir, server } = await servedCopy({}, 'records')
    const headers = { 'x-rubric-token': server.token }
    const shown = JSON.parse((await raw(server.port, '/api/case?fixture=0&id=not-reviewed', { headers })).body) as { versions: Record<string, string | null> }
    const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: 'Fine.', answer_span: '' }]))
    const before = await readdir(join(dir, 'records'))
    const saved = await postSave(server, { fixture: 0, id: 'not-reviewed', versions: shown.versions, replace: false, draft })
    expect(saved.status, saved.body).toBe(200)
    expect(JSON.parse(saved.body).case.decision.status).toBe('accepted')
    expect(await readdir(join(dir, 'records'))).toEqual(before)
    expect(await readdir(dir)).not.toContain('annotations.json')
    // A review saved by the command line meanwhile: the page's overview follows it.
    expect(
      (await runCli(['review', 'fixtures/lab', '--case', 'complete', '--replace', ...judged.map((arg) => arg.replace('meets', 'does_not_meet'))], root)).code,
    ).toBe(0)
    const full = evaluationJson(evaluateFixture(await loadFixture(dir, { cwd: root })))
    const statuses = async () => {
      const rows = JSON.parse((await raw(server.port, '/api/overview', { headers })).body).fixtures[0].cases as { id: string; status: string }[]
      return Object.fromEntries(rows.map((row) => [row.id, row.status]))
    }
    const wanted = Object.fromEntries(Object.entries(full.decisions).map(([id, decision]) => [id, decision.status]))
    expect(wanted['complete']).toBe('rejected')
    await expect.poll(statuses).toEqual(wanted)
  })

  test('the event stream needs the token, tells which fixture changed and nothing else, and ends with the server', async () => {
    const { root, server } = await servedCopy()
    expect((await raw(server.port, '/api/events')).status).toBe(403)
    const stream = openStream(server.port, '/api/events', { 'x-rubric-token': server.token })
    const { status, ended } = await stream.opened
    expect(status).toBe(200)
    await stream.until((text) => text.startsWith('retry:'))
    // The page has read the fixture (a change is announced against what was read).
    expect((await raw(server.port, '/api/overview', { headers: { 'x-rubric-token': server.token } })).status).toBe(200)
    // An edit made outside the page, by the command line.
    expect((await runCli(['review', 'fixtures/lab', '--case', 'not-reviewed', ...judged], root)).code).toBe(0)
    await stream.until((text) => text.includes('event: changed'))
    expect(stream.text()).toBe('retry: 1000\n\nevent: changed\ndata: {"fixture":0}\n\n')
    await server.close()
    await ended
  })

  test('a file written again with the same bytes is not a change; other bytes are', async () => {
    const { root, dir } = await servedCopy()
    const fixtures = new LoadedFixtures({ kinds, dirs: [dir], cwd: root, evaluate: {}, onChange: () => {} })
    const first = await fixtures.current(0)
    const text = await readFile(join(dir, 'annotations.json'), 'utf8')
    await writeFile(join(dir, 'annotations.json'), text)
    expect(await fixtures.current(0)).toBe(first)
    await writeFile(join(dir, 'annotations.json'), text.replace('"origin": "', '"origin": "edited: '))
    const edited = await fixtures.current(0)
    expect(edited).not.toBe(first)
    expect(edited.version).not.toBe(first.version)
    expect(edited.fixture?.origin.startsWith('edited: ')).toBe(true)
    fixtures.close()
  })

  test('an edit of one review decides that case again and keeps every other decision, as a full evaluation decides them', async () => {
    const { root, dir } = await servedCopy()
    const fixtures = new LoadedFixtures({ kinds, dirs: [dir], cwd: root, evaluate: {}, onChange: () => {} })
    const first = await fixtures.current(0)
    if (first.error !== undefined) throw first.error
    expect((await runCli(['review', 'fixtures/lab', '--case', 'not-reviewed', ...judged], root)).code).toBe(0)
    const edited = await fixtures.current(0)
    if (edited.error !== undefined) throw edited.error
    const before = first.decided.evaluation.decisions
    const after = edited.decided.evaluation.decisions
    const position = after.findIndex((decision) => decision.id === 'not-reviewed')
    expect([before[position]?.status, after[position]?.status]).toEqual(['pending', 'accepted'])
    // Decided again: only the reviewed case; every other decision is the one kept.
    expect(after.filter((decision, index) => decision !== before[index]).map((decision) => decision.id)).toEqual(['not-reviewed'])
    expect(evaluationJson(edited.decided.evaluation)).toEqual(evaluationJson(evaluateFixture(await loadFixture(dir, { cwd: root }))))
    fixtures.close()
  })

  test("a reviewer's file deleted under the server is a change: the fixture is read again and decides as a full evaluation", async () => {
    const { root, dir } = await servedCopy()
    expect(
      (
        await runCli(
          ['review', 'fixtures/lab', '--case', 'complete', '--reviewer', 'bob', ...judged.map((arg) => arg.replace('=meets', '=does_not_meet'))],
          root,
        )
      ).code,
    ).toBe(0)
    const fixtures = new LoadedFixtures({ kinds, dirs: [dir], cwd: root, evaluate: {}, onChange: () => {} })
    const first = await fixtures.current(0)
    expect(first.fixture?.panel.reviewers).toEqual(['bob'])
    await rm(join(dir, 'reviews/bob.json'))
    const after = await fixtures.current(0)
    expect(after.version).not.toBe(first.version)
    expect(after.fixture?.panel.reviewers).toEqual([])
    if (after.error !== undefined) throw after.error
    expect(evaluationJson(after.decided.evaluation)).toEqual(evaluationJson(evaluateFixture(await loadFixture(dir, { cwd: root }))))
    fixtures.close()
  })

  test('a read begun before a change decides under a team’s rule the fixture it read, and a later read the changed one', async () => {
    const { root, dir } = await servedCopy()
    const fixtures = new LoadedFixtures({ kinds, dirs: [dir], cwd: root, evaluate: {}, onChange: () => {} })
    const first = await fixtures.current(0)
    if (first.error !== undefined) throw first.error
    const rule = { minReviews: 0 }
    const before = evaluateWithStates(await loadFixture(dir, { cwd: root, kind: 'criteria' }), { panel: rule, allStates: true }).evaluation.decisions
    expect((await runCli(['review', 'fixtures/lab', '--case', 'not-reviewed', ...judged], root)).code).toBe(0)
    const edited = await fixtures.current(0)
    if (edited.error !== undefined) throw edited.error
    const after = evaluateWithStates(await loadFixture(dir, { cwd: root, kind: 'criteria' }), { panel: rule, allStates: true }).evaluation.decisions
    const statusOf = (decisions: readonly { readonly id: string; readonly status: string }[]) => decisions.find(({ id }) => id === 'not-reviewed')?.status
    expect([statusOf(before), statusOf(after)]).toEqual(['pending', 'accepted'])
    // The earlier read's evaluation has moved on: it decides its own fixture afresh, not the kept evaluation's.
    expect(first.decidedUnder(rule).assessments.map((each) => each.decision)).toEqual(before)
    expect(edited.decidedUnder(rule).assessments.map((each) => each.decision)).toEqual(after)
    fixtures.close()
  })

  test('the page is answered while a save waits for the fixture’s lock, and sees the save once it is written', async () => {
    const { dir, server } = await servedCopy()
    const headers = { 'x-rubric-token': server.token }
    const shown = JSON.parse((await raw(server.port, '/api/case?fixture=0&id=not-reviewed', { headers })).body) as { versions: Record<string, string | null> }
    const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: 'Fine.', answer_span: '' }]))
    let release!: () => void
    const holding = new Promise<void>((resolve) => (release = resolve))
    let entered!: () => void
    const held = new Promise<void>((resolve) => (entered = resolve))
    // Another writer (a command line, say) holds the lock.
    const other = withFixtureLock(dir, async () => {
      entered()
      await holding
    })
    await held
    let saved = false
    const save = postSave(server, { fixture: 0, id: 'not-reviewed', versions: shown.versions, replace: false, draft }).then((answer) => {
      saved = true
      return answer
    })
    const during = await Promise.all([
      raw(server.port, '/api/case?fixture=0&id=complete', { headers }),
      raw(server.port, '/api/overview', { headers }),
      raw(server.port, '/api/version', { headers }),
    ])
    expect(during.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(saved).toBe(false)
    const before = JSON.parse(during[1]!.body)
    expect(before.fixtures[0].cases.find((row: { id: string }) => row.id === 'not-reviewed').status).toBe('pending')
    release()
    await other
    expect((await save).status).toBe(200)
    const after = JSON.parse((await raw(server.port, '/api/overview', { headers })).body)
    expect(after.fixtures[0].cases.find((row: { id: string }) => row.id === 'not-reviewed').status).toBe('accepted')
  })
})
