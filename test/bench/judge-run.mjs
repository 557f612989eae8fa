// Times `vitest-rubric judge` with the example keyword judge on a generated criteria fixture, and a
// bulk import of the same labels with `review --judge --from`, against `vitest-rubric evaluate` of
// the same fixture in the same run: a first run (every case × criterion), a second run (nothing to
// judge), a run after one answer is edited (one case), then the import. The first run is made on a
// pseudo-terminal (`script`), so it draws the progress bar as a user sees it.
//
//   npm run bench:judge [-- cases]      (default: 10000)
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateFixture } from './generate.mjs'

const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url))
const JUDGE = fileURLToPath(new URL('../../examples/judges/keyword-judge.mjs', import.meta.url))
const n = Number(process.argv[2] ?? 10_000)

/** Wall time of one command in a fresh process, in seconds; `terminal` runs it on a pseudo-terminal. */
function time(args, cwd, terminal = false) {
  const start = process.hrtime.bigint()
  const quoted = [process.execPath, BIN, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ')
  const run = terminal
    ? spawnSync('script', ['-qec', `stty cols 120 rows 40; ${quoted}`, '/dev/null'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' })
    : spawnSync(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' })
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}${run.stdout}`)
  return { seconds, stdout: run.stdout }
}

const root = mkdtempSync(join(tmpdir(), 'vitest-rubric-bench-judge-'))
try {
  await generateFixture(join(root, 'fixture'), n)
  const floor = time(['evaluate', 'fixture'], root).seconds
  const judge = (terminal = false) => time(['judge', 'fixture', '--judge', 'keywords', '--run', JUDGE, '--concurrency', '8'], root, terminal)
  const first = judge(true)
  // The frames of the bar, colours and cursor moves taken out: one from the middle of the run.
  const frames = first.stdout
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's escape sequences are what is taken out
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/[\r\n◒◐◓◑]/)
    .filter((frame) => frame.includes('remaining'))
  const bar = frames[Math.floor(frames.length / 3)]
  const second = judge()
  const casesPath = join(root, 'fixture/cases.json')
  const cases = JSON.parse(readFileSync(casesPath, 'utf8'))
  cases.cases[n >> 1].input.answer.text += ' Check service health afterwards.'
  writeFileSync(casesPath, JSON.stringify(cases))
  const edited = judge()
  const after = time(['evaluate', 'fixture'], root).seconds
  // The same labels, imported: one JSON Lines file of every case.
  const labels = JSON.parse(readFileSync(join(root, 'fixture/judges/keywords.json'), 'utf8')).reviews
  const lines = labels.map((review) =>
    JSON.stringify({
      case: review.answer_id,
      judgements: Object.fromEntries(
        Object.entries(review.judgements).map(([id, j]) => [id, { rating: j.rating, reason: j.reason, answer_span: j.answer_span }]),
      ),
    }),
  )
  writeFileSync(join(root, 'labels.jsonl'), `${lines.join('\n')}\n`)
  const imported = time(['review', 'fixture', '--judge', 'imported', '--from', 'labels.jsonl'], root).seconds
  const cell = (seconds) => `${seconds.toFixed(2)} s (${(seconds / floor).toFixed(2)}×)`
  console.log(`a frame of the bar: ${bar?.trim()}`)
  console.log(
    `${first.stdout
      .split('\n')
      .filter((line) => line.includes('judge keywords:'))
      .at(-1)
      ?.trim()}`,
  )
  console.log(
    '| cases | evaluate (floor) | judge, first run | judge, nothing to do | judge, one answer edited | review --judge --from (bulk) | evaluate, with the labels |',
  )
  console.log('|--:|--:|--:|--:|--:|--:|--:|')
  console.log(
    `| ${n} | ${floor.toFixed(2)} s | ${cell(first.seconds)} | ${cell(second.seconds)} | ${cell(edited.seconds)} | ${cell(imported)} | ${cell(after)} |`,
  )
  console.log(second.stdout.trim().split('\n').at(-1).trim())
  console.log(edited.stdout.trim().split('\n')[1].trim())
} finally {
  rmSync(root, { recursive: true, force: true })
}
