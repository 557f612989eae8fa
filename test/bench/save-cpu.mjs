// The CPU time of one review save through the page's server, the server in this process: each
// size's median against the first size's, measured in the same run. Wall times on a shared
// machine move by tens of percent between runs; the CPU time of the process over a save does less.
//
//   npm run build && LAYOUT=records node test/bench/save-cpu.mjs [sizes…]   (default: 100 20000)
//   PROFILE=dir …          (a CPU profile of the saves measured at each size)
//   CASES_PER_BUCKET=n …   (records: convert with --buckets so that each bucket file holds about n cases)
//   WARMUP=n …             (saves made and not measured first, at every size: default 5)
//   SAVES=n …              (saves measured at each size: default 20)
//
// The saves measured come after the warm-up ones, at every size. At 100,000 cases, V8 still collects
// the garbage of the server's first read (some 300 MB of file bytes) during the first saves after it,
// and a collection of the whole 1 GB heap costs some 500 ms of CPU time, which falls on one save or
// another: the median is the measure, and the mean, printed beside it, shows what the collections add.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { call, generateServed } from './served-fixture.mjs'

const { startServer } = await import(new URL('../../dist/web/server.js', import.meta.url).href)
const sizes = process.argv.slice(2).map(Number)
const SIZES = sizes.length > 0 ? sizes : [100, 20_000]
const SAVES = Number(process.env.SAVES ?? 20)
const WARMUP = Number(process.env.WARMUP ?? 5)
const LAYOUT = process.env.LAYOUT ?? 'seed'
const CRITERIA = JSON.parse(readFileSync(new URL('../../fixtures/docuctl-rollback/rubric.json', import.meta.url), 'utf8')).criteria.map((item) => item.id)
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

const http = (server, path, body) => call(server.port, server.token, path, body)

let floor
for (const n of SIZES) {
  const root = mkdtempSync(join(tmpdir(), 'vitest-rubric-bench-save-'))
  const dir = join(root, 'fixtures/bench')
  const perBucket = Number(process.env.CASES_PER_BUCKET ?? 0)
  let buckets = 16
  while (perBucket > 0 && buckets * perBucket < n && buckets < 4096) buckets *= 2
  generateServed(dir, n, LAYOUT, perBucket > 0 ? ['--buckets', String(buckets)] : [])
  const server = await startServer({ dirs: ['fixtures/bench'], cwd: root, port: 0 })
  try {
    const caseUrl = (id) => `/api/case?fixture=0&id=${id}&viewer=reader`
    await http(server, caseUrl('case-000042'))
    await http(server, '/api/overview?viewer=reader')
    const session = new Session()
    const cpu = []
    const wall = []
    for (let repeat = -WARMUP; repeat < SAVES; repeat++) {
      // A case's review replaced (saved as uncertain every other time), its versions read first.
      // At every size, each save is the first of its case, the cases spread over the fixture (and its bucket files).
      const id = `case-${String(Math.floor(((repeat + WARMUP) * n) / (WARMUP + SAVES))).padStart(6, '0')}`
      const shown = await http(server, caseUrl(id))
      const rating = repeat % 2 === 0 ? 'uncertain' : 'meets'
      const draft = Object.fromEntries(
        CRITERIA.map((criterion) => [criterion, { rating, reason: 'Read in the benchmark.', answer_span: 'check service health' }]),
      )
      if (repeat === 0 && process.env.PROFILE !== undefined) {
        // The saves measured alone are profiled.
        session.connect()
        await session.post('Profiler.enable')
        await session.post('Profiler.start')
      }
      const start = process.hrtime.bigint()
      const before = process.cpuUsage()
      await http(server, '/api/review', { fixture: 0, id, draft, versions: shown.versions, replace: shown.existing })
      const used = process.cpuUsage(before)
      if (repeat < 0) continue
      cpu.push((used.user + used.system) / 1000)
      wall.push(Number(process.hrtime.bigint() - start) / 1e6)
    }
    if (process.env.PROFILE !== undefined) {
      const { profile } = await session.post('Profiler.stop')
      writeFileSync(join(process.env.PROFILE, `save-${LAYOUT}-${n}.cpuprofile`), JSON.stringify(profile))
      session.disconnect()
    }
    const [cpuTime, wallTime] = [median(cpu), median(wall)]
    const mean = cpu.reduce((sum, each) => sum + each, 0) / cpu.length
    floor ??= cpuTime
    const ratio = cpuTime === floor && n === SIZES[0] ? 'the floor' : `${(cpuTime / floor).toFixed(2)}× the floor`
    console.log(
      `${n} cases, ${LAYOUT} layout: a save's CPU time ${cpuTime.toFixed(1)} ms (${ratio}); wall ${wallTime.toFixed(1)} ms (median of ${SAVES}); mean CPU ${mean.toFixed(1)} ms`,
    )
  } finally {
    await server.close()
    rmSync(root, { recursive: true, force: true })
  }
}
process.exit(0)
