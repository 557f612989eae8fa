import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { RubricError, type SerializedRubricError } from '../core/common/errors.js'
import { BUILT, ownModule } from '../package-files.js'

/** A fixture file by name, with the SHA-256 of the bytes it was read as: what a cached plan is keyed by. */
export interface HashedFile {
  readonly name: string
  readonly sha256: string
}
import type { PlanOptions } from '../core/engine/plan.js'

/** What the planning process is asked: one fixture directory, under the plugin's options. */
export interface PlanRequest {
  readonly dir: string
  readonly root: string
  readonly options: PlanOptions
}

/**
 * What it answers: the plan as JSON, the worker's payload beside it, and the SHA-256 of each file
 * it read (the plan is of exactly those bytes, and is cached under them); or the error that
 * refused the fixture.
 */
export type PlanReply =
  | { readonly plan: string; readonly payload: string; readonly files: readonly HashedFile[] | undefined }
  | { readonly error: SerializedRubricError }

/**
 * What the planning process sends while it works, every `PLANNING_HEARTBEAT_MS`: a process that
 * sends it is busy, not stuck, however long the fixture takes to plan.
 */
export interface PlanHeartbeat {
  readonly alive: true
}

/** How often the planning process says it is still working. */
export const PLANNING_HEARTBEAT_MS = 5_000

/** A plan being made in its own process. */
export interface PlanningProcess {
  readonly reply: Promise<PlanReply>
  /** Stops the process if it is still running (the plan came from the cache after all). */
  stop(): void
}

/**
 * The planning process failed: it ended without a plan, could not start, or gave none in time. The
 * message names the fixture and quotes the end of what the process printed.
 */
export class PlanningError extends RubricError {
  constructor(code: 'PLANNING_FAILED' | 'PLANNING_TIMED_OUT', dir: string, summary: string, hint: string, stderr: string) {
    super({ code, file: dir, summary, hint }, `vitest-rubric: ${summary} ${hint}${stderr === '' ? '' : `\n${stderr.trimEnd()}`}`)
  }
}

/** What to do when the planning process failed without a refusal of the fixture. */
const PLANNING_FAILED_HINT =
  "Its output, below, says why (out of memory: raise --max-old-space-size in NODE_OPTIONS); or plan the fixture in Vitest's own process with rubric({ cache: false })."

// The child is an entry of the build; run from source (.ts), there is none to start.
const BUILT_CHILD = BUILT ? ownModule('run/plan-child') : undefined

/** The planning process's module, when this copy of the plugin can start one. */
export function planningChild(): string | undefined {
  return BUILT_CHILD !== undefined && existsSync(BUILT_CHILD) ? BUILT_CHILD : undefined
}

/**
 * How long a planning process may stay silent (no plan and no heartbeat) before it is stopped. It
 * sends a heartbeat every few seconds between its steps, so a process silent for this long is
 * stuck, not busy: planning 1,000,000 cases takes minutes, and is never stopped for its size.
 */
export const PLANNING_TIMEOUT_MS = 10 * 60 * 1000

/** A debugger's flags (`--inspect-brk=9229`, `--debug-port=…`), which would make the process wait for a debugger or take its port. */
const INSPECTOR_FLAG = /^--(inspect|debug)/

/** NODE_OPTIONS less a debugger's flags; `undefined` when nothing is left. Quoted values stay whole. */
export function withoutInspector(nodeOptions: string | undefined): string | undefined {
  const kept = (nodeOptions?.match(/(?:"(?:\\.|[^"])*"|\S)+/g) ?? []).filter((token) => !INSPECTOR_FLAG.test(token))
  return kept.length === 0 ? undefined : kept.join(' ')
}

/**
 * Starts a process that plans the fixture. It gets Node's flags but not a debugger's, neither from
 * the command line nor from NODE_OPTIONS (a second process cannot listen on the same port, and
 * `--inspect-brk` would wait for a debugger forever); its output is kept only to explain a crash.
 * One silent for `timeoutMs` (neither a plan nor a heartbeat) is stopped, and the plan fails
 * naming the fixture.
 */
export function startPlanning(child: string, request: PlanRequest, { timeoutMs = PLANNING_TIMEOUT_MS }: { readonly timeoutMs?: number } = {}): PlanningProcess {
  const env = { ...process.env }
  const nodeOptions = withoutInspector(env['NODE_OPTIONS'])
  if (nodeOptions === undefined) delete env['NODE_OPTIONS']
  else env['NODE_OPTIONS'] = nodeOptions
  const process_ = fork(child, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    // `--expose-gc`: the process collects the garbage of its planning before it sends the plan (see plan-child.ts).
    execArgv: [...process.execArgv.filter((flag) => !INSPECTOR_FLAG.test(flag)), '--expose-gc'],
    env,
  })
  let stderr = ''
  process_.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000)
  })
  let answered = false
  let timer: NodeJS.Timeout | undefined
  const reply = new Promise<PlanReply>((resolve, reject) => {
    const silent = () => {
      if (answered) return
      answered = true
      process_.kill()
      reject(
        new PlanningError(
          'PLANNING_TIMED_OUT',
          request.dir,
          `the process planning ${request.dir} was silent for ${timeoutMs / 1000} s (no plan, and no sign that it was still working), so it was stopped.`,
          "Look for what it waits on (a flag in NODE_OPTIONS, a file on a stalled network drive), or plan the fixture in Vitest's own process with rubric({ cache: false }).",
          stderr,
        ),
      )
    }
    const wait = () => {
      clearTimeout(timer)
      timer = setTimeout(silent, timeoutMs)
      timer.unref()
    }
    wait()
    process_.on('message', (message: PlanReply | PlanHeartbeat) => {
      if (answered) return
      if ('alive' in message) return wait()
      answered = true
      clearTimeout(timer)
      resolve(message)
    })
    process_.once('error', (error) => {
      if (answered) return
      answered = true
      clearTimeout(timer)
      reject(
        new PlanningError(
          'PLANNING_FAILED',
          request.dir,
          `the process planning ${request.dir} could not be started (${error.message.split('\n')[0]}).`,
          PLANNING_FAILED_HINT,
          stderr,
        ),
      )
    })
    process_.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (answered) return
      answered = true
      reject(
        new PlanningError(
          'PLANNING_FAILED',
          request.dir,
          `the process planning ${request.dir} ended (${signal ?? `exit code ${code}`}) without a plan.`,
          PLANNING_FAILED_HINT,
          stderr,
        ),
      )
    })
  })
  // Whoever awaits it gets the rejection; a plan no longer wanted is no unhandled rejection.
  reply.catch(() => {})
  process_.send(request)
  return {
    reply,
    stop: () => {
      clearTimeout(timer)
      if (!answered && process_.exitCode === null && process_.signalCode === null) process_.kill()
    },
  }
}
