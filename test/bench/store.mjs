// The fixture store's figures, each a ratio against a floor measured in the same run:
//
// - one save (a reviewer's review of one case, a process of its own) at each size, against the
//   same save on the smallest fixture;
// - 8 writers at once, each saving one case of its own (a process each), at each size: their
//   median latency against the same 8 writers on the smallest fixture;
// - a git merge of two branches that each added 10,000 cases (\`add --from\`) to the smallest
//   fixture, against a merge of two branches that each added a plain file of the same bytes: in
//   the records layout it must merge with no conflict and decide every case of both;
// - the wait after a writer killed while it held the lock: the next save against the same save
//   with no lock left behind;
// - the crash-injection counts of one save: the steps injected, the states the fixture was found
//   in afterwards (as before the save, as after it, anything else), the temporary files left.
// - in the records layout, `compact` after rounds of judge labels revised on the smallest fixture:
//   the bytes of its record files after against before, and its time against an `evaluate` of
//   the same fixture (a read of every record); the fixture must decide the same after it.
//
// Each in both layouts: the seed layout (whole JSON files) and the records layout (records/, the
// fixture converted with `vitest-rubric convert --to records` before it is timed).
//
//   npm run bench:store [-- sizes…]      (default: 100 20000)
//   LAYOUTS=records npm run bench:store  (one layout only)
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateFixture, generateRecordsFixture } from './generate.mjs'

/** The largest fixture the seed layout can hold, about: past it `annotations.json` is longer than a JavaScript string can be. */
const SEED_LIMIT = 400_000

const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url))
const sizes = process.argv.slice(2).map(Number)
const SIZES = sizes.length > 0 ? sizes.sort((a, b) => a - b) : [100, 20_000]
const REPEATS = 3
const LAYOUTS = (process.env.LAYOUTS ?? 'seed,records').split(',')
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const caseId = (index) => `case-${String(index).padStart(6, '0')}`
const MERGED = Number(process.env.MERGED ?? 10_000)

function reviewArgs(reviewer, caseId) {
  const args = ['review', '.', '--case', caseId, '--reviewer', reviewer, '--replace']
  for (const criterion of CRITERIA) args.push('--rating', `${criterion}=meets`, '--reason', `${criterion}=Meets ${criterion}.`)
  return args
}

function run(args, cwd, env = {}) {
  const start = process.hrtime.bigint()
  const child = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 2 ** 30 })
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, status: child.status, signal: child.signal, stdout: child.stdout, stderr: child.stderr }
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

function git(args, cwd) {
  const start = process.hrtime.bigint()
  const child = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 2 ** 30 })
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, status: child.status, stdout: child.stdout, stderr: child.stderr }
}

function must(done, what) {
  if (done.status !== 0) throw new Error(`${what} exited ${done.status}: ${done.stderr}`)
  return done
}

/**
 * Two branches off one commit of the fixture, each adding MERGED cases of its own with one
 * \`add --from\`, merged with git: the merge's time against a merge of two branches that each
 * added a plain file of the same bytes (git's own cost), whether it conflicted, and what the
 * merged fixture decides.
 */
function mergeFigures(root, fixture, before) {
  const repo = join(root, 'merge')
  cpSync(fixture, join(repo, 'fixture'), { recursive: true })
  must(git(['init', '-q', '-b', 'main'], repo), 'git init')
  for (const [key, value] of [
    ['user.name', 'bench'],
    ['user.email', 'bench@example.invalid'],
    ['commit.gpgsign', 'false'],
  ])
    git(['config', key, value], repo)
  must(git(['add', '-A'], repo), 'git add')
  must(git(['commit', '-qm', 'base'], repo), 'git commit')
  const branchBytes = {}
  for (const side of ['a', 'b']) {
    must(git(['checkout', '-qb', side, 'main'], repo), 'git checkout')
    const cases = Array.from({ length: MERGED }, (_, index) => ({
      id: `${side}-${String(index).padStart(6, '0')}`,
      answer: `Answer ${side}${index}: run \`docuctl releases rollback r41 --environment staging\` after approval.`,
      citation: 'Fictional docuctl 3 guide: staging rollback to r41',
    }))
    writeFileSync(join(root, `${side}.json`), JSON.stringify(cases))
    must(run(['add', 'fixture', '--from', join(root, `${side}.json`)], repo), `add --from on branch ${side}`)
    must(git(['add', '-A'], repo), 'git add')
    branchBytes[side] = Number(/(\d+) insertions?/.exec(must(git(['commit', '-m', `add ${side}`], repo), 'git commit').stdout)?.[1] ?? 0)
    must(git(['checkout', '-q', 'main'], repo), 'git checkout')
  }
  // The floor: two branches each adding a file of as many lines, of the same bytes as their added records.
  for (const side of ['a', 'b']) {
    must(git(['checkout', '-qb', `plain-${side}`, 'main'], repo), 'git checkout')
    const added = must(git(['diff', 'main', side], repo), 'git diff')
      .stdout.split('\n')
      .filter((line) => line.startsWith('+') && !line.startsWith('+++'))
      .map((line) => line.slice(1))
    writeFileSync(join(repo, `plain-${side}.txt`), `${added.join('\n')}\n`)
    must(git(['add', '-A'], repo), 'git add')
    must(git(['commit', '-qm', `plain ${side}`], repo), 'git commit')
  }
  must(git(['checkout', '-q', 'plain-a'], repo), 'git checkout')
  const floor = must(git(['merge', '-q', '--no-edit', 'plain-b'], repo), 'the plain merge').seconds
  must(git(['checkout', '-q', 'a'], repo), 'git checkout')
  const merged = git(['merge', '-q', '--no-edit', 'b'], repo)
  if (merged.status !== 0) {
    const conflicted = git(['diff', '--name-only', '--diff-filter=U'], repo).stdout.trim().split('\n').filter(Boolean)
    git(['merge', '--abort'], repo)
    return `the merge conflicted in ${conflicted.length} file(s) (${conflicted.join(', ')}) after ${merged.seconds.toFixed(3)} s; the plain merge took ${floor.toFixed(3)} s`
  }
  const evaluated = must(run(['evaluate', 'fixture', '--json'], repo), 'evaluate after the merge')
  const decided = JSON.parse(evaluated.stdout).coverage.candidates
  if (decided !== before + 2 * MERGED) throw new Error(`the merged fixture decides ${decided} cases, not ${before + 2 * MERGED}`)
  return `merged with no conflict in ${merged.seconds.toFixed(3)} s (${branchBytes.a} and ${branchBytes.b} lines added); the plain merge of the same bytes ${floor.toFixed(3)} s: ${(merged.seconds / floor).toFixed(2)}×. The merged fixture decides all ${decided.toLocaleString('en-US')} cases.`
}

const ROUNDS = Number(process.env.ROUNDS ?? 3)

/** The bytes of a records fixture's record files. */
function recordBytes(dir) {
  const folder = join(dir, 'records')
  return readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .reduce((sum, name) => sum + readFileSync(join(folder, name)).length, 0)
}

/**
 * ROUNDS rounds of a judge's labels of `labelled` cases, each round revising every label, then
 * `compact`: the record files' bytes after against before, and the compaction's time against an
 * `evaluate` of the same fixture. The decisions must be the same after.
 */
function compactFigures(root, dir, labelled) {
  for (let round = 0; round < ROUNDS; round++) {
    const labels = Array.from({ length: labelled }, (_, index) =>
      JSON.stringify({
        case: caseId(index),
        judgements: Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: `Round ${round}.` }])),
      }),
    )
    writeFileSync(join(root, 'labels.jsonl'), `${labels.join('\n')}\n`)
    must(run(['review', '.', '--judge', 'bench', '--replace', '--from', join(root, 'labels.jsonl')], dir), `judge labels, round ${round}`)
  }
  const evaluated = must(run(['evaluate', '.', '--json'], dir), 'evaluate before compact')
  const before = recordBytes(dir)
  const compacted = must(run(['compact', '.', '--json'], dir), 'compact')
  const report = JSON.parse(compacted.stdout)
  const after = recordBytes(dir)
  const again = must(run(['evaluate', '.', '--json'], dir), 'evaluate after compact')
  if (JSON.stringify(JSON.parse(again.stdout).decisions) !== JSON.stringify(JSON.parse(evaluated.stdout).decisions))
    throw new Error('the fixture decides differently after compact')
  return `record files ${before.toLocaleString('en-US')} bytes, ${report.before.toLocaleString('en-US')} lines → ${after.toLocaleString('en-US')} bytes, ${report.after.toLocaleString('en-US')} lines: ${(after / before).toFixed(2)}× the bytes (${report.compacted.length} of ${report.files} files rewritten). compact ${compacted.seconds.toFixed(3)} s against evaluate ${evaluated.seconds.toFixed(3)} s: ${(compacted.seconds / evaluated.seconds).toFixed(2)}×. Decisions unchanged.`
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
    const sizes = layout === 'seed' ? SIZES.filter((size) => size <= SEED_LIMIT) : SIZES
    if (sizes.length < SIZES.length)
      console.log(`(the seed layout is not timed past ${SEED_LIMIT.toLocaleString('en-US')} cases: no JavaScript string holds its annotations.json)\n`)
    for (const size of sizes) {
      const dir = join(root, `f${size}`)
      // The records are written as \`convert --to records\` writes them (the same lines), without the seed documents in between.
      if (layout === 'records') await generateRecordsFixture(dir, size)
      else await generateFixture(dir, size)
      fixtures.set(size, dir)
    }
    const smallest = sizes[0]

    console.log(`# The ${layout} layout\n`)
    console.log(`## One save, each in a process of its own (median of ${REPEATS})\n`)
    console.log('| cases | save | ÷ the save on the smallest fixture |')
    console.log('|--:|--:|--:|')
    let floor
    for (const size of sizes) {
      const seconds = saveSeconds(fixtures.get(size))
      floor ??= seconds
      console.log(`| ${size.toLocaleString('en-US')} | ${seconds.toFixed(3)} s | ${(seconds / floor).toFixed(2)}× |`)
    }

    console.log(`\n## 8 writers at once, each saving a case of its own (median latency over ${REPEATS} rounds)\n`)
    console.log('| cases | median | slowest | ÷ the same on the smallest fixture |')
    console.log('|--:|--:|--:|--:|')
    let concurrentFloor
    for (const size of sizes) {
      const latencies = []
      for (let round = 0; round < REPEATS; round++) latencies.push(...(await concurrentSeconds(fixtures.get(size), 8)))
      concurrentFloor ??= median(latencies)
      console.log(
        `| ${size.toLocaleString('en-US')} | ${median(latencies).toFixed(3)} s | ${Math.max(...latencies).toFixed(3)} s | ${(median(latencies) / concurrentFloor).toFixed(2)}× |`,
      )
    }

    console.log(`\n## A git merge of two branches that each added ${MERGED.toLocaleString('en-US')} cases (${smallest.toLocaleString('en-US')} cases before)\n`)
    console.log(mergeFigures(root, fixtures.get(smallest), smallest))

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
    if (layout === 'records') {
      const labelled = Math.min(smallest, 1000)
      console.log(
        `\n## Compaction after ${ROUNDS} rounds of judge labels of ${labelled.toLocaleString('en-US')} cases (${smallest.toLocaleString('en-US')} cases)\n`,
      )
      console.log(compactFigures(root, dir, labelled))
      return
    }
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
