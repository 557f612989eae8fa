import { cp, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

/*
 * A Vitest config that does not load refuses `decisions` and `report` with what the loader found
 * and where: its error and the file, line and column, not only the first line of its message
 * ("Build failed with 1 error:"). A column of line 1 counts in the file as written, not in the
 * text the bundler made of it.
 */

async function project(config: string): Promise<string> {
  const root = await scratchDir('config-load-error')
  await cp(DOCUCTL, join(root, 'fixtures/lab'), { recursive: true })
  await writeFile(join(root, 'broken.config.mjs'), config)
  return root
}

describe('a Vitest config that does not load', { timeout: 60_000 }, () => {
  test('decisions names the syntax error, its line and its column', async () => {
    const root = await project('export default {\n  test: { include: [ }\n}\n')
    const run = await runCli(['decisions', 'fixtures/lab', '--check', '--config', 'broken.config.mjs'], root)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatchInlineSnapshot(`
      "broken.config.mjs: the Vitest config could not be loaded, so the rubric() options it gives are unknown: [PARSE_ERROR] Unexpected token at broken.config.mjs:2:22
        fix:      fix the config so that \`vitest\` loads it, or name another with --config.
      "
    `)
  })

  test('on line 1, the column is the one in the file', async () => {
    const root = await project('export default {{{')
    const run = await runCli(['report', 'fixtures/lab', '--html', '--out', 'out.html', '--config', 'broken.config.mjs'], root)
    expect(run.code).toBe(1)
    expect(run.stderr.split('\n')[0]).toBe(
      'broken.config.mjs: the Vitest config could not be loaded, so the rubric() options it gives are unknown: [PARSE_ERROR] Unexpected token at broken.config.mjs:1:17',
    )
  })

  test('an import that cannot be resolved is named, with where it is imported', async () => {
    const root = await project('import x from "./nowhere.js"\nexport default x\n')
    const run = await runCli(['decisions', 'fixtures/lab', '--config', 'broken.config.mjs'], root)
    expect(run.code).toBe(1)
    expect(run.stderr.split('\n')[0]).toBe(
      "broken.config.mjs: the Vitest config could not be loaded, so the rubric() options it gives are unknown: [UNRESOLVED_IMPORT] Could not resolve './nowhere.js' in broken.config.mjs at broken.config.mjs:1:15",
    )
  })
})
