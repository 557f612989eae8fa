import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { ROOT } from './fixture-copy.js'

/** A throwaway project holding copies of the bundled fixtures (without their decision records). */
export async function bundledProject(names: readonly string[] = ['debate-benchmark', 'docuctl-rollback']): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'vitest-rubric-bundled-'))
  onTestFinished(() => rm(root, { recursive: true, force: true }))
  for (const name of names) {
    await cp(join(ROOT, 'fixtures', name), join(root, 'fixtures', name), {
      recursive: true,
      filter: (source) => !source.endsWith('decisions.record.json'),
    })
  }
  return root
}
