// Times `vitest run` through the plugin against the same number of plain generated test() calls,
// in the same run, and prints the ratio, the peak resident memory of each, and the CPU time of
// Vitest's main process and of its test workers.
//
//   npm run bench:plugin [-- sizes…]      (default: 1000 10000 100000)
//   LAYOUT=records node test/bench/plugin-vs-plain.mjs [sizes…]   (the same fixture in the records layout)
//   CHUNKS=25000 …   (the plugin splits the fixture into test modules of at most that many cases)
//   REPEATS=1 WARMUP=0 …   (one run of each, none to warm the caches first: for 1,000,000 cases)
import { execFileSync, spawn } from 'node:child_process'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateFixture, generatePlainTests, generateRecordsFixture } from './generate.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')
const sizes = process.argv.slice(2).map(Number)
const SIZES = sizes.length > 0 ? sizes : [1_000, 10_000, 100_000]
const LAYOUT = process.env.LAYOUT ?? 'seed'
const CHUNKS = process.env.CHUNKS === undefined ? '' : `, chunks: { size: ${Number(process.env.CHUNKS)} }`

/** Clock ticks per second, the unit of a process's CPU time in /proc/<pid>/stat. */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100
  } catch {
    return 100
  }
})()

/**
 * Peak RSS of a process tree (each process's high-water mark) and CPU time of each of its
 * processes (user and system), read from /proc while it runs, every 50 ms: a process's CPU time
 * is its last sample, up to 50 ms short.
 */
function watchPeak(rootPid) {
  const peaks = new Map()
  const cpu = new Map()
  const sample = () => {
    const tree = new Set([rootPid])
    let grew = true
    const stats = []
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        stats.push([Number(entry), Number(fields[1]), (Number(fields[11]) + Number(fields[12])) / TICKS])
      } catch {}
    }
    while (grew) {
      grew = false
      for (const [pid, parent] of stats) {
        if (tree.has(parent) && !tree.has(pid)) {
          tree.add(pid)
          grew = true
        }
      }
    }
    for (const [pid, , seconds] of stats) if (tree.has(pid)) cpu.set(pid, Math.max(cpu.get(pid) ?? 0, seconds))
    for (const pid of tree) {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
        peaks.set(pid, Math.max(peaks.get(pid) ?? 0, kb))
      } catch {}
    }
  }
  const timer = setInterval(sample, 50)
  return () => {
    clearInterval(timer)
    sample()
    const values = [...peaks.values()]
    const workers = [...cpu].filter(([pid]) => pid !== rootPid).reduce((sum, [, seconds]) => sum + seconds, 0)
    return { sumMiB: values.reduce((a, b) => a + b, 0) / 1024, maxMiB: Math.max(0, ...values) / 1024, mainCpu: cpu.get(rootPid) ?? 0, workersCpu: workers }
  }
}

function runVitest(root) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn(process.execPath, [VITEST, 'run', '--reporter=default'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, CI: 'true', NO_COLOR: '1' },
    })
    const stop = watchPeak(child.pid)
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('exit', (code) => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9
      const memory = stop()
      // Both runs have failing tests on purpose (rejected cases): exit code 1 is expected.
      if (code !== 1 && code !== 0) reject(new Error(`vitest exited with ${code}: ${stderr.slice(-2000)}`))
      else resolve({ seconds, ...memory })
    })
  })
}

async function project(kind, n) {
  const root = await mkdtemp(join(tmpdir(), `vitest-rubric-bench-${kind}-`))
  if (kind === 'plugin') {
    // The records layout's lines as `convert --to records` writes them, written record by record:
    // past about 409,000 cases there is no seed layout to convert from.
    if (LAYOUT === 'records') await generateRecordsFixture(join(root, 'fixtures/bench'), n)
    else await generateFixture(join(root, 'fixtures/bench'), n)
    // Installed as a user installs it, in node_modules: Vite then loads the plugin as it is, where an
    // import by path would have it bundle the plugin into the config file on every run.
    await mkdir(join(root, 'node_modules'), { recursive: true })
    await symlink(ROOT, join(root, 'node_modules/vitest-rubric'), 'dir')
    await writeFile(
      join(root, 'vitest.config.mjs'),
      `import { rubric } from 'vitest-rubric/plugin'\nexport default { plugins: [rubric({ reporter: { outputFile: false }${CHUNKS} })], test: { include: [] } }\n`,
    )
  } else {
    await generatePlainTests(join(root, 'plain.test.mjs'), n)
    await writeFile(join(root, 'vitest.config.mjs'), `export default { test: { include: ['plain.test.mjs'] } }\n`)
  }
  return root
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** The plugin's plan cache lives in Vite's cache directory below the project. */
const clearPlanCache = (root) => rmSync(join(root, 'node_modules/.vite'), { recursive: true, force: true })

console.log(`node ${process.version}; the fixture in the ${LAYOUT} layout; runs interleaved, median of the repeats; peak RSS as max process / sum of processes`)
console.log('  cold: the plugin decides every case (no plan cache); warm: files unchanged since the last run')
console.log('cases      plain s   cold s  ratio   warm s  ratio   plain RSS MiB   cold RSS MiB   warm RSS MiB')
const cpuLines = []
for (const n of SIZES) {
  const roots = { plain: await project('plain', n), plugin: await project('plugin', n) }
  const repeats = Number(process.env.REPEATS ?? (n >= 100_000 ? 3 : 5))
  const samples = { plain: [], cold: [], warm: [] }
  if (process.env.WARMUP !== '0') {
    await runVitest(roots.plain) // warm the file system cache once
    await runVitest(roots.plugin)
  }
  for (let repeat = 0; repeat < repeats; repeat++) {
    samples.plain.push(await runVitest(roots.plain))
    clearPlanCache(roots.plugin)
    samples.cold.push(await runVitest(roots.plugin))
    samples.warm.push(await runVitest(roots.plugin))
  }
  const seconds = (kind) => median(samples[kind].map((sample) => sample.seconds))
  const peak = (kind) => {
    const max = Math.max(...samples[kind].map((sample) => sample.maxMiB))
    const sum = Math.max(...samples[kind].map((sample) => sample.sumMiB))
    return `${max.toFixed(0)} / ${sum.toFixed(0)}`
  }
  const plain = seconds('plain')
  const cell = (kind) => `${seconds(kind).toFixed(2).padStart(6)}  ${(seconds(kind) / plain).toFixed(2).padStart(4)}×`
  console.log(
    `${String(n).padEnd(10)} ${plain.toFixed(2).padStart(7)}   ${cell('cold')}   ${cell('warm')}   ${peak('plain').padStart(13)}  ${peak('cold').padStart(13)}  ${peak('warm').padStart(13)}`,
  )
  const cpu = (kind) =>
    `${median(samples[kind].map((sample) => sample.mainCpu)).toFixed(2)} · ${median(samples[kind].map((sample) => sample.workersCpu)).toFixed(2)}`
  cpuLines.push(`${String(n).padEnd(10)} ${cpu('plain').padStart(13)}  ${cpu('cold').padStart(13)}  ${cpu('warm').padStart(13)}`)
  await Promise.all(Object.values(roots).map((root) => rm(root, { recursive: true, force: true })))
}
console.log(
  "\nCPU seconds of Vitest's main process · of the processes it starts (test workers, and the planning process of a large fixture), median of the repeats",
)
console.log('cases              plain           cold           warm')
for (const line of cpuLines) console.log(line)
