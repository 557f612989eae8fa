import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { scratchDir } from '../../helpers/scratch.js'

/** An empty verdict fixture, `lab` in a scratch directory `cwd`: its question, and no case or review yet. */
export async function verdictFixture(): Promise<{ cwd: string; dir: string }> {
  const cwd = await scratchDir('verdict')
  const dir = join(cwd, 'lab')
  await mkdir(dir)
  await writeFile(
    join(dir, 'verdict.json'),
    `${JSON.stringify({ id: 'capital', version: 1, question: 'Does the answer name the capital of France?' }, null, 2)}\n`,
  )
  await writeFile(join(dir, 'cases.json'), `${JSON.stringify({ name: 'capitals', cases: [] }, null, 2)}\n`)
  await writeFile(join(dir, 'annotations.json'), `${JSON.stringify({ origin: 'two reviewers', reviews: [] }, null, 2)}\n`)
  return { cwd, dir: 'lab' }
}
