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
//   npm run bench [-- sizes…]      (default: 10000 100000)
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateFixture } from './generate.mjs'

const sizes = process.argv.slice(2).filter((arg) => /^\d+$/.test(arg)).map(Number)
const SIZES = sizes.length > 0 ? sizes : [10_000, 100_000]
const REPEATS = 3
const SELF = fileURLToPath(import.meta.url)
const INDEX = new URL('../../dist/index.js', import.meta.url).href

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
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  return { seconds, cases, rssMiB: process.resourceUsage().maxRSS / 1024 }
}

if (process.argv[2] === '--measure') {
  console.log(JSON.stringify(await measure(process.argv[3], process.argv[4])))
  process.exit(0)
}

function run(mode, dir) {
  const child = spawnSync(process.execPath, [SELF, '--measure', mode, dir], { encoding: 'utf8' })
  if (child.status !== 0) throw new Error(`${mode} failed: ${child.stderr}`)
  return JSON.parse(child.stdout)
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const results = new Map()
console.log(`core engine against its floor, median of ${REPEATS} runs each (Node ${process.version})`)
console.log('')
console.log('| cases | floor | floor + fingerprints | core | core ÷ floor | core ÷ (floor + fingerprints) | peak RSS floor | peak RSS core |')
console.log('|--:|--:|--:|--:|--:|--:|--:|--:|')
for (const n of SIZES) {
  const root = mkdtempSync(join(tmpdir(), 'vitest-rubric-bench-core-'))
  try {
    const dir = join(root, 'fixture')
    await generateFixture(dir, n)
    const floor = []
    const fingerprints = []
    const core = []
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      floor.push(run('floor', dir))
      fingerprints.push(run('fingerprints', dir))
      core.push(run('core', dir))
    }
    if ([...core, ...floor, ...fingerprints].some((each) => each.cases !== n)) throw new Error(`a run did not see all ${n} cases`)
    const row = {
      floor: median(floor.map((each) => each.seconds)),
      fingerprints: median(fingerprints.map((each) => each.seconds)),
      core: median(core.map((each) => each.seconds)),
      floorRss: Math.max(...floor.map((each) => each.rssMiB)),
      coreRss: Math.max(...core.map((each) => each.rssMiB)),
    }
    results.set(n, row)
    console.log(
      `| ${n.toLocaleString('en')} | ${row.floor.toFixed(2)} s | ${row.fingerprints.toFixed(2)} s (${(row.fingerprints / row.floor).toFixed(2)}×) | ${row.core.toFixed(2)} s | ${(row.core / row.floor).toFixed(2)}× | ${(row.core / row.fingerprints).toFixed(2)}× | ${row.floorRss.toFixed(0)} MiB | ${row.coreRss.toFixed(0)} MiB |`,
    )
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
const ordered = [...results.keys()].sort((a, b) => a - b)
if (ordered.length > 1) {
  const small = results.get(ordered[0])
  const large = results.get(ordered.at(-1))
  const factor = ordered.at(-1) / ordered[0]
  console.log('')
  console.log(`scaling ${ordered[0].toLocaleString('en')} → ${ordered.at(-1).toLocaleString('en')} cases (${factor}× the cases): core ${(large.core / small.core).toFixed(2)}×, floor ${(large.floor / small.floor).toFixed(2)}×`)
}
