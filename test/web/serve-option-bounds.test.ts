import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { Assignments } from '../../src/web/assignment.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { serveProcess } from '../helpers/serve-process.js'
import { fixtureRoot } from '../helpers/page-browser.js'
import { runCli } from '../helpers/cli.js'

// serve's numbers are read as written, in decimal digits, and within bounds: a value the server
// would choke on later (a reservation past the last date JavaScript holds) is a usage error at once.

const TEAM = JSON.stringify({ people: [{ name: 'alice', role: 'reviewer' }] })

/** `vitest-rubric serve fixtures/lab <args>` on a copy of the bundled fixture with a team file, until it prints its links or exits. */
async function serve(args: readonly string[]) {
  const root = await fixtureRoot('serve-bounds', { 'fixtures/lab': DOCUCTL })
  await writeFile(join(root, 'team.json'), TEAM)
  const run = await serveProcess(root, ['fixtures/lab', ...args])
  return { code: run.outcome.code, stdout: run.stdout(), stderr: run.stderr }
}

test.each([
  [['--team', 'team.json', '--reserve-minutes', '1e20'], '--reserve-minutes takes a whole number of minutes from 1 to 10080 (a week), not "1e20".'],
  [['--team', 'team.json', '--reserve-minutes', '10081'], '--reserve-minutes takes a whole number of minutes from 1 to 10080 (a week), not "10081".'],
  [['--team', 'team.json', '--reserve-minutes', 'Infinity'], '--reserve-minutes takes a whole number of minutes from 1 to 10080 (a week), not "Infinity".'],
  [['--team', 'team.json', '--reserve-minutes', '0x10'], '--reserve-minutes takes a whole number of minutes from 1 to 10080 (a week), not "0x10".'],
  [['--team', 'team.json', '--reserve-minutes', '2.5'], '--reserve-minutes takes a whole number of minutes from 1 to 10080 (a week), not "2.5".'],
  [['--team', 'team.json', '--reviews-per-case', '1e20'], '--reviews-per-case takes a whole number of reviews from 1 to 100, not "1e20".'],
  [['--team', 'team.json', '--reviews-per-case', 'NaN'], '--reviews-per-case takes a whole number of reviews from 1 to 100, not "NaN".'],
  [['--team', 'team.json', '--reviews-per-case', '2.0'], '--reviews-per-case takes a whole number of reviews from 1 to 100, not "2.0".'],
  [['--team', 'team.json', '--min-reviews', '1000'], '--min-reviews takes a whole number from 0 to 100, not "1000".'],
  [['--team', 'team.json', '--min-reviews', '1e20'], '--min-reviews takes a whole number from 0 to 100, not "1e20".'],
  [['--team', 'team.json', '--min-reviews', ''], '--min-reviews is given an empty value; give it a value, or leave the option out.'],
  [['--port', ''], '--port is given an empty value; give it a value, or leave the option out.'],
  [['--port', '1e3'], '--port takes a port number from 0 to 65535, not "1e3".'],
  [['--port', '0x1f90'], '--port takes a port number from 0 to 65535, not "0x1f90".'],
  [['--port', '65536'], '--port takes a port number from 0 to 65535, not "65536".'],
  [['--rate-limit', '1e3'], '--rate-limit takes a whole number of requests a second per link, from 1 to 100000 (default 50), not "1e3".'],
  [['--rate-limit', 'Infinity'], '--rate-limit takes a whole number of requests a second per link, from 1 to 100000 (default 50), not "Infinity".'],
] as const)('serve %j is a usage error (exit 2) that says the bounds', async (args, message) => {
  const run = await serve(args[0] === '--port' ? args : ['--port', '0', ...args])
  expect(run.code).toBe(2)
  expect(run.stderr()).toMatch(
    new RegExp(`^vitest-rubric serve: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n {2}fix: {6}see the usage below\\.\n\nUsage: vitest-rubric serve `),
  )
  expect(run.stdout).toBe('')
})

test('serve --team --reserve-minutes 10080, the longest, reserves a reviewer’s next case for a week', { timeout: 30_000 }, async () => {
  const run = await serve(['--port', '0', '--team', 'team.json', '--reserve-minutes', '10080'])
  expect(run.code).toBe('serving')
  expect(run.stdout).toContain('a case handed to a reviewer (their n) is reserved for them 10080 minutes.')
  const link = new URL(/alice \(reviewer\): (\S+)/.exec(run.stdout)![1]!)
  const before = Date.now()
  const answer = await fetch(new URL('/api/next?fixture=0', link), { headers: { 'x-rubric-token': link.searchParams.get('token')! } })
  expect(answer.status).toBe(200)
  const { next } = (await answer.json()) as { next: { expires: string } }
  expect(Date.parse(next.expires) - before).toBeGreaterThanOrEqual(7 * 24 * 3600_000 - 1000)
  expect(Date.parse(next.expires) - before).toBeLessThanOrEqual(7 * 24 * 3600_000 + 60_000)
  expect(run.stderr()).toBe('')
})

test('a reservation longer than a week, or a count of reviews out of bounds, stops the server at its start, never a reviewer’s next', () => {
  expect(() => new Assignments({ reviewsPerCase: 2, reserveMs: 6e21 })).toThrow(
    'assignment needs 1 to 100 reviews per case and a reservation of at most 10080 minutes, not {"reviewsPerCase":2,"reserveMs":6e+21}.',
  )
  expect(() => new Assignments({ reviewsPerCase: 101, reserveMs: 60_000 })).toThrow('assignment needs 1 to 100 reviews per case')
  expect(new Assignments({ reviewsPerCase: 100, reserveMs: 10080 * 60_000 }).reserveMinutes).toBe(10080)
})

test('serve --help states each bound', async () => {
  const { code, stdout } = await runCli(['serve', '--help'])
  expect(code).toBe(0)
  const help = stdout.replace(/\s+/g, ' ')
  expect(help).toContain('--reviews-per-case <n> with --team: the independent reviews each case needs before it is handed out no more, 1 to 100 (')
  expect(help).toContain('reviewer unless they save or skip it, 1 to 10080 (a week; default 30)')
  expect(help).toContain("in bursts of ten seconds' worth, 1 to 100000 (default 50)")
})
