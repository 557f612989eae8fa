import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { fixtureRoot, serve } from '../helpers/page-browser.js'
import { postSave, raw, servedCopy } from '../helpers/served-fixture.js'

// Hostile JSON beside healthy fixtures, and in what a page saves: refused where it is, never a
// failure of the whole page, and nothing written.

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const draft = () => Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: `Judged ${criterion}.`, answer_span: '' }]))

/** The versions of a case's entries as `viewer` reads it: what a save made from that read names. */
async function versionsOf(server: { port: number; token: string }, id: string, viewer = 'reader'): Promise<Record<string, string | null>> {
  const opened = await raw(server.port, `/api/case?fixture=0&id=${id}&viewer=${viewer}`, { headers: { 'x-rubric-token': server.token } })
  expect(opened.status).toBe(200)
  return (JSON.parse(opened.body) as { versions: Record<string, string | null> }).versions
}

interface OverviewFixture {
  readonly index: number
  readonly dir: string
  readonly refused?: string
  readonly cases?: readonly { readonly id: string }[]
}

describe('a served fixture whose reviewer file nests arrays 10,000 deep', () => {
  test('only that fixture is refused, with the file and the JSON path; the healthy one beside it is served and takes a save', async () => {
    const root = await fixtureRoot('served-hostile', { 'fixtures/healthy': DOCUCTL, 'fixtures/hostile': DOCUCTL })
    await mkdir(join(root, 'fixtures/hostile/reviews'))
    await writeFile(join(root, 'fixtures/hostile/reviews/mallory.json'), `${'['.repeat(10_000)}${']'.repeat(10_000)}`)
    const server = await serve(root, ['fixtures/healthy', 'fixtures/hostile'])
    const headers = { 'x-rubric-token': server.token }

    const overview = await raw(server.port, '/api/overview', { headers })
    expect(overview.status).toBe(200)
    const [healthy, hostile] = (JSON.parse(overview.body) as { fixtures: OverviewFixture[] }).fixtures
    expect(healthy!.refused).toBeUndefined()
    expect(healthy!.cases?.map((each) => each.id)).toContain('not-reviewed')
    expect(hostile!.refused).toMatchInlineSnapshot(`
      "fixtures/hostile/reviews/mallory.json › [0][0][0][0][0][0][0][0]: the JSON nests deeper than 64 levels of arrays and objects below this path.
        expected: at most 64 levels: the format's files nest fewer than 10
        found:    level 65 opening at line 1, column 65
        fix:      no file the package reads nests so deep: restore the file from version control, or write it again as docs/format.md describes."
    `)

    const versions = await versionsOf(server, 'not-reviewed', 'reviewer:alice')
    const saved = await postSave(server, { fixture: 0, id: 'not-reviewed', versions, replace: false, draft: draft(), reviewer: 'alice' })
    expect(saved.status).toBe(200)
    expect(JSON.parse(await readFile(join(root, 'fixtures/healthy/reviews/alice.json'), 'utf8')).reviews[0].answer_id).toBe('not-reviewed')
    // The refused fixture is refused again on its own, by its own requests.
    const refusedCase = await raw(server.port, '/api/case?fixture=1&id=not-reviewed', { headers })
    expect(refusedCase.status).toBe(422)
    expect(JSON.parse(refusedCase.body).error.code).toBe('JSON_TOO_DEEP')
  })
})

describe('a save whose body says two things, or holds a lone surrogate', () => {
  test('a rating given twice in one judgement is refused with 400, naming the key, and nothing is written', async () => {
    const { dir, server } = await servedCopy()
    const before = await readFile(join(dir, 'annotations.json'), 'utf8')
    const versions = await versionsOf(server, 'not-reviewed')
    const body = JSON.stringify({ fixture: 0, id: 'not-reviewed', versions, replace: false, draft: draft() }).replace(
      '{"rating":"meets"',
      '{"rating":"does_not_meet","rating":"meets"',
    )
    const answer = await postSave(server, body)
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body).error).toEqual({
      code: 'BAD_REQUEST',
      message: 'the request body holds the key "rating" twice in one object (at draft.command).',
    })
    expect(await readFile(join(dir, 'annotations.json'), 'utf8')).toBe(before)
  })

  test('a reason holding a lone surrogate is refused at its path, for a review, an independent review and an adjudication', async () => {
    const { dir, server } = await servedCopy()
    const before = await readFile(join(dir, 'annotations.json'), 'utf8')
    const cut = (text: string) => text.replace('"Judged command."', '"Judged command \\ud83d"')
    for (const [viewer, extra] of [
      ['reader', {}],
      ['reviewer:alice', { reviewer: 'alice' }],
    ] as const) {
      const versions = await versionsOf(server, 'not-reviewed', viewer)
      const answer = await postSave(server, cut(JSON.stringify({ fixture: 0, id: 'not-reviewed', versions, replace: false, draft: draft(), ...extra })))
      expect(answer.status).toBe(422)
      expect(JSON.parse(answer.body).error.code).toBe('DRAFT_INVALID')
      expect(JSON.parse(answer.body).error.message).toMatch(/^the review page's command › reason: the text holds a lone surrogate/)
    }
    // An adjudication of a case two reviewers reviewed.
    for (const reviewer of ['alice', 'bob']) {
      const versions = await versionsOf(server, 'not-reviewed', `reviewer:${reviewer}`)
      const answer = await postSave(server, { fixture: 0, id: 'not-reviewed', versions, replace: false, draft: draft(), reviewer })
      expect(answer.status).toBe(200)
    }
    const current = await versionsOf(server, 'not-reviewed', 'adjudicator:carol')
    const adjudication = await postSave(
      server,
      cut(JSON.stringify({ fixture: 0, id: 'not-reviewed', versions: current, replace: false, draft: draft(), adjudicator: 'carol' })),
      '/api/adjudicate',
    )
    expect(adjudication.status).toBe(422)
    expect(JSON.parse(adjudication.body).error.message).toMatch(/command › reason: the text holds a lone surrogate/)
    expect(await readFile(join(dir, 'annotations.json'), 'utf8')).toBe(before)
  })
})

describe('a save whose draft does not follow the format', () => {
  test.each([
    [{ command: 5 }, "the review page's command: the value has the wrong type"],
    [{ command: { rating: 'meets' } }, "the review page's command › reason: a required value is missing"],
    [{ command: { rating: 'meets', reason: 'x', extra: 1 } }, 'the review page\'s command: unexpected key "extra"'],
  ])('%j is refused with a fix for whoever sent it, not a command’s --help; nothing is written', async (written, said) => {
    const { dir, server } = await servedCopy()
    const before = await readFile(join(dir, 'annotations.json'), 'utf8')
    const answer = await postSave(server, {
      fixture: 0,
      id: 'not-reviewed',
      versions: await versionsOf(server, 'not-reviewed'),
      replace: false,
      draft: written,
    })
    expect(answer.status).toBe(422)
    const { code, message } = JSON.parse(answer.body).error
    expect(code).toBe('DRAFT_INVALID')
    expect(message).toContain(`${said}; nothing was written.`)
    expect(message).toMatch(
      /\n {2}fix: {6}send each judgement as the review page's form does, in the format docs\/format\.md gives the fixture's reviews; if the page sent this, reload it\.$/,
    )
    expect(await readFile(join(dir, 'annotations.json'), 'utf8')).toBe(before)
  })
})
