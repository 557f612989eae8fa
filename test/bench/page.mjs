// Times the review page and the static report on generated fixtures: the server in a process of
// its own, the page in Chromium. Each size is set against the smallest, measured in the same run,
// or against `evaluate` of the same fixture; the page's own interactions against a frame.
//
//   npm run bench:page [-- sizes…]      (default: 100 20000; the first size is the floor)
//   LAYOUT=records npm run bench:page   (each fixture converted to the records layout first)
import { spawn, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { ensureChromium } from '../../scripts/ensure-chromium.mjs'
import { generateFixture } from './generate.mjs'

const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url))
const SERVER = new URL('../../dist/web/server.js', import.meta.url).href
const sizes = process.argv.slice(2).map(Number)
const SIZES = sizes.length > 0 ? sizes : [100, 20_000]
const REPEATS = 5
const LAYOUT = process.env.LAYOUT ?? 'seed'
const IDLE_SECONDS = 30
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100
const CRITERIA = JSON.parse(readFileSync(new URL('../../fixtures/docuctl-rollback/rubric.json', import.meta.url), 'utf8')).criteria.map((item) => item.id)

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const ms = (seconds) => `${(seconds * 1000).toFixed(1)} ms`
const rows = []
/** One figure with its target: `ratio` against `limit` (a ratio or, with `unit`, an absolute bound). */
function report(size, what, shown, value, limit, target) {
  rows.push({ size, what, shown, target, met: value <= limit })
  console.log(`  ${what}: ${shown} (target ${target}) ${value <= limit ? 'met' : 'NOT MET'}`)
}

function startServer(root) {
  const code = `const { startServer } = await import(${JSON.stringify(SERVER)}); const s = await startServer({ dirs: ['fixtures/bench'], cwd: ${JSON.stringify(root)}, port: 0 }); console.log(JSON.stringify({ url: s.url, token: s.token, port: s.port }))`
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let text = ''
    child.stdout.on('data', (chunk) => {
      text += chunk
      const line = text.split('\n')[0]
      if (text.includes('\n')) resolve({ child, ...JSON.parse(line) })
    })
    child.on('exit', (status) => reject(new Error(`the server exited ${status}`)))
  })
}

function http(server, path, body) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const text = body === undefined ? undefined : JSON.stringify(body)
    const call = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: text === undefined ? 'GET' : 'POST',
        headers: { 'x-rubric-token': server.token, 'content-type': 'application/json' },
      },
      (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () => {
          const seconds = Number(process.hrtime.bigint() - start) / 1e9
          const raw = Buffer.concat(chunks)
          if (response.statusCode !== 200) return reject(new Error(`${path}: ${response.statusCode} ${raw}`))
          resolve({ seconds, bytes: raw.length, value: JSON.parse(raw.toString('utf8')) })
        })
      },
    )
    call.on('error', reject)
    call.end(text)
  })
}

/** The peak resident set of a process so far (`VmHWM`), in bytes. */
function peakRss(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB/m)
  return Number(line?.[1] ?? 0) * 1024
}

/** The peak RSS of a fresh Node process that reads and parses the fixture's files and nothing else: the floor of the server's. */
function plainParseRss(dir) {
  // In the records layout: every line of every record file parsed, and kept.
  const parse =
    LAYOUT === 'records'
      ? `const records = ${JSON.stringify(join(dir, 'records'))}; const kept = require('node:fs').readdirSync(records).filter((name) => name.endsWith('.jsonl')).flatMap((name) => readFileSync(records + '/' + name, 'utf8').split('\\n').filter(Boolean).map((line) => JSON.parse(line))); kept.push(JSON.parse(readFileSync(${JSON.stringify(dir)} + '/rubric.json', 'utf8')));`
      : `const kept = ['cases.json', 'annotations.json', 'rubric.json'].map((name) => JSON.parse(readFileSync(${JSON.stringify(dir)} + '/' + name, 'utf8')));`
  const code = `const { readFileSync } = require('node:fs'); ${parse} kept.push(readFileSync(${JSON.stringify(dir)} + '/source.txt', 'utf8')); console.log(/^VmHWM:\\s+(\\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))[1] * 1024, kept.length)`
  return Number(spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' }).stdout.split(' ')[0])
}

function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / TICKS
}

/** In the page: press `key` (or type into the search), and time until `done` holds, polled each frame. */
async function timeInPage(page, action) {
  return page.evaluate(async (action) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
    const shownId = () => document.querySelector('nav.crumbs strong')?.textContent ?? null
    const before = shownId()
    const start = performance.now()
    if (action.type === 'key') document.dispatchEvent(new KeyboardEvent('keydown', { key: action.key, bubbles: true }))
    else {
      const input = document.getElementById('filter-search')
      input.value += action.text
      input.dispatchEvent(new Event('input', { bubbles: true }))
    }
    // A search is done when its frame is drawn; a move when the next case is shown.
    for (;;) {
      await frame()
      if (action.type !== 'key' || performance.now() - start > 60_000) break
      const now = shownId()
      if (now !== null && now !== before && document.getElementById('decision') !== null) break
    }
    return (performance.now() - start) / 1000
  }, action)
}

const floors = {}
const browser = await chromium.launch({
  executablePath: ensureChromium(),
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
})
try {
  for (const [at, n] of SIZES.entries()) {
    const isFloor = at === 0
    console.log(`\n${n} cases${isFloor ? ' (the floor)' : ''}`)
    const root = mkdtempSync(join(tmpdir(), 'vitest-rubric-bench-page-'))
    const dir = join(root, 'fixtures/bench')
    await generateFixture(dir, n)
    if (LAYOUT === 'records') {
      const converted = spawnSync(process.execPath, [BIN, 'convert', dir, '--to', 'records'], { encoding: 'utf8' })
      if (converted.status !== 0) throw new Error(`convert exited ${converted.status}: ${converted.stderr}`)
    }
    const server = await startServer(root)
    try {
      // Idle: four tabs open on the overview, the server's CPU time over 30 s, before any save.
      if (!isFloor) {
        const tabs = []
        for (let tab = 0; tab < 4; tab++) {
          const each = await browser.newPage()
          await each.goto(server.url)
          await each.waitForSelector('tr.case-row', { timeout: 300_000 })
          tabs.push(each)
        }
        // Idle once the tabs have settled: their first requests, and the garbage they left, are not idling.
        await new Promise((resolve) => setTimeout(resolve, 5000))
        const before = cpuSeconds(server.child.pid)
        await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000))
        const share = (cpuSeconds(server.child.pid) - before) / IDLE_SECONDS
        report(n, `idle server CPU, 4 tabs over ${IDLE_SECONDS} s`, `${(share * 100).toFixed(2)}% of a core`, share, 0.01, '< 1%')
        for (const each of tabs) await each.close()
      }
      const caseUrl = (id) => `/api/case?fixture=0&id=${id}&viewer=reader`
      // GET of a case, after one untimed request.
      await http(server, caseUrl('case-000042'))
      const gets = []
      for (let repeat = 0; repeat < REPEATS * 2; repeat++)
        gets.push((await http(server, caseUrl(`case-${String((repeat * 37) % n).padStart(6, '0')}`))).seconds)
      const get = median(gets)
      const overview = await http(server, '/api/overview?viewer=reader')
      console.log(`  GET /api/overview: ${ms(overview.seconds)}, ${(overview.bytes / 1024 / 1024).toFixed(2)} MiB`)
      // The server holding the fixture, four tabs served and no save yet.
      const servingPeak = peakRss(server.child.pid)
      // A save of a pending case, replacing its review, its versions read first (untimed).
      const saves = []
      let saveBytes = 0
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        const id = `case-${String(42 + 100 * (repeat % Math.max(1, Math.floor(n / 100)))).padStart(6, '0')}`
        const shown = (await http(server, caseUrl(id))).value
        // Saved as uncertain last, so that the case is still pending for `n`.
        const rating = repeat % 2 === 0 ? 'uncertain' : 'meets'
        const draft = Object.fromEntries(
          CRITERIA.map((criterion) => [criterion, { rating, reason: 'Read in the benchmark.', answer_span: 'check service health' }]),
        )
        const saved = await http(server, '/api/review', { fixture: 0, id, draft, versions: shown.versions, replace: shown.existing })
        saves.push(saved.seconds)
        saveBytes = saved.bytes
      }
      const save = median(saves)
      if (isFloor) Object.assign(floors, { get, save })
      console.log(`  GET /api/case: ${ms(get)}; save: ${ms(save)}, answered with ${(saveBytes / 1024).toFixed(1)} KiB`)
      if (!isFloor) {
        report(n, 'GET of a case ÷ the floor', `${(get / floors.get).toFixed(2)}× (${ms(get)} against ${ms(floors.get)})`, get / floors.get, 2, '≤ 2×')
        report(n, 'save ÷ the floor', `${(save / floors.save).toFixed(2)}× (${ms(save)} against ${ms(floors.save)})`, save / floors.save, 2, '≤ 2×')
      }

      // The page in Chromium: first useful paint of the overview (its first case row drawn).
      const paints = []
      for (let repeat = 0; repeat < 3; repeat++) {
        const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
        const start = Date.now()
        // Until the first case row is in the page, not until the load event (a report's cases are read after its overview).
        await page.goto(server.url, { waitUntil: 'commit' })
        await page.waitForSelector('tr.case-row', { timeout: 300_000 })
        paints.push((Date.now() - start) / 1000)
        await page.close()
      }
      const paint = median(paints)
      report(n, 'first useful paint of the overview', ms(paint), paint, 1, '≤ 1 s')

      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
      await page.goto(server.url)
      await page.waitForSelector('tr.case-row', { timeout: 300_000 })
      const keystrokes = []
      for (const text of ['c', 'a', 's', 'e', '-', '0', '0', '1']) keystrokes.push(await timeInPage(page, { type: 'search', text }))
      const keystroke = median(keystrokes)
      report(n, `search keystroke (median of 8; slowest ${ms(Math.max(...keystrokes))})`, ms(keystroke), keystroke, 0.05, '≤ 50 ms')
      await page.evaluate(() => {
        const input = document.getElementById('filter-search')
        input.value = ''
        input.dispatchEvent(new Event('input', { bubbles: true }))
      })
      await page.evaluate(() => (location.hash = '#/f/0/c/case-000000'))
      await page.waitForSelector('#decision', { timeout: 300_000 })
      const moves = { j: [], n: [] }
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        moves.j.push(await timeInPage(page, { type: 'key', key: 'j' }))
        moves.n.push(await timeInPage(page, { type: 'key', key: 'n' }))
      }
      for (const key of ['j', 'n'])
        report(n, `\`${key}\` to the next case shown (median of ${REPEATS})`, ms(median(moves[key])), median(moves[key]), 0.05, '≤ 50 ms')
      await page.close()

      // The server's peak RSS over everything above, against a plain parse of the fixture's files.
      if (!isFloor) {
        const peak = peakRss(server.child.pid)
        const plain = plainParseRss(dir)
        const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`
        console.log(`  server's peak RSS before the first save: ${mib(servingPeak)} (${(servingPeak / plain).toFixed(2)}× a plain parse)`)
        report(
          n,
          "server's peak RSS ÷ a plain parse of the fixture's files",
          `${(peak / plain).toFixed(2)}× (${mib(peak)} against ${mib(plain)})`,
          peak / plain,
          1.5,
          '≤ 1.5×',
        )
      }
    } finally {
      server.child.kill()
    }

    // The static report against `evaluate --json` of the same fixture, in fresh processes.
    const timed = (args) => {
      const seconds = []
      for (let repeat = 0; repeat < 3; repeat++) {
        const start = process.hrtime.bigint()
        const run = spawnSync(process.execPath, [BIN, ...args], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
        seconds.push(Number(process.hrtime.bigint() - start) / 1e9)
        if (run.status !== 0 && !(args[0] === 'evaluate' && run.status === 1)) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`)
      }
      return median(seconds)
    }
    const evaluate = timed(['evaluate', 'fixtures/bench', '--json'])
    const html = timed(['report', '--html', 'fixtures/bench', '--out', 'report.html'])
    const bytes = statSync(join(root, 'report.html')).size
    const files =
      LAYOUT === 'records'
        ? ['rubric.json', 'source.txt', ...readdirSync(join(dir, 'records')).map((name) => join('records', name))]
        : ['cases.json', 'annotations.json', 'rubric.json', 'source.txt']
    const fixtureBytes = files.reduce((sum, name) => sum + statSync(join(dir, name)).size, 0)
    console.log(
      `  report --html: ${(bytes / 1024 / 1024).toFixed(2)} MiB, ${(bytes / n / 1024).toFixed(2)} KiB per case (the fixture's files: ${(fixtureBytes / 1024 / 1024).toFixed(2)} MiB)`,
    )
    report(
      n,
      'report --html ÷ evaluate --json',
      `${(html / evaluate).toFixed(2)}× (${html.toFixed(2)} s against ${evaluate.toFixed(2)} s)`,
      html / evaluate,
      3,
      '≤ 3×',
    )
    report(n, "report's size ÷ the fixture's files", `${(bytes / fixtureBytes).toFixed(2)}×`, bytes / fixtureBytes, 3, '≤ 3×')
    const paints = []
    for (let repeat = 0; repeat < 3; repeat++) {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
      const start = Date.now()
      await page.goto(pathToFileURL(join(root, 'report.html')).href, { waitUntil: 'commit' })
      await page.waitForSelector('tr.case-row', { timeout: 300_000 })
      paints.push((Date.now() - start) / 1000)
      await page.close()
    }
    report(n, 'first useful paint of the report from file://', ms(median(paints)), median(paints), 1, '≤ 1 s')
    rmSync(root, { recursive: true, force: true })
  }
} finally {
  await browser.close()
}

console.log(`\nThe ${LAYOUT} layout`)
console.log('\n| cases | figure | measured | target | met |\n|--:|---|---|---|---|')
for (const row of rows) console.log(`| ${row.size} | ${row.what} | ${row.shown} | ${row.target} | ${row.met ? 'yes' : 'no'} |`)
