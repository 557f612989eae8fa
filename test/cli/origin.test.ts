import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ORIGIN_PLACEHOLDER } from '../../src/core/common/origin.js'
import { runCli } from '../helpers/cli.js'
import { DEBATE } from '../helpers/scored-copy.js'
import { scratchDir } from '../helpers/scratch.js'

describe('vitest-rubric origin', () => {
  test.each(['criteria', 'scored'] as const)('--set replaces the placeholder init wrote, changing only the origin; evaluate prints it (%s)', async (kind) => {
    const cwd = await scratchDir('origin')
    const args = kind === 'criteria' ? ['init', 'fixtures/lab'] : ['init', 'fixtures/lab', '--from', join(DEBATE, 'evaluation_rubric.json')]
    expect((await runCli(args, cwd)).code).toBe(0)
    const path = join(cwd, 'fixtures/lab/annotations.json')
    const before = await readFile(path, 'utf8')
    expect((await runCli(['origin', 'fixtures/lab'], cwd)).stdout).toBe(
      'fixtures/lab/annotations.json › origin: not given (fixtures/lab/annotations.json › origin is still the placeholder: set it with `vitest-rubric origin fixtures/lab --set "…"`, saying who or what made these judgements)\n',
    )

    const set = await runCli(['origin', 'fixtures/lab', '--set', '  Reviews by the docs team, 2026-11 “study”  '], cwd)
    expect(set).toEqual({
      code: 0,
      stdout: 'fixtures/lab/annotations.json › origin: set to "Reviews by the docs team, 2026-11 “study”"\n  wrote fixtures/lab/annotations.json\n',
      stderr: '',
    })
    // Only the origin's characters changed: the layout, the key order and the rest of the file are as they were.
    expect(await readFile(path, 'utf8')).toBe(before.replace(JSON.stringify(ORIGIN_PLACEHOLDER), '"Reviews by the docs team, 2026-11 “study”"'))
    expect((await runCli(['evaluate', 'fixtures/lab'], cwd)).stdout).toContain('\n  origin: Reviews by the docs team, 2026-11 “study”\n')
    expect((await runCli(['origin', 'fixtures/lab'], cwd)).stdout).toBe('fixtures/lab/annotations.json › origin: Reviews by the docs team, 2026-11 “study”\n')

    const again = await runCli(['origin', 'fixtures/lab', '--set', 'Reviews by the docs team, 2026-11 “study”'], cwd)
    expect(again.stdout).toBe('fixtures/lab/annotations.json › origin: already "Reviews by the docs team, 2026-11 “study”"; nothing written\n')
  })

  test('in the records layout, the command it names to set the origin is the fixture’s, and it works', async () => {
    const cwd = await scratchDir('origin-records')
    expect((await runCli(['init', 'fixtures/rec', '--layout', 'records'], cwd)).code).toBe(0)
    const shown = (await runCli(['origin', 'fixtures/rec'], cwd)).stdout
    expect(shown).toContain('set it with `vitest-rubric origin fixtures/rec --set "…"`')
    // evaluate names the document as origin does, as docs/format.md names the records layout's documents.
    const placeholder =
      'not given (fixtures/rec/records/annotations.json › origin is still the placeholder: set it with `vitest-rubric origin fixtures/rec --set "…"`, saying who or what made these judgements)'
    expect(shown).toBe(`fixtures/rec/records/annotations.json › origin: ${placeholder}\n`)
    expect((await runCli(['evaluate', 'fixtures/rec'], cwd)).stdout).toContain(`\n  origin: ${placeholder}\n`)
    // Its records/ folder is no fixture: the refusal names the fixture's directory.
    const inRecords = await runCli(['origin', 'fixtures/rec/records', '--set', 'The docs team'], cwd)
    expect(inRecords.code).toBe(1)
    expect(inRecords.stderr).toMatchInlineSnapshot(`
      "fixtures/rec/records: the directory is the records/ folder of the fixture fixtures/rec, not a fixture.
        expected: rubric.json, source.txt, cases.json, annotations.json; or evaluation_rubric.json, cases.json, annotations.json; in the records layout, records/ in place of cases.json and annotations.json
        fix:      pass the fixture's directory, fixtures/rec: records/ holds its records (see docs/format.md).
      "
    `)
    const set = await runCli(['origin', 'fixtures/rec', '--set', 'The docs team'], cwd)
    expect(set.code, set.stderr).toBe(0)
    expect((await runCli(['origin', 'fixtures/rec'], cwd)).stdout).toBe('fixtures/rec/records/annotations.json › origin: The docs team\n')
  })

  test('an empty origin is a usage error, and a fixture that does not load is refused; nothing is written', async () => {
    const cwd = await scratchDir('origin')
    await runCli(['init', 'fixtures/lab'], cwd)
    const path = join(cwd, 'fixtures/lab/annotations.json')
    const before = await readFile(path, 'utf8')
    const empty = await runCli(['origin', 'fixtures/lab', '--set', '  '], cwd)
    expect(empty.code).toBe(2)
    expect(empty.stderr.split('\n\n')[0]).toMatchInlineSnapshot(`
      "--set: the origin is empty; nothing was written.
        expected: who or what made the judgements: a reviewer, a rating study, an authored example
        fix:      pass the origin as text: vitest-rubric origin <dir> --set "Reviews by the docs team, 2026-11 study"."
    `)

    await writeFile(path, before.replace('"reviews": []', '"reviews": {}'))
    const refused = await runCli(['origin', 'fixtures/lab', '--set', 'Reviews by the docs team'], cwd)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('fixtures/lab/annotations.json › reviews')
    expect(await readFile(path, 'utf8')).toBe(before.replace('"reviews": []', '"reviews": {}'))
  })
})
