import { spawn } from 'node:child_process'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { loadTeam } from '../../src/web/team.js'
import { issueTokens, readTokenFile, tokenHash } from '../../src/web/team-tokens.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'
import { TEAM } from '../helpers/served-team.js'

// Two commands that change the team's links at once each keep the other's change: the token file is
// read, changed and written under the team folder's lock. The first command is stopped (SIGSTOP, by
// the crash-point seam) right after it read the file, holding the lock; the second, started then,
// must wait for it, and both changes must be in the file at the end. Without the lock the second
// would write first and the first would then write its stale copy over it.

const BIN = join(ROOT, 'dist/cli/bin.js')

interface Running {
  readonly pid: number
  readonly output: () => { stdout: string; stderr: string }
  readonly exited: Promise<number | null>
  readonly done: () => boolean
  readonly resume: () => void
}

function start(root: string, argv: readonly string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [BIN, ...argv], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  let done = false
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      done = true
      resolve(code)
    }),
  )
  return { pid: child.pid!, output: () => ({ stdout, stderr }), exited, done: () => done, resume: () => child.kill('SIGCONT') }
}

/** Waits until `ready` holds, polling; a test that never gets there fails on its own timeout. */
async function until(ready: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await ready())) await new Promise((resolve) => setTimeout(resolve, 20))
}

async function isStopped(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')
}

describe.runIf(process.platform === 'linux')('serve --team: two changes of the links at once', () => {
  test('a --revoke and a --reissue run together both take effect', async () => {
    const root = await scratchDir('team-lock')
    await writeFile(join(root, 'team.json'), JSON.stringify({ people: TEAM }))
    const team = await loadTeam('team.json', root)
    await issueTokens(root, team)

    const revoking = start(root, ['serve', '--team', 'team.json', '--revoke', 'alice'], { VITEST_RUBRIC_STOP_AT: 'team tokens read' })
    await until(() => isStopped(revoking.pid))
    const reissuing = start(root, ['serve', '--team', 'team.json', '--reissue', 'bob'])
    // It waits for the lock (and says so); were there no lock, it would finish first, and its change be lost.
    await until(() => reissuing.done() || reissuing.output().stderr.includes('note: waiting for the lock of .vitest-rubric/team'))
    revoking.resume()
    expect(await revoking.exited).toBe(0)
    expect(await reissuing.exited).toBe(0)

    const file = await readTokenFile(root, team)
    expect(file.people['alice']).toBeNull()
    const bobToken = /bob \(reviewer\): http:\/\/[^\s]+\/\?token=([\w-]+)/.exec(reissuing.output().stdout)?.[1]
    expect(bobToken).toBeDefined()
    expect(file.people['bob']?.token_sha256).toBe(tokenHash(bobToken!))
    expect((await readdir(join(root, '.vitest-rubric/team'))).filter((name) => name.includes('.rubric.lock'))).toEqual([])
  })
})
