// The CPU time of a team's reviewer pressing n (`GET /api/next`) and saving the case handed to them,
// under `serve --team` with two reviewers, the server in this process: each size's medians against
// the first size's, measured in the same run.
//
//   npm run build && LAYOUT=records node test/bench/team-cpu.mjs [sizes…]   (default: 100 20000)
//   WARMUP=n …   (rounds made and not measured first, at every size: default 4)
//   ROUNDS=n …   (rounds measured at each size: default 20)
//
// A round is one reviewer's n, their read of the case and their save, the two reviewers in turn. The
// first review of a fixture's first reviewer decides every case again (the several-reviewer rule
// now applies), and so does the next n under the assignment's rule: the warm-up rounds hold those.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { call as http, generateServed } from './served-fixture.mjs'

const { startServer } = await import(new URL('../../dist/web/server.js', import.meta.url).href)
const { announceTeam, openTeam } = await import(new URL('../../dist/cli/commands/serve-team.js', import.meta.url).href)
const sizes = process.argv.slice(2).map(Number)
const SIZES = sizes.length > 0 ? sizes : [100, 20_000]
const ROUNDS = Number(process.env.ROUNDS ?? 20)
const WARMUP = Number(process.env.WARMUP ?? 4)
const LAYOUT = process.env.LAYOUT ?? 'seed'
const CRITERIA = JSON.parse(readFileSync(new URL('../../fixtures/docuctl-rollback/rubric.json', import.meta.url), 'utf8')).criteria.map((item) => item.id)
const REVIEWERS = ['alice', 'bob']
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** The CPU time of this process over `work`, in milliseconds, and what it answered. */
async function cpuOf(work) {
  const before = process.cpuUsage()
  const answer = await work()
  const used = process.cpuUsage(before)
  return { ms: (used.user + used.system) / 1000, answer }
}

const floors = {}
for (const n of SIZES) {
  const root = mkdtempSync(join(tmpdir(), 'vitest-rubric-bench-team-'))
  const dir = join(root, 'fixtures/bench')
  generateServed(dir, n, LAYOUT)
  writeFileSync(join(root, 'team.json'), JSON.stringify({ people: REVIEWERS.map((name) => ({ name, role: 'reviewer' })) }))
  const { team, tokens } = await openTeam('team.json', root)
  const server = await startServer({
    dirs: ['fixtures/bench'],
    cwd: root,
    port: 0,
    team: tokens,
    assign: { reviewsPerCase: 2 },
    rateLimit: { perSecond: 1000, burst: 1000 },
  })
  const links = await announceTeam(team, server, root, { cwd: root, stdout: () => undefined, stderr: () => undefined })
  const token = Object.fromEntries(links.map((link) => [link.name, link.token]))
  try {
    const measured = { next: [], save: [] }
    for (let round = -WARMUP; round < ROUNDS; round++) {
      const reviewer = REVIEWERS[(round + WARMUP) % REVIEWERS.length]
      const call = (path, body) => http(server.port, token[reviewer], path, body)
      const next = await cpuOf(() => call('/api/next?fixture=0'))
      const id = next.answer.next.id
      const shown = await call(`/api/case?fixture=0&id=${id}`)
      const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: `${reviewer}'s reason.`, answer_span: '' }]))
      const save = await cpuOf(() => call('/api/review', { fixture: 0, id, draft, versions: shown.versions, replace: false }))
      if (round < 0) continue
      measured.next.push(next.ms)
      measured.save.push(save.ms)
    }
    const line = Object.entries(measured).map(([what, values]) => {
      const time = median(values)
      floors[what] ??= time
      const ratio = n === SIZES[0] ? 'the floor' : `${(time / floors[what]).toFixed(2)}× the floor`
      return `${what === 'next' ? 'n' : 'a save'} ${time.toFixed(1)} ms (${ratio})`
    })
    console.log(`${n} cases, ${LAYOUT} layout, two reviewers: CPU time of ${line.join(', ')}; medians of ${ROUNDS}`)
  } finally {
    await server.close()
    rmSync(root, { recursive: true, force: true })
  }
}
process.exit(0)
