// Times the revision commands on a generated fixture whose source changed (so every reviewed case
// is stale), against `vitest-rubric evaluate` of the same fixture in the same run: the floor is
// one load and one decision of every case. `review --from` of one review is timed on the fixture
// as generated (its cases current), against `evaluate` of that fixture.
//
//   npm run bench:revisions [-- sizes…]      (default: 1000 20000 100000)
import { spawnSync } from 'node:child_process'
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateFixture } from './generate.mjs'

const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url))
const sizes = process.argv.slice(2).map(Number)
const SIZES = sizes.length > 0 ? sizes : [1_000, 20_000, 100_000]
const REPEATS = 3
const REVIEW = Object.fromEntries(
  ['command', 'preconditions', 'database_scope', 'verification', 'support'].map((criterion) => [
    criterion,
    { rating: 'meets', reason: `Meets ${criterion}.`, answer_span: 'check service health' },
  ]),
)

/** Median wall time of a command in a fresh process; `prepare` runs before each timing, untimed. */
function time(args, cwd, prepare = () => {}) {
  const seconds = []
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    prepare()
    const start = process.hrtime.bigint()
    const run = spawnSync(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
    seconds.push(Number(process.hrtime.bigint() - start) / 1e9)
    // status exits 1 here by design: every reviewed case is stale.
    if (run.status !== 0 && !(args[0] === 'status' && run.status === 1)) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`)
  }
  return seconds.sort((a, b) => a - b)[Math.floor(REPEATS / 2)]
}

console.log('| cases | evaluate (floor) | status | bind --all --dry-run | bind --all | evaluate of the current fixture (floor) | review --from, one review |')
console.log('|--:|--:|--:|--:|--:|--:|--:|')
for (const n of SIZES) {
  const root = mkdtempSync(join(tmpdir(), 'vitest-rubric-bench-'))
  try {
    await generateFixture(join(root, 'stale'), n)
    appendFileSync(join(root, 'stale/source.txt'), 'A new paragraph.\n')
    const floor = time(['evaluate', 'stale', '--json'], root)
    const status = time(['status', 'stale'], root)
    const dryRun = time(['bind', 'stale', '--all', '--dry-run'], root)
    // Each timed bind works on a fresh copy of the stale fixture.
    const bind = time(['bind', 'work', '--all'], root, () => {
      rmSync(join(root, 'work'), { recursive: true, force: true })
      cpSync(join(root, 'stale'), join(root, 'work'), { recursive: true })
    })
    const cell = (seconds, under = floor) => `${seconds.toFixed(2)} s (${(seconds / under).toFixed(2)}×)`
    // One review recorded in a fixture whose cases are current: the pending case-000042, replaced each time on a fresh copy.
    await generateFixture(join(root, 'current'), n)
    writeFileSync(join(root, 'review.json'), JSON.stringify(REVIEW))
    const current = time(['evaluate', 'current', '--json'], root)
    const review = time(['review', 'one', '--case', 'case-000042', '--replace', '--from', 'review.json'], root, () => {
      rmSync(join(root, 'one'), { recursive: true, force: true })
      cpSync(join(root, 'current'), join(root, 'one'), { recursive: true })
    })
    console.log(`| ${n} | ${floor.toFixed(2)} s | ${cell(status)} | ${cell(dryRun)} | ${cell(bind)} | ${current.toFixed(2)} s | ${cell(review, current)} |`)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
