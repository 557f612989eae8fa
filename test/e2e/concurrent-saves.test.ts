import { spawnSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT } from '../helpers/fixture-copy.js'
import { makeProject } from '../helpers/scratch.js'
// @ts-expect-error a plain script shared with test/bench/concurrent-saves.mjs, which has no types
import { heldReasons, loadCases, lostSaves, runSaveLoad } from '../helpers/save-load.mjs'

interface Outcome {
  readonly writer: string
  readonly entry: string
  readonly reason: string
  readonly ok: boolean
  readonly status: number
  readonly message: string | null
}

const bin = join(ROOT, 'dist/cli/bin.js')

test.each(['seed', 'records'] as const)(
  '%s layout: four processes, 200 saves across 20 cases: every save is written, none is lost, every file stays valid',
  { timeout: 240_000 },
  async (layout) => {
    const root = await makeProject({ 'fixtures/lab': null })
    await writeFile(join(root, 'load-cases.json'), JSON.stringify(loadCases()))
    const added = spawnSync(process.execPath, [bin, 'add', 'fixtures/lab', '--from', 'load-cases.json'], { cwd: root, encoding: 'utf8', timeout: 60_000 })
    expect(added.status, added.stderr).toBe(0)
    if (layout === 'records')
      expect(spawnSync(process.execPath, [bin, 'convert', 'fixtures/lab', '--to', 'records'], { cwd: root, encoding: 'utf8' }).status).toBe(0)

    // The page server, two page clients and two command lines, each a process of its own.
    const run = (await runSaveLoad({ bin, dir: 'fixtures/lab', cwd: root })) as { outcomes: Outcome[]; held: Map<string, string> }
    // In the records layout, what the records hold is read back through the seed documents they make (convert is lossless).
    if (layout === 'records') {
      const seed = spawnSync(process.execPath, [bin, 'convert', 'fixtures/lab', '--to', 'seed'], { cwd: root, encoding: 'utf8' })
      expect(seed.status, seed.stderr).toBe(0)
    }
    const result = layout === 'records' ? { ...run, held: (await heldReasons(join(root, 'fixtures/lab'))) as Map<string, string> } : run
    expect(result.outcomes).toHaveLength(200)
    // No writer ever saves an entry another writer saves: a refusal would be a 409 for someone else's case.
    const refused = result.outcomes.filter((outcome) => !outcome.ok)
    expect(refused.map((outcome) => `${outcome.writer}: ${outcome.message}`)).toEqual([])
    expect(lostSaves(result)).toEqual([])
    expect([...result.held.keys()].filter((entry) => / c\d\d$/.test(entry))).toHaveLength(20)

    const evaluated = spawnSync(process.execPath, [bin, 'evaluate', 'fixtures/lab', '--json'], { cwd: root, encoding: 'utf8', timeout: 60_000 })
    const record = JSON.parse(evaluated.stdout) as { decisions: Record<string, { status: string }> }
    expect(Object.keys(record.decisions)).toHaveLength(28)
    expect(Object.entries(record.decisions).filter(([, decision]) => decision.status === 'refused')).toEqual([])
    const status = spawnSync(process.execPath, [bin, 'status', 'fixtures/lab'], { cwd: root, encoding: 'utf8', timeout: 60_000 })
    expect(status.stdout).not.toMatch(/refused/)
  },
)
