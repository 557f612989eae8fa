import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { runVitest } from '../helpers/run-vitest.js'
import { scratchDir } from '../helpers/scratch.js'

/** A project whose vitest.config.mjs gives rubric() a judge gate, with one judge's labels of two cases. */
async function gatedProject(): Promise<{ root: string; config: string }> {
  const root = await scratchDir('decisions')
  await cp(DOCUCTL, join(root, 'fixtures/lab'), { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
  for (const id of ['complete', 'wrong-command']) {
    const labels = join(root, `labels-${id}.json`)
    await writeFile(labels, JSON.stringify({ command: { rating: 'meets', reason: 'The judge read the command.', answer_span: '' } }))
    const labelled = await runCli(['review', 'fixtures/lab', '--case', id, '--judge', 'j', '--origin', 'model-x', '--from', labels], root)
    expect(labelled.stderr).toBe('')
  }
  const plugin = pathToFileURL(join(ROOT, 'dist/plugin.js')).href
  const config = join(root, 'vitest.config.mjs')
  await writeFile(
    config,
    `import { rubric } from ${JSON.stringify(plugin)}\nexport default { plugins: [rubric({ judges: { j: { minKappa: -1, minCases: 10 } }, reporter: { outputFile: false } })] }\n`,
  )
  return { root, config }
}

describe('decisions', () => {
  test('writes the record the plugin compares with: the gates of rubric() in the Vitest config are part of it', { timeout: 120_000 }, async () => {
    const { root, config } = await gatedProject()
    const written = await runCli(['decisions', 'fixtures/lab'], root)
    expect(written).toMatchObject({ code: 0, stderr: '' })
    expect(written.stdout).toBe('fixtures/lab/decisions.record.json: written (with the rubric() options of vitest.config.mjs)\n')
    const record = JSON.parse(await readFile(join(root, 'fixtures/lab/decisions.record.json'), 'utf8'))
    expect(Object.keys(record.checks)).toContain('judge j agrees with reviewers on command')

    const run = await runVitest({ root, cli: { config }, config: {} })
    const lab = run.modules.find((module) => module.id === 'fixtures/lab/rubric.json')!
    expect(lab.errors.join('\n')).not.toContain('differ from decisions.record.json')

    // The other way round: the record `vitest -u` writes is the one `decisions --check` expects.
    const rubric = join(root, 'fixtures/lab/rubric.json')
    await writeFile(rubric, (await readFile(rubric, 'utf8')).replace('"version": 1', '"version": 2'))
    await runVitest({ root, cli: { config, update: true }, config: {} })
    const checked = await runCli(['decisions', 'fixtures/lab', '--check'], root)
    expect(checked.stdout).toBe('fixtures/lab/decisions.record.json: decisions and bindings match (with the rubric() options of vitest.config.mjs)\n')
    expect(checked.code).toBe(0)
  })

  test('--config names another Vitest config; one that does not load is refused with its error', { timeout: 60_000 }, async () => {
    const { root, config } = await gatedProject()
    await cp(config, join(root, 'other.config.mjs'))
    const named = await runCli(['decisions', 'fixtures/lab', '--config', 'other.config.mjs', '--check'], root)
    expect(named.stdout).toBe(
      'fixtures/lab/decisions.record.json: no decision record to check against (write one with `vitest-rubric decisions fixtures/lab`) (with the rubric() options of other.config.mjs)\n',
    )
    const missing = await runCli(['decisions', 'fixtures/lab', '--config', 'nowhere.config.mjs'], root)
    expect(missing.code).toBe(2)
    expect(missing.stderr.split('\n')[0]).toMatchInlineSnapshot(`"vitest-rubric decisions: the Vitest config nowhere.config.mjs does not exist."`)
  })

  test('a config without rubric() decides with the defaults, and names no config', { timeout: 60_000 }, async () => {
    const { root, config } = await gatedProject()
    await writeFile(config, 'export default { test: {} }\n')
    const written = await runCli(['decisions', 'fixtures/lab'], root)
    expect(written).toEqual({ code: 0, stdout: 'fixtures/lab/decisions.record.json: written\n', stderr: '' })
    const record = JSON.parse(await readFile(join(root, 'fixtures/lab/decisions.record.json'), 'utf8'))
    expect(record.checks).toEqual({})
  })

  test('a decisionRecord naming a fixture file is refused with its own message, and the file is left as it was', { timeout: 60_000 }, async () => {
    const { root, config } = await gatedProject()
    const plugin = pathToFileURL(join(ROOT, 'dist/plugin.js')).href
    await writeFile(config, `import { rubric } from ${JSON.stringify(plugin)}\nexport default { plugins: [rubric({ decisionRecord: 'annotations.json' })] }\n`)
    const annotations = await readFile(join(root, 'fixtures/lab/annotations.json'))
    const refused = await runCli(['decisions', 'fixtures/lab'], root)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('rubric() options › decisionRecord: the value breaks a rule of the format.')
    expect(refused.stderr).toContain('expected: a file name ending in .json that no fixture file has: the record is written over the file it names')
    expect(refused.stderr).toContain('found:    "annotations.json"')
    expect(await readFile(join(root, 'fixtures/lab/annotations.json'))).toEqual(annotations)
  })
})
