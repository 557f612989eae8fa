import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { displayPath } from '../../src/core/common/display-path.js'
import { runCli } from '../helpers/cli.js'
import { scratchDir } from '../helpers/scratch.js'

describe('display paths', () => {
  test('inside the working folder, relative; the folder itself, "."; outside it, absolute', () => {
    expect(displayPath('/work/project', '/work/project/fixtures/lab')).toBe('fixtures/lab')
    expect(displayPath('/work/project', 'fixtures/lab')).toBe('fixtures/lab')
    expect(displayPath('/work/project', '/work/project')).toBe('.')
    expect(displayPath('/work/project', '/tmp/lab')).toBe('/tmp/lab')
    expect(displayPath('/work/project', '..')).toBe('/work')
    expect(displayPath('/work/project', '../project-b/lab')).toBe('/work/project-b/lab')
    // A name that only starts with two dots is inside.
    expect(displayPath('/work/project', '..lab')).toBe('..lab')
  })

  test('a fixture and a --from file outside the working folder are printed by their absolute paths', async () => {
    const cwd = join(await scratchDir('display-cwd'), 'deep/down/here')
    await mkdir(cwd, { recursive: true })
    const elsewhere = await scratchDir('display-fixture')
    const dir = join(elsewhere, 'lab')
    const init = await runCli(['init', dir], cwd)
    expect(init.stdout).toContain(`created criteria fixture ${dir} from the skeleton rubric:\n  ${dir}/rubric.json\n`)
    const evaluated = await runCli(['evaluate', dir], cwd)
    expect(evaluated.stdout).toContain(`lab (${dir}; rubric lab@1)`)
    expect(evaluated.stdout).not.toContain('../')
    const from = join(elsewhere, 'cases.json')
    await writeFile(from, '{ not json')
    const added = await runCli(['add', dir, '--from', from], cwd)
    expect(added.code).toBe(1)
    expect(added.stderr).toContain(from)
    expect(added.stderr).not.toContain('../')
  })
})
