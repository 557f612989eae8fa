import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SerializedRubricError } from '../core/common/errors.js'
import type { PlanOptions } from '../core/engine/plan.js'
import type { HashedFile } from './plan-cache.js'

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

/** A plan being made in its own process. */
export interface PlanningProcess {
  readonly reply: Promise<PlanReply>
  /** Stops the process if it is still running (the plan came from the cache after all). */
  stop(): void
}

// The child is the built module beside this one; run from source (.ts), there is none to start.
const here = fileURLToPath(import.meta.url)
const BUILT_CHILD = extname(here) === '.js' ? fileURLToPath(new URL('./plan-child.js', import.meta.url)) : undefined

/** The planning process's module, when this copy of the plugin can start one. */
export function planningChild(): string | undefined {
  return BUILT_CHILD !== undefined && existsSync(BUILT_CHILD) ? BUILT_CHILD : undefined
}

/**
 * Starts a process that plans the fixture. It gets Node's flags but not a debugger's (a second
 * process cannot listen on the same port), and its output is kept only to explain a crash.
 */
export function startPlanning(child: string, request: PlanRequest): PlanningProcess {
  const process_ = fork(child, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    execArgv: process.execArgv.filter((flag) => !/^--(inspect|debug)/.test(flag)),
  })
  let stderr = ''
  process_.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000)
  })
  let answered = false
  const reply = new Promise<PlanReply>((resolve, reject) => {
    process_.once('message', (message: PlanReply) => {
      answered = true
      resolve(message)
    })
    process_.once('error', reject)
    process_.once('exit', (code, signal) => {
      if (answered) return
      reject(new Error(`vitest-rubric: the process planning ${request.dir} ended (${signal ?? `exit code ${code}`}) without a plan.${stderr === '' ? '' : `\n${stderr.trimEnd()}`}`))
    })
  })
  // Whoever awaits it gets the rejection; a plan no longer wanted is no unhandled rejection.
  reply.catch(() => {})
  process_.send(request)
  return {
    reply,
    stop: () => {
      if (!answered && process_.exitCode === null && process_.signalCode === null) process_.kill()
    },
  }
}
