import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test, vi } from 'vitest'
import { cp } from 'node:fs/promises'
import { startServer } from '../../src/web/server.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { postSave, raw, servedCopy } from '../helpers/served-fixture.js'
import { scratchDir } from '../helpers/scratch.js'

// What the server answers to requests no page sends: each refused with a status and a one-line
// message, nothing written, and nothing printed to the server's terminal.

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

async function versionsOf(server: { port: number; token: string }, id: string): Promise<Record<string, string | null>> {
  const opened = await raw(server.port, `/api/case?fixture=0&id=${id}`, { headers: { 'x-rubric-token': server.token } })
  return (JSON.parse(opened.body) as { versions: Record<string, string | null> }).versions
}

function quietTerminal() {
  const printed = vi.spyOn(console, 'error').mockImplementation(() => {})
  return { printed, [Symbol.dispose]: () => printed.mockRestore() }
}

describe('requests the server refuses', () => {
  test('a path of two slashes is a 404, not a failure of the server', async () => {
    using terminal = quietTerminal()
    const { server } = await servedCopy()
    const answer = await raw(server.port, '//', { headers: { 'x-rubric-token': server.token } })
    expect(answer.status).toBe(404)
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'NOT_FOUND', message: 'no such page.' } })
    expect((await raw(server.port, '//api/overview', { headers: { 'x-rubric-token': server.token } })).status).toBe(404)
    expect(terminal.printed).not.toHaveBeenCalled()
  })

  test('a case or a comparison asked without a fixture number is a 400, never fixture 0', async () => {
    using terminal = quietTerminal()
    const { server } = await servedCopy()
    const headers = { 'x-rubric-token': server.token }
    for (const [path, message] of [
      ['/api/case?id=complete', 'fixture must be a fixture number.'],
      ['/api/case?fixture=&id=complete', 'fixture must be a fixture number.'],
      ['/api/case?fixture=%20&id=complete', 'fixture must be a fixture number.'],
      ['/api/compare?a=0', 'b must be a fixture number.'],
      ['/api/compare?a=&b=0', 'a must be a fixture number.'],
    ]) {
      const answer = await raw(server.port, path!, { headers })
      expect(answer.status, path).toBe(400)
      expect(JSON.parse(answer.body), path).toEqual({ error: { code: 'BAD_REQUEST', message } })
    }
    // Fixture 0 asked by its number is served.
    expect((await raw(server.port, '/api/case?fixture=0&id=complete', { headers })).status).toBe(200)
    expect(terminal.printed).not.toHaveBeenCalled()
  })

  test("a save of a scored case is refused in the API's terms: read-only there, no command-line option to send", async () => {
    using terminal = quietTerminal()
    const root = await scratchDir('served-scored')
    const dir = join(root, 'fixtures/deb')
    await cp(join(ROOT, 'fixtures/debate-benchmark'), dir, { recursive: true })
    const server = await startServer({ dirs: ['fixtures/deb'], cwd: root, port: 0 })
    onTestFinished(() => server.close())
    const before = await readFile(join(dir, 'annotations.json'), 'utf8')
    const answer = await postSave(server, { fixture: 0, id: 'partial-recall', draft: { claims: [] }, versions: {}, replace: true })
    expect(answer.status).toBe(400)
    const { code, message } = JSON.parse(answer.body).error
    expect(code).toBe('USAGE')
    expect(message).toContain("a save (POST /api/review) records a case's one review: its body has no field to say which")
    expect(message).toContain('read-only on the review page and through its API; nothing was written.')
    expect(message).toContain(
      "fix:      record this case's reviews from the command line instead: `vitest-rubric review fixtures/deb --case partial-recall --system debate --from <review.json>`",
    )
    expect(message).not.toContain('pass --system')
    expect(await readFile(join(dir, 'annotations.json'), 'utf8')).toBe(before)
    expect(terminal.printed).not.toHaveBeenCalled()
  })

  test('a method other than GET and POST is a 405 with a code of its own', async () => {
    using terminal = quietTerminal()
    const { server } = await servedCopy()
    const answer = await raw(server.port, '/api/review', { method: 'DELETE', headers: { 'x-rubric-token': server.token } })
    expect(answer.status).toBe(405)
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: 'the server answers only GET and POST, not DELETE.' } })
    expect(terminal.printed).not.toHaveBeenCalled()
  })

  test('a body nested 100,000 levels deep is refused with 400, and nothing is written', async () => {
    using terminal = quietTerminal()
    const { dir, server } = await servedCopy()
    const before = await readFile(join(dir, 'annotations.json'), 'utf8')
    const reason = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    const body = `{"fixture":0,"id":"not-reviewed","versions":{},"replace":false,"draft":{"command":{"rating":"meets","reason":${reason},"answer_span":""}}}`
    const answer = await postSave(server, body)
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body).error.message).toBe('the request body nests deeper than 64 levels.')
    expect(await readFile(join(dir, 'annotations.json'), 'utf8')).toBe(before)
    expect(terminal.printed).not.toHaveBeenCalled()
  })

  test('a body that is not valid UTF-8 is refused with 400, not stored with U+FFFD', async () => {
    const { dir, server } = await servedCopy()
    const before = await readFile(join(dir, 'annotations.json'), 'utf8')
    const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: 'REASON', answer_span: '' }]))
    const text = JSON.stringify({ fixture: 0, id: 'not-reviewed', versions: await versionsOf(server, 'not-reviewed'), replace: false, draft })
    const [head, ...rest] = text.split('REASON')
    // One reason holds a lone continuation byte and a truncated sequence.
    const body = Buffer.concat([Buffer.from(head!), Buffer.from([0x4f, 0x6b, 0x80, 0xe2, 0x82]), Buffer.from(rest.join('Fine.'))])
    const answer = await postSave(server, body)
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body).error.message).toBe('the request body is not valid UTF-8.')
    expect(await readFile(join(dir, 'annotations.json'), 'utf8')).toBe(before)
  })

  test('a draft naming a criterion "__proto__" is refused with a message naming it, not silently dropped', async () => {
    const { dir, server } = await servedCopy()
    const before = await readFile(join(dir, 'annotations.json'), 'utf8')
    const draft = `{"command":{"rating":"meets","reason":"Fine.","answer_span":""},"__proto__":{"rating":"does_not_meet","reason":"Hidden.","answer_span":""}}`
    const body = `{"fixture":0,"id":"not-reviewed","versions":${JSON.stringify(await versionsOf(server, 'not-reviewed'))},"replace":false,"draft":${draft}}`
    const answer = await postSave(server, body)
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body).error.message).toBe('the request body holds the key "__proto__" (at draft), which no fixture file may hold.')
    expect(await readFile(join(dir, 'annotations.json'), 'utf8')).toBe(before)
  })

  test('an empty draft is never saved: a review, an independent review or an adoption', async () => {
    const { dir, server } = await servedCopy()
    const before = await readFile(join(dir, 'annotations.json'), 'utf8')
    const versions = await versionsOf(server, 'not-reviewed')
    for (const [path, extra] of [
      ['/api/review', {}],
      ['/api/review', { reviewer: 'alice' }],
      ['/api/adjudicate', { adjudicator: 'carol' }],
    ] as const) {
      const answer = await postSave(server, { fixture: 0, id: 'not-reviewed', versions, replace: false, draft: {}, ...extra }, path)
      expect(answer.status).toBe(400)
      expect(JSON.parse(answer.body).error.message).toBe('the draft judges no criterion: there is nothing to save. Rate at least one criterion.')
    }
    expect(await readFile(join(dir, 'annotations.json'), 'utf8')).toBe(before)
    expect((await raw(server.port, '/api/overview', { headers: { 'x-rubric-token': server.token } })).body).not.toContain('alice')
  })
})
