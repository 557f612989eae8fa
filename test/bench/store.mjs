// The fixture store's figures, each a ratio against a floor measured in the same run:
//
// - one save (a reviewer's review of one case, a process of its own) at each size, against the
//   same save on the smallest fixture;
// - 8 writers at once, each saving one case of its own, on the largest fixture: their median
//   latency against one save alone on that fixture;
// - the wait after a writer killed while it held the lock: the next save against the same save
//   with no lock left behind;
// - the crash-injection counts of one save: the steps injected, the states the fixture was found
//   in afterwards (as before the save, as after it, anything else), the temporary files left.
//
// Each in both layouts: the seed layout (whole JSON files) and the records layout (records/, the
// fixture converted with `vitest-rubric convert --to records` before it is timed).
//
//   npm run bench:store [-- sizes…]      (default: 100 20000)
//   LAYOUTS=records npm run bench:store  (one layout only)
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateFixture } from './generate.mjs'

const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url))
const sizes = process.argv.slice(2).map(Number)
const SIZES = sizes.length > 0 ? sizes.sort((a, b) => a - b) : [100, 20_000]
const REPEATS = 3
const LAYOUTS = (process.env.LAYOUTS ?? 'seed,records').split(',')
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const caseId = (index) => `case-${String(index).padStart(6, '0')}`

function reviewArgs(reviewer, caseId) {
  const args = ['review', '.', '--case', caseId, '--reviewer', reviewer, '--replace']
  for (const criterion of CRITERIA) args.push('--rating', `${criterion}=meets`, '--reason', `${criterion}=Meets ${criterion}.`)
  return args
}

function run(args, cwd, env = {}) {
  const start = process.hrtime.bigint()
  const child = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env } })
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, status: child.status, signal: child.signal, stderr: child.stderr }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** Median seconds of one reviewer's save of one case, each in a process of its own. */
function saveSeconds(dir, reviewer = 'bench') {
  const seconds = []
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const done = run(reviewArgs(reviewer, caseId(0)), dir)
    if (done.status !== 0) throw new Error(`the save exited ${done.status}: ${done.stderr}`)
    seconds.push(done.seconds)
  }
  return median(seconds)
}

function concurrentSeconds(dir, writers) {
  return Promise.all(
    Array.from({ length: writers }, (_, index) => {
      const start = process.hrtime.bigint()
      const child = spawn(process.execPath, [BIN, ...reviewArgs(`writer${index}`, caseId(index))], { cwd: dir, stdio: 'ignore' })
      return new Promise((resolve, reject) =>
        child.on('close', (code) =>
          code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e9) : reject(new Error(`writer ${index} exited ${code}`)),
        ),
      )
    }),
  )
}

function filesOf(dir) {
  const state = {}
  for (const name of readdirSync(dir, { recursive: true })) {
    const path = join(dir, name)
    if (!name.includes('.rubric.lock') && existsSync(path) && !readdirSafe(path)) state[name] = readFileSync(path, 'utf8')
  }
  return JSON.stringify(Object.entries(state).sort())
}

function readdirSafe(path) {
  try {
    readdirSync(path)
    return true
  } catch {
    return false
  }
}

for (const layout of LAYOUTS) await bench(layout)

async function bench(layout) {
  const root = mkdtempSync(join(tmpdir(), 'vitest-rubric-bench-store-'))
  try {
    const fixtures = new Map()
    for (const size of SIZES) {
      const dir = join(root, `f${size}`)
      await generateFixture(dir, size)
      if (layout === 'records') {
        const converted = run(['convert', '.', '--to', 'records'], dir)
        if (converted.status !== 0) throw new Error(`convert exited ${converted.status}: ${converted.stderr}`)
      }
      fixtures.set(size, dir)
    }
    const smallest = SIZES[0]
    const largest = SIZES.at(-1)

    console.log(`# The ${layout} layout\n`)
    console.log(`## One save, each in a process of its own (median of ${REPEATS})\n`)
    console.log('| cases | save | ÷ the save on the smallest fixture |')
    console.log('|--:|--:|--:|')
    let floor
    for (const size of SIZES) {
      const seconds = saveSeconds(fixtures.get(size))
      floor ??= seconds
      console.log(`| ${size.toLocaleString('en-US')} | ${seconds.toFixed(3)} s | ${(seconds / floor).toFixed(2)}× |`)
    }

    console.log(`\n## 8 writers at once on ${largest.toLocaleString('en-US')} cases\n`)
    const alone = saveSeconds(fixtures.get(largest), 'alone')
    const latencies = await concurrentSeconds(fixtures.get(largest), 8)
    console.log(
      `median latency ${median(latencies).toFixed(3)} s, slowest ${Math.max(...latencies).toFixed(3)} s; one save alone ${alone.toFixed(3)} s: median ${(median(latencies) / alone).toFixed(2)}×`,
    )

    console.log(`\n## The wait after a writer killed while it held the lock (${smallest.toLocaleString('en-US')} cases)\n`)
    const dir = fixtures.get(smallest)
    const normal = saveSeconds(dir, 'after')
    const waits = []
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const killed = run(reviewArgs('killed', caseId(1)), dir, { VITEST_RUBRIC_CRASH_AT: '1' })
      if (killed.signal !== 'SIGKILL') throw new Error('the writer was not killed at its first step')
      const next = run(reviewArgs('after', caseId(2)), dir)
      if (next.status !== 0) throw new Error(`the save after the kill exited ${next.status}: ${next.stderr}`)
      waits.push(next.seconds)
    }
    console.log(`next save ${median(waits).toFixed(3)} s against ${normal.toFixed(3)} s with no lock left: ${(median(waits) / normal).toFixed(2)}×`)

    // The records layout's crash injection is test/e2e/crash-injection.test.ts: each save's lines name the save, so two runs never write the same bytes.
    if (layout === 'records') return
    console.log(`\n## Crash injection: one reviewer's save killed at every step (${smallest.toLocaleString('en-US')} cases)\n`)
    const base = join(root, 'base')
    cpSync(dir, base, { recursive: true })
    const trace = join(root, 'trace')
    const after = join(root, 'after')
    cpSync(base, after, { recursive: true })
    run(reviewArgs('crash', caseId(3)), after, { VITEST_RUBRIC_CRASH_TRACE: trace })
    const steps = readFileSync(trace, 'utf8').trim().split('\n').length
    const wanted = { before: filesOf(base), after: filesOf(after) }
    const seen = { before: 0, after: 0, other: 0 }
    let leftovers = 0
    for (let step = 1; step <= steps; step++) {
      const copy = join(root, `step${step}`)
      cpSync(base, copy, { recursive: true })
      run(reviewArgs('crash', caseId(3)), copy, { VITEST_RUBRIC_CRASH_AT: String(step) })
      run(['status', '.'], copy)
      const state = filesOf(copy)
      if (state === wanted.before) seen.before++
      else if (state === wanted.after) seen.after++
      else seen.other++
      leftovers += readdirSync(copy, { recursive: true }).filter((name) => name.includes('.rubric.lock') || name.endsWith('.tmp')).length
      rmSync(copy, { recursive: true, force: true })
    }
    console.log(
      `${steps} steps injected; afterwards as before the save ${seen.before}, as after it ${seen.after}, anything else ${seen.other}; temporary files left ${leftovers}`,
    )
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
  console.log('')
}
