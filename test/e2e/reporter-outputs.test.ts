import { cp, lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { runVitest } from '../helpers/run-vitest.js'
import { scratchDir } from '../helpers/scratch.js'

const PLANTED = 'export PATH=/home/user/bin:$PATH\n'

test("the reporter's JSON and HTML outputs are never written through a symbolic link leading outside the project", { timeout: 120_000 }, async () => {
  const scratch = await scratchDir('reporter-outputs')
  const root = join(scratch, 'project')
  const outside = join(scratch, 'elsewhere')
  await mkdir(outside)
  await cp(DOCUCTL, join(root, 'fixtures/lab'), { recursive: true })
  const planted = join(outside, '.bashrc')
  await writeFile(planted, PLANTED)
  // As a cloned repository can ship them: the JSON report's path linked to a file, the HTML report's folder to a folder.
  await mkdir(join(root, '.vitest-rubric'))
  await symlink(planted, join(root, '.vitest-rubric/report.json'))
  await symlink(outside, join(root, 'out'))

  const run = await runVitest({ root, plugin: { reporter: { outputFile: '.vitest-rubric/report.json', htmlReport: 'out/report.html' } } })
  expect(await readFile(planted, 'utf8')).toBe(PLANTED)
  expect(await readdir(outside)).toEqual(['.bashrc'])
  // The JSON report replaced the link; the HTML report is refused, and the run fails with why.
  expect((await lstat(join(root, '.vitest-rubric/report.json'))).isFile()).toBe(true)
  expect(JSON.parse(await readFile(join(root, '.vitest-rubric/report.json'), 'utf8'))).toHaveProperty('fixtures')
  expect(run.exitCode).toBe(1)
  expect(run.stderr.replaceAll(scratch, '<scratch>')).toContain(
    'out: the path leads outside the project through a symbolic link, so nothing is written through it.\n  expected: a folder whose real path lies inside <scratch>/project\n  found:    <scratch>/elsewhere\n',
  )
})
