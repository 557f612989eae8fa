// Times the core engine (load, validate, hash, decide) against its floor, in the same run, on
// generated criteria fixtures: the floor reads the same files, parses each JSON file with
// JSON.parse and takes the SHA-256 of every file's bytes, which any evaluation must do at least.
// Each measurement runs in a fresh process, so that its peak RSS is its own; runs are interleaved
// and the median of the repeats is kept.
//
// A second reference, `floor + fingerprints`, adds what the fingerprints the format defines cost
// at the least: JSON.stringify (no key sorting) and SHA-256 of every answer, case and review. It is
// not a target, but it shows how much of the core's time is the fingerprinting itself.
//
// The third, `reference`, is the specification's own decision rule in Python (rubric.py's checks
// and rule, as test/helpers/reference_decisions.py implements them; see reference_timing.py), over
// the same files: the core is to be at least twice as fast. Both must decide the same: the counts
// of each status are compared, and a difference stops the benchmark.
//
//   npm run bench [-- sizes…]      (default: 10000 100000)
import { spawnSync } from 'node:child_process'
import { cpSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateFixture } from './generate.mjs'

const sizes = process.argv
  .slice(2)
  .filter((arg) => /^\d+$/.test(arg))
  .map(Number)
const SIZES = sizes.length > 0 ? sizes : [10_000, 100_000]
const REPEATS = 3
const SELF = fileURLToPath(import.meta.url)
const INDEX = new URL('../../dist/index.js', import.meta.url).href
const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url))
const REFERENCE = fileURLToPath(new URL('reference_timing.py', import.meta.url))
const PYTHON = process.env['PYTHON'] ?? 'python3'

/** One measurement, in this process: `floor` or `core` over the fixture in `dir`. */
async function measure(mode, dir) {
  const { createHash, hash } = await import('node:crypto')
  const { readFile } = await import('node:fs/promises')
  // Loading the package's modules is a fixed cost, paid once per process whatever the size.
  const core = mode === 'core' ? await import(INDEX) : undefined
  const start = process.hrtime.bigint()
  let cases
  if (mode === 'floor' || mode === 'fingerprints') {
    cases = 0
    for (const name of ['rubric.json', 'source.txt', 'cases.json', 'annotations.json']) {
      const bytes = await readFile(join(dir, name))
      createHash('sha256').update(bytes).digest('hex')
      if (name.endsWith('.json')) {
        const value = JSON.parse(bytes.toString('utf8'))
        if (name === 'cases.json') cases = value.cases.length
        if (mode === 'fingerprints') {
          const set = createHash('sha256')
          for (const item of value.cases ?? []) {
            hash('sha256', JSON.stringify(item.input.answer), 'hex')
            set.update(JSON.stringify(item))
          }
          set.digest('hex')
          for (const item of value.reviews ?? []) hash('sha256', JSON.stringify(item), 'hex')
        }
      }
    }
  } else {
    const evaluation = core.evaluateFixture(await core.loadFixture(dir))
    cases = core.evaluationJson(evaluation).coverage.candidates
    const seconds = Number(process.hrtime.bigint() - start) / 1e9
    const statuses = {}
    for (const decision of evaluation.decisions) statuses[decision.status] = (statuses[decision.status] ?? 0) + 1
    return { seconds, cases, statuses, rssMiB: process.resourceUsage().maxRSS / 1024 }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  return { seconds, cases, rssMiB: process.resourceUsage().maxRSS / 1024 }
}

if (process.argv[2] === '--measure') {
  console.log(JSON.stringify(await measure(process.argv[3], process.argv[4])))
  process.exit(0)
}

function run(mode, dir) {
  const child =
    mode === 'reference'
      ? spawnSync(PYTHON, [REFERENCE, dir], { encoding: 'utf8' })
      : spawnSync(process.execPath, [SELF, '--measure', mode, dir], { encoding: 'utf8' })
  if (child.status !== 0) throw new Error(`${mode} failed: ${child.error?.message ?? child.stderr}`)
  return JSON.parse(child.stdout)
}

/** `accepted 9800 · pending 100 · rejected 100`: the counts of each status, in a stable order. */
const statusCounts = (run) =>
  Object.entries(run.statuses)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([status, count]) => `${status} ${count}`)
    .join(' · ')

/** Seconds as shown: three decimals below a second, where two would round small sizes to nothing. */
const time = (seconds) => `${seconds.toFixed(seconds < 1 ? 3 : 2)} s`
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const results = new Map()
const python = spawnSync(PYTHON, ['--version'], { encoding: 'utf8' })
console.log(
  `core engine against its floor and the specification's reference, median of ${REPEATS} runs each (Node ${process.version}, ${(python.stdout || python.stderr).trim()})`,
)
console.log('')
console.log(
  '| cases | floor | floor + fingerprints | core | core (records) | reference (Python) | core ÷ floor | core ÷ (floor + fingerprints) | core ÷ reference | records ÷ core | reference ÷ floor | peak RSS floor | peak RSS core | peak RSS records | peak RSS reference |',
)
console.log('|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|')
for (const n of SIZES) {
  const root = mkdtempSync(join(tmpdir(), 'vitest-rubric-bench-core-'))
  try {
    const dir = join(root, 'fixture')
    await generateFixture(dir, n)
    const recordsDir = join(root, 'records-fixture')
    cpSync(dir, recordsDir, { recursive: true })
    const converted = spawnSync(process.execPath, [BIN, 'convert', recordsDir, '--to', 'records'], { encoding: 'utf8' })
    if (converted.status !== 0) throw new Error(`convert failed: ${converted.stderr}`)
    const records = []
    const floor = []
    const fingerprints = []
    const core = []
    const reference = []
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      floor.push(run('floor', dir))
      fingerprints.push(run('fingerprints', dir))
      core.push(run('core', dir))
      records.push(run('core', recordsDir))
      reference.push(run('reference', dir))
    }
    if ([...core, ...records, ...floor, ...fingerprints, ...reference].some((each) => each.cases !== n)) throw new Error(`a run did not see all ${n} cases`)
    // A faster program that decides otherwise would be no comparison.
    const decided = new Set([...core, ...records, ...reference].map(statusCounts))
    if (decided.size !== 1) throw new Error(`the core and the reference decide differently: ${[...decided].join(' / ')}`)
    const row = {
      floor: median(floor.map((each) => each.seconds)),
      fingerprints: median(fingerprints.map((each) => each.seconds)),
      core: median(core.map((each) => each.seconds)),
      records: median(records.map((each) => each.seconds)),
      recordsRss: Math.max(...records.map((each) => each.rssMiB)),
      reference: median(reference.map((each) => each.seconds)),
      floorRss: Math.max(...floor.map((each) => each.rssMiB)),
      coreRss: Math.max(...core.map((each) => each.rssMiB)),
      referenceRss: Math.max(...reference.map((each) => each.rssMiB)),
      decided: [...decided][0],
    }
    results.set(n, row)
    console.log(
      `| ${n.toLocaleString('en')} | ${time(row.floor)} | ${time(row.fingerprints)} (${(row.fingerprints / row.floor).toFixed(2)}×) | ${time(row.core)} | ${time(row.records)} | ${time(row.reference)} | ${(row.core / row.floor).toFixed(2)}× | ${(row.core / row.fingerprints).toFixed(2)}× | ${(row.core / row.reference).toFixed(2)}× | ${(row.records / row.core).toFixed(2)}× | ${(row.reference / row.floor).toFixed(2)}× | ${row.floorRss.toFixed(0)} MiB | ${row.coreRss.toFixed(0)} MiB | ${row.recordsRss.toFixed(0)} MiB | ${row.referenceRss.toFixed(0)} MiB |`,
    )
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
console.log('')
for (const [n, row] of results) console.log(`${n.toLocaleString('en')} cases, the core and the reference decided alike: ${row.decided}`)
const ordered = [...results.keys()].sort((a, b) => a - b)
if (ordered.length > 1) {
  const small = results.get(ordered[0])
  const large = results.get(ordered.at(-1))
  const factor = ordered.at(-1) / ordered[0]
  console.log('')
  console.log(
    `scaling ${ordered[0].toLocaleString('en')} → ${ordered.at(-1).toLocaleString('en')} cases (${factor}× the cases): core ${(large.core / small.core).toFixed(2)}×, floor ${(large.floor / small.floor).toFixed(2)}×, reference ${(large.reference / small.reference).toFixed(2)}×`,
  )
}
