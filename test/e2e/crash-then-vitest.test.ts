import { spawnSync } from 'node:child_process'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { runVitest } from '../helpers/run-vitest.js'
import { makeProject } from '../helpers/scratch.js'

// A save killed at any step is finished or discarded by the next command that reads the fixture,
// and a Vitest run is such a command: it decides the fixture exactly as `evaluate` does afterwards,
// as before that save or as after it, never a third way, says which, and leaves no lock behind.
const BIN = join(ROOT, 'dist/cli/bin.js')
const FIX = 'fixtures/lab'
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const SAVE = ['review', FIX, '--case', 'uncertain-wording', '--replace', ...CRITERIA.flatMap((id) => ['--rating', `${id}=meets`, '--reason', `${id}=Read.`])]

function save(root: string, env: Record<string, string>) {
  return spawnSync(process.execPath, [BIN, ...SAVE], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 })
}

/** How Vitest decided the case the save reviews: its test's state, with the first line of its error. */
async function throughVitest(root: string): Promise<{ state: string; error: string | undefined; notes: string }> {
  const written: string[] = []
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    written.push(String(chunk))
    return true
  })
  try {
    const run = await runVitest({ root, cli: { passWithNoTests: true } })
    const test = run.tests.find((each) => each.name.includes('uncertain-wording'))!
    return { state: test.state, error: test.errors[0]?.split('\n')[0], notes: written.join('') }
  } finally {
    spy.mockRestore()
  }
}

afterEach(() => vi.restoreAllMocks())

describe.each(['seed', 'records'] as const)('a Vitest run after a review killed at each step, in the %s layout', (layout) => {
  test('decides as before or as after the save, as evaluate does, says so, and leaves no lock', { timeout: 240_000 }, async () => {
    const project = async () => {
      const root = await makeProject({ [FIX]: null })
      if (layout === 'records') expect((await runCli(['convert', FIX, '--to', 'records'], root)).code).toBe(0)
      return root
    }
    const before = await throughVitest(await project())
    const clean = await project()
    expect(save(clean, {}).status).toBe(0)
    const after = await throughVitest(clean)
    expect([before.state, after.state]).toEqual(['todo', 'passed'])
    let steps = 0
    const seen = new Set<string>()
    for (let step = 1; ; step++) {
      const root = await project()
      const killed = save(root, { VITEST_RUBRIC_CRASH_AT: String(step) })
      if (killed.signal !== 'SIGKILL') break
      steps++
      const run = await throughVitest(root)
      const as = run.state === before.state ? 'before' : run.state === after.state ? 'after' : `neither: ${run.state} (${run.error})`
      expect(as, `step ${step}`).not.toMatch(/^neither/)
      seen.add(as)
      // A save killed once its journal was committed is finished, and the run says so; one killed before is discarded.
      if (/note: .*finished the save that process \d+/.test(run.notes)) {
        expect(as, `step ${step}`).toBe('after')
        seen.add('finished')
      }
      expect(
        (await readdir(join(root, FIX))).filter((name) => name.startsWith('.rubric.lock')),
        `step ${step}`,
      ).toEqual([])
      // evaluate, run after Vitest, decides the same.
      const evaluated = await runCli(['evaluate', FIX], root)
      expect(evaluated.stdout, `step ${step}`).toMatch(as === 'after' ? /uncertain-wording: accepted/ : /uncertain-wording: pending/)
    }
    expect(steps).toBeGreaterThan(2)
    expect([...seen].sort()).toEqual(['after', 'before', 'finished'])
  })
})
