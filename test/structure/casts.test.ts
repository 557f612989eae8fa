import { execFileSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

// A cast tells the type checker rather than shows it: each one in src/ says why on its line or the
// line above (`// Cast: …`), so a reader can check the reason, and a new one without it is seen.

const FIGURES = fileURLToPath(new URL('../bench/type-figures.mjs', import.meta.url))

/** The casts without a reason that `type-figures.mjs --list` names, as `file:line: text`. */
function unexplainedCasts(script = FIGURES): string[] {
  const output = execFileSync(process.execPath, [script, '--list'], { encoding: 'utf8' })
  return output.split('\n').filter((line) => /^src\/.+:\d+: /.test(line))
}

test('every `as` cast in src/ says why', () => {
  expect(unexplainedCasts(), 'casts without a `// Cast: …` comment on their line or the line above').toEqual([])
})

test('the check names a cast without a reason, by file and line', async () => {
  // The script reads the src/ beside it: a copy of it in a scratch tree with one unexplained cast.
  const root = join(fileURLToPath(new URL('../..', import.meta.url)), 'node_modules/.cache/casts-check')
  await mkdir(join(root, 'src'), { recursive: true })
  await mkdir(join(root, 'test/bench'), { recursive: true })
  await writeFile(join(root, 'src/sample.ts'), 'export const n = JSON.parse("1") as number\n// Cast: a reason\nexport const m = JSON.parse("2") as number\n')
  await writeFile(join(root, 'test/bench/type-figures.mjs'), await readFile(FIGURES, 'utf8'))
  expect(unexplainedCasts(join(root, 'test/bench/type-figures.mjs'))).toEqual(['src/sample.ts:1: JSON.parse("1") as number'])
})
