import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { startServer } from '../../src/web/server.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { runVitest } from '../helpers/run-vitest.js'
import { scratchDir } from '../helpers/scratch.js'
import { raw } from '../helpers/served-fixture.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support'] as const

/** A project whose fixture `fixtures/panel` has one case, reviewed independently by alice and bob. */
async function reviewedByTwo() {
  const root = await scratchDir('reviewer-file')
  const run = (...args: string[]) => runCli(args, root)
  expect((await run('init', 'fixtures/panel', '--template', 'docuctl')).code).toBe(0)
  const bundled = JSON.parse(await readFile(join(DOCUCTL, 'cases.json'), 'utf8')).cases as {
    id: string
    input: { answer: { text: string; citation: string } }
  }[]
  const complete = bundled.find((entry) => entry.id === 'complete')!.input.answer
  await writeFile(join(root, 'cases.json'), JSON.stringify([{ id: 'complete', answer: complete.text, citation: complete.citation }]))
  expect((await run('add', 'fixtures/panel', '--from', 'cases.json')).code).toBe(0)
  for (const reviewer of ['alice', 'bob']) {
    const ratings = CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=${reviewer} found it there.`])
    expect((await run('review', 'fixtures/panel', '--case', 'complete', '--reviewer', reviewer, ...ratings)).stderr).toBe('')
  }
  return { root, dir: join(root, 'fixtures/panel'), run }
}

describe("a refusal of a reviewer's own review", () => {
  test('names the reviewer’s file and the path in it, in evaluate, status, Vitest and the page', { timeout: 120_000 }, async () => {
    const { root, dir, run } = await reviewedByTwo()
    // A hand-edited typo of a criterion id in bob's file.
    const bobs = join(dir, 'reviews/bob.json')
    await writeFile(bobs, (await readFile(bobs, 'utf8')).replace('"command"', '"comand"'))
    const where = 'fixtures/panel/reviews/bob.json › reviews[0] › judgements › comand (case "complete")'

    const evaluated = await run('evaluate', 'fixtures/panel')
    expect(evaluated.stdout).toContain(`    ${where}: the review judges a criterion that fixtures/panel/rubric.json does not define.\n`)
    expect(evaluated.stdout).not.toContain('annotations.json › reviews[0]')
    const json = JSON.parse((await run('evaluate', 'fixtures/panel', '--json')).stdout)
    expect(json.decisions.complete.error).toMatchObject({ code: 'UNKNOWN_CRITERION', file: 'fixtures/panel/reviews/bob.json' })

    const status = await run('status', 'fixtures/panel')
    expect(status.stdout).toContain(`    complete: ${where}: the review judges a criterion that fixtures/panel/rubric.json does not define.\n`)

    const vitest = await runVitest({ root })
    expect(vitest.tests.map((each) => each.state)).toEqual(['failed'])
    expect(vitest.tests[0]!.errors.join('\n')).toContain(where)
    expect(vitest.tests[0]!.errors.join('\n')).not.toContain('annotations.json › reviews[0]')

    const server = await startServer({ dirs: ['fixtures/panel'], cwd: root, port: 0 })
    try {
      const shown = await raw(server.port, '/api/case?fixture=0&id=complete', { headers: { 'x-rubric-token': server.token } })
      expect(shown.body).toContain('reviews/bob.json › reviews[0] › judgements › comand')
      expect(shown.body).not.toContain('annotations.json › reviews[0]')
    } finally {
      await server.close()
    }
  })
})
