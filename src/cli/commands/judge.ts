import { plural } from '../../core/common/primitives.js'
import { ReadStream } from 'node:tty'
import { progress } from '@clack/prompts'
import { kinds } from '../../core/registry.js'
import { loadJudgeModule } from '../../core/judges/judge-module.js'
import { DEFAULT_JUDGE_TIMEOUT_MS, MAX_REASON_CHARACTERS, MAX_VERDICT_CHARACTERS, runJudge } from '../../core/judges/judge-run.js'
import type { JudgeProgress, JudgeRunResult } from '../../core/judges/judge-types.js'
import { formatShard, MAX_SHARDS, parseShard } from '../../core/judges/judge-shard.js'
import { oneDir, requiredOption, stringOption, stringOptions, usage, wholeNumberOption, type CliIo, type Command } from '../command.js'

/** `vitest-rubric judge <dir> --judge <name> --run <module>`: an automated judge run over the labels it lacks. */
export const judge: Command = {
  name: 'judge',
  summary: 'run an automated judge over the cases it has no current label for, writing judges/<name>.json',
  help: `Usage: vitest-rubric judge <dir> --judge <name> --run <module> [--concurrency <n>] [--retries <n>]
                           [--timeout <s>] [--batch <n>] [--shard <k>/<n>] [--dry-run]

Calls a judge module for every case × criterion of a criteria fixture without a current label by
the judge (a label bound to the answer, the source and the rubric as they are) and records the
verdicts in judges/<name>.json, as \`vitest-rubric review --judge\` records one. A second run
calls nothing; after an answer is edited, only that case is judged again. After a rubric
revision, a judge called once per criterion (a default export) judges again only the criteria
whose rule or reference quote changed, or that are new, when the rubric its labels were bound to
is committed in git: the labels of the unchanged criteria are carried over, re-bound to the
rubric as it is, and the file's origin says how many were carried over and from which revision. A
judgeCase module judges each such case again whole.

The module exports either a default async function ({ question, answer, source, criterion,
rubric, case }) => ({ rating, reason, span }), called once per case × criterion, or judgeCase
({ question, answer, source, criteria, rubric, case }) => ({ <criterion id>: { rating, reason,
span } }), called once per case with the criteria it still needs. span is an exact excerpt of the
answer ("" or left out for an omission). The file's origin names the module (its export
description, if any) and its version: its package's name@version, or the SHA-256 of the file.

Finished labels are written in batches (--batch labels, or 2 s), each under the fixture's lock and
onto the file as it is then. Ctrl-C (or a SIGTERM) writes what is finished and exits 130 (143): the
next run resumes. A call that throws, returns an invalid verdict (a rating not in the rubric, an
empty reason, a reason over ${MAX_REASON_CHARACTERS.toLocaleString('en-US')} characters, a verdict over ${MAX_VERDICT_CHARACTERS.toLocaleString('en-US')} characters as JSON,
a span not in the answer, a verdict for a criterion the rubric does not define) or gives no
verdict within --timeout seconds is retried with backoff; once the retries are spent it is
reported as a failure and nothing is written for it. A module that ends the process (process.exit) or throws outside a call
stops the run: what is finished is written. On a terminal a progress bar shows the pairs done,
failed and remaining, the rate and the time left; otherwise a line is printed to stderr at each
write. A scored fixture is refused: its judges are not calibrated.

--shard k/n judges only the cases of shard k of n, so that n machines (a CI matrix) share a run: a
case's shard is the first four bytes of the SHA-256 of its id modulo n, whatever the fixture's size
or the machine, so the n shards together judge every case once. In the records layout each shard
writes only its cases' records, and the shards' commits merge through git with no conflict
(docs/teams.md). A sharded run does not note labels carried over in the file's origin, so that the
shards' origins agree when merged.

Options:
  --judge <name>       the judge: its labels go to judges/<name>.json
  --run <module>       the judge module (a JavaScript file)
  --concurrency <n>    calls in flight at once (default 4, at most 1024)
  --retries <n>        further calls after a failed one (default 2, at most 100)
  --timeout <s>        give a call up after this many seconds (default ${DEFAULT_JUDGE_TIMEOUT_MS / 1000})
  --batch <n>          write once this many labels are finished (default 200, at most 1000000),
                       or every 2 s
  --shard <k>/<n>      judge only the cases of shard k of n (1 ≤ k ≤ n ≤ ${MAX_SHARDS})
  --dry-run            say what would be judged; call nothing, write nothing

Exit codes: 0 when every pair was judged and written; 1 when some failed, timed out included (the
others are written), or the fixture is refused; 2 on a usage error; 3 when the judge module ended
the run (it called process.exit, or threw outside a call: what was finished is written); 130 (143)
when stopped by Ctrl-C (SIGTERM).`,
  options: {
    ...stringOptions('judge', 'run', 'concurrency', 'retries', 'timeout', 'batch', 'shard'),
    'dry-run': { type: 'boolean', default: false },
  },
  async run({ values, positionals }, io) {
    const dir = oneDir('judge', positionals)
    const name = requiredOption('judge', values, 'judge', 'name the judge with --judge <name>: its labels go to judges/<name>.json.')
    const path = requiredOption('judge', values, 'run', 'give the judge module with --run <module>.')
    const concurrency = count('concurrency', stringOption(values, 'concurrency'), 1)
    const retries = count('retries', stringOption(values, 'retries'), 0)
    const batchSize = count('batch', stringOption(values, 'batch'), 1)
    const timeoutMs = timeout(values['timeout'])
    const shardOption = stringOption(values, 'shard')
    const shard = shardOption === undefined ? undefined : parseShard(shardOption, 'vitest-rubric judge --shard')
    const dryRun = values['dry-run'] === true
    const controller = new AbortController()
    // The module runs in this process: its process.exit, or an error it throws outside a call, must stop the run, not end it unreported.
    const guard = new ModuleGuard(() => controller.abort())
    let signalled: NodeJS.Signals | undefined
    const stop = (signal: NodeJS.Signals) => {
      // A second Ctrl-C does not wait for the write: every write replaces the file atomically, so none is left half-written.
      if (signalled !== undefined) guard.exit(EXIT_ON[signal] ?? 130)
      signalled = signal
      controller.abort()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
    const bar = io.terminal === undefined || dryRun ? undefined : new ProgressBar(io.terminal)
    let lastWritten = 0
    const started = Date.now()
    try {
      const module = await loadJudgeModule(path, io.cwd)
      const result = await runJudge(dir, {
        cwd: io.cwd,
        kinds,
        judge: name,
        run: module.run,
        origin: module.origin,
        dryRun,
        shard,
        signal: controller.signal,
        ...(concurrency === undefined ? {} : { concurrency }),
        ...(retries === undefined ? {} : { retries }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(batchSize === undefined ? {} : { batchSize }),
        onProgress(state) {
          if (bar !== undefined) bar.update(state, started)
          else if (state.written !== lastWritten) {
            lastWritten = state.written
            io.stderr(`judge ${name}${shard === undefined ? '' : `, shard ${formatShard(shard)}`}: ${progressLine(state, started)}`)
          }
        },
      })
      const ended = guard.ended
      bar?.stop(result, ended !== undefined)
      io.stdout(formatJudgeRun(result))
      if (ended !== undefined) {
        io.stderr(
          `judge ${name}: the run was stopped: ${ended}. ${plural(result.written, 'label was', 'labels were')} written; the next run judges the rest. A judge returns its verdict, or throws: it never ends the process.`,
        )
        return EXIT_MODULE_ENDED
      }
      if (result.interrupted) {
        io.stderr(`stopped: ${plural(result.written, 'label was', 'labels were')} written; run the command again to judge the rest.`)
        return EXIT_ON[signalled ?? 'SIGINT'] ?? 130
      }
      return result.failures.length > 0 ? 1 : 0
    } catch (error) {
      bar?.fail()
      throw error
    } finally {
      guard.release()
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    }
  },
}

const EXIT_ON: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 }

/** The exit code of a run the judge module ended: it called process.exit, or threw outside any call. */
const EXIT_MODULE_ENDED = 3

/**
 * While a judge module runs in this process, its `process.exit` stops the run instead of ending the
 * process (the call that made it is given up: the exit throws there), and an error it throws outside
 * a call (in a timer, a rejected promise nobody awaits) stops the run instead of crashing it. Either
 * way what is finished is written, and the command says what happened.
 */
class ModuleGuard {
  /** What ended the run, as said to the user: `the judge module called process.exit(0)`. */
  ended: string | undefined
  private readonly exit0 = process.exit
  private readonly onError = (error: unknown) => {
    if (error instanceof ModuleExit) return
    this.end(`the judge module threw outside a call: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
  }

  constructor(private readonly abort: () => void) {
    const guard = this
    // Cast: process.exit's type says it never returns; this one throws instead, which is as good, but a function expression's type cannot say so.
    process.exit = function exit(code?: string | number | null) {
      guard.end(`the judge module called process.exit(${code === undefined || code === null ? '' : JSON.stringify(code)})`)
      throw new ModuleExit()
    } as typeof process.exit
    process.on('uncaughtException', this.onError)
    process.on('unhandledRejection', this.onError)
  }

  /** Ends the process for the command itself (a second Ctrl-C). */
  exit(code: number): never {
    return this.exit0.call(process, code)
  }

  release(): void {
    process.exit = this.exit0
    process.off('uncaughtException', this.onError)
    process.off('unhandledRejection', this.onError)
  }

  private end(what: string): void {
    this.ended ??= what
    this.abort()
  }
}

/** Thrown by a guarded process.exit, where the module called it: the code after the call must not run. */
class ModuleExit extends Error {
  constructor() {
    super('the judge module called process.exit; the run was stopped')
  }
}

/** `--timeout <s>`: seconds, more than 0, as milliseconds. */
function timeout(value: unknown): number | undefined {
  if (value === undefined) return undefined
  // Decimal digits, with a fraction or not: Number() reads '0x10' as 16, '  7' as 7 and '+3' as 3.
  const seconds = typeof value === 'string' && /^[0-9]{1,7}(?:\.[0-9]{1,3})?$/.test(value) ? Number(value) : Number.NaN
  // setTimeout holds at most 2^31 − 1 ms (about 24 days).
  if (!(seconds > 0) || seconds * 1000 > 2 ** 31 - 1)
    throw usage('judge', `--timeout takes a number of seconds greater than 0 (at most 2147483), not ${JSON.stringify(value)}.`)
  return Math.max(1, Math.round(seconds * 1000))
}

/** The most calls in flight, further calls after a failed one, and labels per write a run accepts. */
const JUDGE_OPTION_LIMITS = { concurrency: 1024, retries: 100, batch: 1_000_000 } as const

function count(option: keyof typeof JUDGE_OPTION_LIMITS, value: string | undefined, least: number): number | undefined {
  return value === undefined ? undefined : wholeNumberOption('judge', option, value, least, JUDGE_OPTION_LIMITS[option], 'a whole number')
}

/** `120 done, 2 failed, 9,878 remaining · 85/s · ETA 1m 56s`. */
export function progressLine(state: JudgeProgress, started: number): string {
  const seconds = (Date.now() - started) / 1000
  const finished = state.done + state.failed
  const rate = seconds > 0 ? finished / seconds : 0
  const eta = rate > 0 ? duration(state.remaining / rate) : '—'
  return `${n(state.done)} done, ${n(state.failed)} failed, ${n(state.remaining)} remaining · ${rate >= 10 ? n(Math.round(rate)) : rate.toFixed(1)}/s · ETA ${eta}`
}

function duration(seconds: number): string {
  const whole = Math.ceil(seconds)
  if (whole < 60) return `${whole}s`
  if (whole < 3600) return `${Math.floor(whole / 60)}m ${whole % 60}s`
  return `${Math.floor(whole / 3600)}h ${Math.floor((whole % 3600) / 60)}m`
}

const n = (value: number) => value.toLocaleString('en-US')
const labels = (count: number) => plural(count, 'label', 'labels', n(count))
const cases = (count: number) => plural(count, 'case', 'cases', n(count))

/** The bar on a terminal: @clack/prompts' progress, advanced to the pairs finished. */
class ProgressBar {
  private bar: ReturnType<typeof progress> | undefined
  private shown = 0

  constructor(private readonly terminal: NonNullable<CliIo['terminal']>) {}

  update(state: JudgeProgress, since: number): void {
    if (this.bar === undefined) {
      this.bar = progress({ output: this.terminal.output, style: 'heavy', size: 30, max: Math.max(1, state.total), withGuide: false })
      this.bar.start(progressLine(state, since))
      // The bar reads keys in raw mode, where Ctrl-C is a key its prompt library ends the process on
      // (exit 0, before the finished labels are written): as a signal, it reaches the handler that writes them.
      if (this.terminal.input instanceof ReadStream && this.terminal.input.isTTY) this.terminal.input.setRawMode(false)
    }
    const finished = state.done + state.failed
    this.bar.advance(finished - this.shown, progressLine(state, since))
    this.shown = finished
  }

  stop(result: JudgeRunResult, ended: boolean): void {
    if (ended) this.bar?.error(`stopped by the judge module: ${labels(result.written)} written`)
    else if (result.interrupted) this.bar?.cancel(`stopped: ${labels(result.written)} written`)
    else if (result.failures.length > 0) this.bar?.error(`${labels(result.written)} written, ${n(result.failures.length)} failed`)
    else this.bar?.stop(`${labels(result.written)} written`)
  }

  fail(): void {
    this.bar?.error('the run was refused')
  }
}

/** What a run did: the pairs judged, the failures, the file written. */
export function formatJudgeRun(result: JudgeRunResult): string {
  const lines: string[] = []
  const { shard } = result
  const judge = shard === undefined ? result.judge : `${result.judge}, shard ${formatShard(shard)} (${n(result.cases)} of ${cases(shard.fixtureCases)})`
  if (shard !== undefined && result.cases === 0) lines.push(`judge ${judge}: nothing to judge: no case of the fixture is in this shard`)
  else if (result.total === 0 && result.carried === 0)
    lines.push(`judge ${judge}: nothing to judge: ${labels(result.current)} of ${cases(result.cases)} ${result.current === 1 ? 'is' : 'are'} current`)
  else if (result.total === 0) lines.push(`judge ${judge}: nothing to judge (${labels(result.current)} ${result.current === 1 ? 'was' : 'were'} current)`)
  else if (result.dryRun)
    lines.push(
      `judge ${judge}: would judge ${labels(result.total)} of ${cases(result.casesToJudge)} (${n(result.current)} current); dry run: nothing was called or written`,
    )
  else
    lines.push(
      `judge ${judge}: wrote ${labels(result.written)} of ${n(result.total)} to judge in ${cases(result.casesToJudge)} (${n(result.current)} were current), ${n(result.failures.length)} failed${result.interrupted ? ', stopped before the end' : ''}`,
    )
  if (result.carried > 0)
    lines.push(
      `${result.dryRun ? 'would carry' : 'carried'} over ${labels(result.carried)} without a call: criteria whose rule and reference quote the rubric revision left unchanged (the earlier rubric found in git), re-bound to the rubric as it is`,
    )
  if (result.shallowHistory > 0)
    lines.push(
      `carried over nothing for ${cases(result.shallowHistory)}: their labels were bound to an earlier rubric, and this repository is a shallow clone whose history does not hold it, so every criterion of theirs is judged again; fetch the history (\`git fetch --unshallow\`, or \`fetch-depth: 0\` for actions/checkout) to carry over the criteria the revision left unchanged`,
    )
  for (const failure of result.failures.slice(0, 20))
    lines.push(`failed: ${failure.caseId} › ${failure.criterion} after ${plural(failure.attempts, 'call')}: ${failure.error}`)
  if (result.failures.length > 20) lines.push(`… and ${plural(result.failures.length - 20, 'more failure', 'more failures', n(result.failures.length - 20))}`)
  for (const skip of result.skipped) lines.push(`skipped ${skip.caseId}: ${skip.reason}`)
  if (result.files.length > 0) lines.push(`wrote ${result.files.join(' and ')}`)
  return `${result.dir}\n${lines.map((line) => `  ${line}`).join('\n')}`
}
