import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

/** An empty temporary directory that the test owns, removed when it ends. */
export async function scratchDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `vitest-rubric-${name}-`))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}
