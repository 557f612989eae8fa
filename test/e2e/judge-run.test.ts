import { spawn } from 'node:child_process'
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { DOCUCTL, ROOT, type AnnotationsJson, type CasesJson } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

const BIN = join(ROOT, 'dist/cli/bin.js')
const KEYWORDS = join(ROOT, 'examples/judges/keyword-judge.mjs')

/** The built bin, run as a child process in `cwd` (it must be, to be stopped by a signal). */
function bin(cwd: string, ...args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}

/** A copy of the bundled fixture (8 cases, 5 criteria: 40 labels) and a directory for judge modules. */
async function project(): Promise<{ root: string; labels: () => Promise<AnnotationsJson> }> {
  const root = await scratchDir('judge-run')
  await cp(DOCUCTL, join(root, 'lab'), { recursive: true })
  return { root, labels: async () => JSON.parse(await readFile(join(root, 'lab/judges/kw.json'), 'utf8')) as AnnotationsJson }
}

/** A judge module wrapping the keyword judge: `body` runs before each call, with `calls` counting them. */
async function wrapper(root: string, name: string, body: string): Promise<string> {
  const path = join(root, name)
  await writeFile(
    path,
    `import keywords from ${JSON.stringify(KEYWORDS)}\nlet calls = 0\nexport default async (input) => {\n  calls++\n${body}\n  return keywords(input)\n}\n`,
  )
  return path
}

const labelCount = (file: AnnotationsJson) => file.reviews.reduce((sum, review) => sum + Object.keys(review.judgements).length, 0)

describe('vitest-rubric judge', { timeout: 120_000 }, () => {
  test('judges every pair once; a second run judges nothing; an answer edit judges that case again', async () => {
    const { root, labels } = await project()
    const first = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', KEYWORDS)
    expect(first.code).toBe(0)
    expect(first.stdout).toBe('lab\n  judge kw: wrote 40 labels of 40 to judge in 8 cases (0 were current), 0 failed\n  wrote lab/judges/kw.json\n')
    // Without a terminal, a plain progress line at each write.
    expect(first.stderr).toMatch(/^judge kw: 40 done, 0 failed, 0 remaining · [\d.,]+\/s · ETA 0s\n$/)
    const file = await labels()
    expect(labelCount(file)).toBe(40)
    expect(file.origin).toMatch(/^keyword rules r1 \(judge module .*keyword-judge\.mjs, sha256 [0-9a-f]{16}\)$/)
    expect(file.reviews.find((review) => review.answer_id === 'wrong-command')!.judgements['command']!.rating).toBe('does_not_meet')
    // The labels are current: calibrate counts every one.
    const calibration = JSON.parse((await bin(root, 'calibrate', 'lab', '--json')).stdout)
    expect(calibration.judges.kw).toMatchObject({ cases: 7, stale: 0, refused_cases: [] })

    const again = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', KEYWORDS)
    expect(again).toMatchObject({ code: 0, stdout: 'lab\n  judge kw: nothing to judge: 40 labels of 8 cases are current\n' })
    const unchanged = await readFile(join(root, 'lab/judges/kw.json'), 'utf8')

    const casesPath = join(root, 'lab/cases.json')
    const cases = JSON.parse(await readFile(casesPath, 'utf8')) as CasesJson
    const edited = cases.cases.find((entry) => entry.id === 'negation')!
    edited.input.answer.text += ' Check service health afterwards.'
    await writeFile(casesPath, `${JSON.stringify(cases, null, 2)}\n`)
    const dry = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', KEYWORDS, '--dry-run')
    expect(dry.stdout).toBe('lab\n  judge kw: would judge 5 labels of 1 case (35 current); dry run: nothing was called or written\n')
    expect(await readFile(join(root, 'lab/judges/kw.json'), 'utf8')).toBe(unchanged)

    const edit = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', KEYWORDS)
    expect(edit.stdout).toBe('lab\n  judge kw: wrote 5 labels of 5 to judge in 1 case (35 were current), 0 failed\n  wrote lab/judges/kw.json\n')
    const after = await labels()
    expect(after.reviews).toHaveLength(8)
    // The edited answer now meets verification, which it did not before; the other cases' labels are as they were.
    expect(after.reviews.find((review) => review.answer_id === 'negation')!.judgements['verification']!.rating).toBe('meets')
    expect(after.reviews.filter((review) => review.answer_id !== 'negation')).toEqual(
      JSON.parse(unchanged).reviews.filter((review: { answer_id: string }) => review.answer_id !== 'negation'),
    )
  })

  test('a call that keeps throwing is retried, then reported as a failure; nothing is written for it, and the next run tries it again', async () => {
    const { root, labels } = await project()
    const judge = await wrapper(
      root,
      'flaky.mjs',
      `  if (input.case.id === 'complete' && input.criterion.id === 'support') throw new Error('model overloaded (call ' + calls + ')')`,
    )
    const run = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', judge, '--retries', '2', '--concurrency', '1')
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(
      /wrote 39 labels of 40 to judge in 8 cases \(0 were current\), 1 failed\n {2}failed: complete › support after 3 calls: model overloaded \(call \d+\)\n/,
    )
    const file = await labels()
    expect(labelCount(file)).toBe(39)
    expect(Object.keys(file.reviews.find((review) => review.answer_id === 'complete')!.judgements)).not.toContain('support')

    // An invalid verdict (a span the answer does not hold) is a failure too, never a label.
    const paraphrasing = join(root, 'paraphrasing.mjs')
    await writeFile(paraphrasing, `export default async () => ({ rating: 'meets', reason: 'Supported.', span: 'words the answer never says' })\n`)
    const invalid = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', paraphrasing, '--retries', '0')
    expect(invalid.stdout).toContain('failed: complete › support after 1 call: invalid verdict for support: the span does not occur in the answer.')
    expect(labelCount(await labels())).toBe(39)

    const retry = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', KEYWORDS)
    expect(retry.stdout).toContain('wrote 1 label of 1 to judge in 1 case (39 were current), 0 failed')
    expect(labelCount(await labels())).toBe(40)
  })

  test('a run killed midway keeps the labels it wrote, and the next run judges only the rest', async () => {
    const { root, labels } = await project()
    const judge = await wrapper(
      root,
      'killed.mjs',
      `  await new Promise((resolve) => setTimeout(resolve, 50))\n  if (calls === 23) process.kill(process.pid, 'SIGKILL')`,
    )
    const killed = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', judge, '--batch', '5', '--concurrency', '1')
    expect(killed.signal).toBe('SIGKILL')
    const kept = labelCount(await labels())
    expect(kept).toBeGreaterThanOrEqual(5)
    expect(kept).toBeLessThan(23)

    const rerun = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', KEYWORDS)
    expect(rerun.stdout).toContain(`wrote ${40 - kept} labels of ${40 - kept} to judge`)
    expect(labelCount(await labels())).toBe(40)
  })

  test('Ctrl-C writes what is finished and exits 130', async () => {
    const { root, labels } = await project()
    const judge = await wrapper(
      root,
      'interrupted.mjs',
      `  await new Promise((resolve) => setTimeout(resolve, 5))\n  if (calls === 12) process.kill(process.pid, 'SIGINT')`,
    )
    const stopped = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', judge, '--concurrency', '1')
    expect(stopped.code).toBe(130)
    const kept = labelCount(await labels())
    // The calls finished before the signal, all written though no batch was full; the one in flight is not waited for.
    expect(kept).toBeGreaterThanOrEqual(11)
    expect(kept).toBeLessThanOrEqual(12)
    expect(stopped.stderr).toContain(`stopped: ${kept} labels were written; run the command again to judge the rest.`)
    const rerun = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', KEYWORDS)
    expect(rerun.stdout).toContain(`wrote ${40 - kept} labels of ${40 - kept} to judge`)
  })

  test('judgeCase is called once per case with the criteria it needs; a scored fixture and a module without a judge are refused', async () => {
    const { root, labels } = await project()
    const perCase = join(root, 'per-case.mjs')
    await writeFile(
      perCase,
      `import keywords from ${JSON.stringify(KEYWORDS)}\nexport async function judgeCase(input) {\n  return Object.fromEntries(await Promise.all(input.criteria.map(async (criterion) => [criterion.id, await keywords({ ...input, criterion })])))\n}\n`,
    )
    const run = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', perCase)
    expect(run.stdout).toContain('wrote 40 labels of 40 to judge in 8 cases')
    expect(labelCount(await labels())).toBe(40)

    await cp(join(ROOT, 'fixtures/debate-benchmark'), join(root, 'debate'), { recursive: true })
    const scored = await bin(root, 'judge', 'debate', '--judge', 'kw', '--run', KEYWORDS)
    expect(scored.code).toBe(2)
    expect(scored.stderr).toContain(
      "debate: a judge runs on a criteria fixture; this one is scored, and its judges' labels are not calibrated yet. Nothing was judged.",
    )

    const empty = join(root, 'empty.mjs')
    await writeFile(empty, 'export const judge = 1\n')
    const none = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', empty)
    expect(none.code).toBe(2)
    expect(none.stderr.split('\n\n')[0]).toMatchInlineSnapshot(`
      "empty.mjs: the module exports no judge; nothing was judged.
        expected: export default async ({ question, answer, source, criterion, rubric, case }) => ({ rating, reason, span }), or export async function judgeCase({ …, criteria }) returning { <criterion id>: { rating, reason, span } }
        found:    exports: judge
        fix:      export one of the two (see docs/judges.md#running-a-judge)."
    `)
  })
})

describe('a judge module that misbehaves', { timeout: 120_000 }, () => {
  test('a call that never settles is given up after --timeout, reported per case, and the run exits 1; the other labels are written', async () => {
    const { root, labels } = await project()
    const judge = await wrapper(root, 'hanging.mjs', `  if (input.case.id === 'complete') return new Promise(() => {})`)
    const run = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', judge, '--timeout', '0.5', '--retries', '0')
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('wrote 35 labels of 40 to judge in 8 cases (0 were current), 5 failed\n')
    expect(run.stdout).toContain('  failed: complete › command after 1 call: no verdict within 0.5 s: the call timed out and was given up\n')
    expect(run.stdout.match(/failed: complete › \w+ after 1 call: no verdict within 0\.5 s/g)).toHaveLength(5)
    expect(labelCount(await labels())).toBe(35)

    const bad = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', judge, '--timeout', '0')
    expect(bad.code).toBe(2)
    expect(bad.stderr.split('\n')[0]).toBe('vitest-rubric judge: --timeout takes a number of seconds greater than 0 (at most 2147483), not "0".')
  })

  test('process.exit in a call stops the run: what was finished is written, and it exits 3 saying so', async () => {
    const { root, labels } = await project()
    const judge = await wrapper(root, 'exiting.mjs', `  if (calls === 12) process.exit(0)`)
    const run = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', judge, '--concurrency', '1')
    expect(run.code).toBe(3)
    expect(run.stdout).toContain('wrote 11 labels of 40 to judge in 8 cases (0 were current), 0 failed, stopped before the end\n')
    expect(run.stderr).toContain(
      'judge kw: the run was stopped: the judge module called process.exit(0). 11 labels were written; the next run judges the rest. A judge returns its verdict, or throws: it never ends the process.\n',
    )
    expect(labelCount(await labels())).toBe(11)

    // An error thrown outside any call (in a timer) stops the run the same way, instead of crashing it.
    const throwing = await wrapper(
      root,
      'throwing.mjs',
      `  if (calls === 3) { setTimeout(() => { throw new Error('socket closed') }, 0); await new Promise((resolve) => setTimeout(resolve, 1000)) }`,
    )
    const crashed = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', throwing, '--concurrency', '1')
    expect(crashed.code).toBe(3)
    expect(crashed.stderr).toContain('judge kw: the run was stopped: the judge module threw outside a call: socket closed. 2 labels were written;')
    expect(labelCount(await labels())).toBe(13)
  })

  test('a verdict over the size limits is refused for its case and criterion; the other labels are written', async () => {
    const { root, labels } = await project()
    const judge = await wrapper(
      root,
      'verbose.mjs',
      `  if (input.case.id === 'complete' && input.criterion.id === 'support') return { rating: 'meets', reason: 'x'.repeat(5_000_000) }
  if (input.case.id === 'paraphrase' && input.criterion.id === 'command') return { rating: 'meets', reason: 'y'.repeat(4_001) }`,
    )
    const run = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', judge, '--retries', '0')
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('wrote 38 labels of 40 to judge in 8 cases (0 were current), 2 failed\n')
    expect(run.stdout).toContain(
      '  failed: complete › support after 1 call: invalid verdict for support: it is 5,000,030 characters as JSON, more than the 32,000 a verdict may have\n',
    )
    expect(run.stdout).toContain('  failed: paraphrase › command after 1 call: invalid verdict for command › reason: a reason of at most 4,000 characters\n')
    expect(labelCount(await labels())).toBe(38)
  })

  test('a verdict for a criterion the rubric does not define is refused, naming it and the criterion meant', async () => {
    const { root, labels } = await project()
    const perCase = join(root, 'misnamed.mjs')
    await writeFile(
      perCase,
      `import keywords from ${JSON.stringify(KEYWORDS)}
export async function judgeCase(input) {
  const verdicts = Object.fromEntries(await Promise.all(input.criteria.map(async (criterion) => [criterion.id, await keywords({ ...input, criterion })])))
  if (input.case.id === 'complete') verdicts.comand = verdicts.command
  return verdicts
}
`,
    )
    const run = await bin(root, 'judge', 'lab', '--judge', 'kw', '--run', perCase, '--retries', '0')
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('wrote 35 labels of 40 to judge in 8 cases (0 were current), 5 failed\n')
    expect(run.stdout).toContain(
      '  failed: complete › command after 1 call: the judge returned a verdict for "comand", a criterion lab/rubric.json does not define (did you mean "command"?)\n',
    )
    expect(labelCount(await labels())).toBe(35)
  })
})
