import { Writable } from 'node:stream'
import { stripVTControlCharacters } from 'node:util'
import type { Reporter, TestModule } from 'vitest/node'
import type { ViteUserConfig } from 'vitest/config'
import { startVitest, type CliOptions } from 'vitest/node'
import type { RubricCaseMeta, RubricFixtureMeta } from '../../src/runtime/meta.js'
import { rubric, type RubricPluginOptions } from '../../src/plugin.js'

/** One test as the run reported it. */
export interface ReportedTest {
  readonly module: string
  readonly name: string
  readonly fullName: string
  /** `passed`, `failed`, `todo` or `skipped` (filtered out). */
  readonly state: string
  readonly errors: readonly string[]
  readonly meta: RubricCaseMeta | undefined
}

export interface VitestRun {
  readonly stdout: string
  readonly stderr: string
  readonly exitCode: number
  readonly tests: readonly ReportedTest[]
  /** Module ids (relative) with the errors that failed them. */
  readonly modules: readonly {
    readonly id: string
    readonly state: string
    readonly errors: readonly string[]
    readonly meta: RubricFixtureMeta | undefined
  }[]
  /** `3 passed | 3 failed | 2 todo`, counted from the tests. */
  readonly counts: string
}

export interface RunOptions {
  readonly root: string
  readonly filters?: readonly string[]
  readonly plugin?: RubricPluginOptions
  readonly cli?: CliOptions
  /** The whole inline configuration, in place of one `rubric(plugin)` at the root (for several projects). */
  readonly config?: ViteUserConfig
}

class Collector implements Reporter {
  modules: readonly TestModule[] = []
  onTestRunEnd(modules: readonly TestModule[]) {
    this.modules = modules
  }
}

/** Runs real Vitest in this process with the plugin, capturing output, states and the exit code. */
export async function runVitest(options: RunOptions): Promise<VitestRun> {
  let stdout = ''
  let stderr = ''
  const collector = new Collector()
  const exitCode = process.exitCode
  process.exitCode = undefined
  try {
    const vitest = await startVitest(
      'test',
      [...(options.filters ?? [])],
      { root: options.root, config: false, watch: false, reporters: ['default', collector], ...options.cli },
      options.config ?? { plugins: [rubric({ reporter: { outputFile: false }, ...options.plugin })], test: { include: [] } },
      { stdout: sink((text) => (stdout += text)), stderr: sink((text) => (stderr += text)) },
    )
    await vitest.close()
    return summarize(collector.modules, stdout, stderr, Number(process.exitCode ?? 0))
  } finally {
    process.exitCode = exitCode
  }
}

/**
 * A non-TTY output stream that records what is written, colours stripped. Writes are taken
 * synchronously: a buffered Writable can still hold the end of the output when the run returns.
 */
export function sink(write: (text: string) => void): NodeJS.WriteStream {
  const stream = new Writable()
  stream.write = (chunk: string | Uint8Array) => {
    write(stripVTControlCharacters(chunk.toString()))
    return true
  }
  return stream as unknown as NodeJS.WriteStream
}

export function summarize(modules: readonly TestModule[], stdout: string, stderr: string, exitCode: number): VitestRun {
  const tests = modules.flatMap((module) =>
    [...module.children.allTests()].map((test) => {
      const result = test.result()
      return {
        module: module.relativeModuleId,
        name: test.name,
        fullName: test.fullName,
        state: test.options.mode === 'todo' ? 'todo' : result.state,
        errors: (result.errors ?? []).map((error) => error.message),
        meta: test.meta().rubric?.role === 'case' ? (test.meta().rubric as RubricCaseMeta) : undefined,
      }
    }),
  )
  const count = (state: string) => tests.filter((test) => test.state === state).length
  const counts = ['passed', 'failed', 'todo', 'skipped']
    .map((state) => [state, count(state)] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`)
    .join(' | ')
  return {
    stdout,
    stderr,
    exitCode,
    tests,
    modules: modules.map((module) => ({
      id: module.relativeModuleId,
      state: module.state(),
      errors: module.errors().map((error) => error.message),
      meta: module.meta().rubricFixture,
    })),
    counts,
  }
}
