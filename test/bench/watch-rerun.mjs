// Times a rerun in watch mode after one review is recorded, against the first run of the same
// watch session, for a fixture in one module and split into chunks, and prints the ratio.
//
//   node test/bench/watch-rerun.mjs [sizes…]      (default: 10000 100000; `npm run bench:plugin` runs it after the plain comparison)
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateFixture, outcomeOf } from './generate.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const sizes = process.argv.slice(2).map(Number)
const SIZES = sizes.length > 0 ? sizes : [10_000, 100_000]
const TARGET = 0.25
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

const { startVitest } = await import(join(ROOT, 'node_modules/vitest/dist/node.js'))
const { recordReview } = await import(join(ROOT, 'dist/index.js'))

/** Each run's end, with the state of one case's test. */
class Runs {
  ended = []
  waiting = undefined
  constructor(caseId) {
    this.caseId = caseId
  }
  onTestRunStart(specifications) {
    this.starts = (this.starts ?? 0) + 1
    this.started = specifications.length
  }
  onTestRunEnd(modules) {
    let state
    for (const module of modules) {
      for (const test of module.children.allTests()) if (test.name.startsWith(this.caseId)) state = test.result().state
    }
    this.ended.push({ at: performance.now(), state, modules: this.started })
    this.waiting?.()
  }
  async until(seen) {
    for (let taken = 0; ; ) {
      while (taken < this.ended.length) {
        const run = this.ended[taken++]
        if (seen(run)) return run
      }
      await new Promise((resolve) => {
        this.waiting = resolve
      })
    }
  }
}

async function project(n, chunks) {
  const root = await mkdtemp(join(tmpdir(), 'vitest-rubric-watch-'))
  await generateFixture(join(root, 'fixtures/bench'), n)
  await mkdir(join(root, 'node_modules'), { recursive: true })
  await symlink(ROOT, join(root, 'node_modules/vitest-rubric'), 'dir')
  const options = `{ reporter: false${chunks === undefined ? '' : `, chunks: { size: ${chunks} }`} }`
  await writeFile(
    join(root, 'vitest.config.mjs'),
    `import { rubric } from 'vitest-rubric/plugin'\nexport default { plugins: [rubric(${options})], test: { include: [] } }\n`,
  )
  return root
}

/** The first pending case of the generated fixture: recording its review turns its test from todo to passed. */
function pendingCase(n) {
  for (let index = 0; index < n; index++) if (outcomeOf(index) === 'pending') return `case-${String(index).padStart(6, '0')}`
  throw new Error('the generated fixture has no pending case')
}

const draft = Object.fromEntries(
  CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: `Meets ${criterion}.`, answer_span: 'check service health' }]),
)
const source = { label: 'the benchmark', locate: (path) => path.join(' › ') }

console.log(
  `node ${process.version}; the first run of a watch session, then a review recorded with the review command's function, to the end of the rerun that shows it`,
)
console.log('cases     layout                first s   save s   rerun s   modules rerun   rerun ÷ first   target   met')
for (const n of SIZES) {
  for (const chunks of process.env.LAYOUT === 'chunks' ? [Math.max(1000, Math.ceil(n / 20))] : [undefined, Math.max(1000, Math.ceil(n / 20))]) {
    const root = await project(n, chunks)
    const caseId = pendingCase(n)
    const runs = new Runs(caseId)
    const exitCode = process.exitCode
    const started = performance.now()
    const vitest = await startVitest('test', [], { root, watch: true, reporters: [runs], silent: true })
    try {
      const first = await runs.until(() => true)
      // The files were written just before the session started: a rerun their late watch events cause is let end first.
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await runs.until(() => runs.ended.length >= runs.starts)
      const before = performance.now()
      await recordReview(join(root, 'fixtures/bench'), draft, source, { caseId, replace: true, cwd: root })
      const saved = performance.now()
      const rerun = await runs.until((run) => run.at > saved && run.state === 'passed')
      if (process.env.DEBUG) console.log(runs.ended.map((run) => `${((run.at - saved) / 1000).toFixed(2)} s: ${run.modules} modules, ${run.state}`).join('\n'))
      const firstSeconds = (first.at - started) / 1000
      const rerunSeconds = (rerun.at - saved) / 1000
      const ratio = rerunSeconds / firstSeconds
      const layout = chunks === undefined ? 'one module' : `chunks of ${chunks}`
      console.log(
        `${String(n).padEnd(9)} ${layout.padEnd(21)} ${firstSeconds.toFixed(2).padStart(7)}   ${((saved - before) / 1000).toFixed(2).padStart(6)}   ${rerunSeconds.toFixed(2).padStart(7)}   ${String(rerun.modules).padStart(13)}   ${`${ratio.toFixed(2)}×`.padStart(13)}   ≤ ${TARGET}×   ${ratio <= TARGET ? 'yes' : 'no'}`,
      )
    } finally {
      await vitest.close()
      process.exitCode = exitCode
      await rm(root, { recursive: true, force: true })
    }
  }
}
