import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { DEBATE } from '../helpers/scored-copy.js'
import { runVitest } from '../helpers/run-vitest.js'
import { scratchDir } from '../helpers/scratch.js'

describe('vitest-rubric init', () => {
  test('a skeleton evaluates at once, with nothing graded and nothing to bind', async () => {
    const cwd = await scratchDir('init')
    const init = await runCli(['init', 'fixtures/lab'], cwd)
    expect(init.code).toBe(0)
    expect(init.stdout).toContain('created criteria fixture fixtures/lab from the skeleton rubric:')
    expect((await readdir(join(cwd, 'fixtures/lab'))).sort()).toEqual(['annotations.json', 'cases.json', 'rubric.json', 'source.txt'])

    const evaluated = await runCli(['evaluate', 'fixtures/lab', '--json'], cwd)
    expect(evaluated.code).toBe(0)
    expect(JSON.parse(evaluated.stdout).coverage).toMatchObject({ candidates: 0, graded: 0, pending: 0, refused: 0, outcomes: null })
    const status = await runCli(['status'], cwd)
    expect(status.code).toBe(0)
    expect(status.stdout).toContain('no cases yet: add them with `vitest-rubric add`')
  })

  test.each(['criteria', 'scored'] as const)('the origin init writes in a %s fixture is a placeholder, and evaluate prints it as not given', async (kind) => {
    const cwd = await scratchDir('init')
    const args = kind === 'criteria' ? ['init', 'fixtures/lab'] : ['init', 'fixtures/lab', '--from', join(DEBATE, 'evaluation_rubric.json')]
    expect((await runCli(args, cwd)).code).toBe(0)
    const evaluated = await runCli(['evaluate', 'fixtures/lab'], cwd)
    expect(evaluated.stdout).toContain(
      '\n  origin: not given (fixtures/lab/annotations.json › origin is still the placeholder: set it with `vitest-rubric origin fixtures/lab --set "…"`, saying who or what made these judgements)\n',
    )
    // The record keeps the file's text: it is what the file says.
    expect(JSON.parse((await runCli(['evaluate', 'fixtures/lab', '--json'], cwd)).stdout).fixture.origin).toMatch(/^Say who or what made these judgements/)
  })

  test('--layout records sets up what git needs: records/ with .gitattributes (merge=union), and status has nothing to say of it', async () => {
    const cwd = await scratchDir('init-records')
    const init = await runCli(['init', 'fixtures/lab', '--template', 'docuctl', '--layout', 'records'], cwd)
    expect(init.code, init.stderr).toBe(0)
    expect(init.stdout).toContain('created criteria fixture fixtures/lab in the records layout')
    expect((await readdir(join(cwd, 'fixtures/lab'))).sort()).toEqual(['records', 'rubric.json', 'source.txt'])
    expect(await readFile(join(cwd, 'fixtures/lab/records/.gitattributes'), 'utf8')).toBe('*.jsonl merge=union eol=lf\n')
    await writeFile(join(cwd, 'answer.txt'), 'Run `docuctl releases rollback r41 --environment staging`.')
    expect((await runCli(['add', 'fixtures/lab', '--id', 'c1', '--answer-file', 'answer.txt', '--citation', 'the guide'], cwd)).code).toBe(0)
    const status = await runCli(['status', 'fixtures/lab'], cwd)
    expect(status.stdout).not.toMatch(/gitattributes/)
    expect(status.stdout).toMatch(/c1/)
    const bad = await runCli(['init', 'fixtures/other', '--layout', 'sharded'], cwd)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--layout takes seed or records, not "sharded".')
  })

  test('a records-layout fixture without cases points to `add`, not to a cases.json it does not have', async () => {
    const root = await scratchDir('init-records')
    expect((await runCli(['init', 'fixtures/lab', '--template', 'docuctl', '--layout', 'records'], root)).code).toBe(0)
    const status = await runCli(['status', 'fixtures/lab'], root)
    expect(status.stdout).toContain('  no cases yet: add them with `vitest-rubric add`\n')
    expect(status.stdout).not.toContain('cases.json')
    const run = await runVitest({ root })
    expect(run.tests.map((each) => `${each.state}: ${each.name}`)).toEqual(['todo: no cases yet: add them with `vitest-rubric add`'])
  })

  test('every file names its JSON Schema by a path that resolves to the package schemas', async () => {
    const cwd = await scratchDir('init')
    await runCli(['init', 'lab'], cwd)
    for (const [file, schema] of [
      ['rubric.json', 'rubric.schema.json'],
      ['cases.json', 'cases.schema.json'],
      ['annotations.json', 'annotations.schema.json'],
    ] as const) {
      const { $schema } = JSON.parse(await readFile(join(cwd, 'lab', file), 'utf8')) as { $schema: string }
      expect($schema.endsWith(`/src/schemas/${schema}`)).toBe(true)
      const resolved = JSON.parse(await readFile(join(cwd, 'lab', $schema), 'utf8')) as { title?: string }
      expect(resolved).toEqual(JSON.parse(await readFile(join(ROOT, 'src/schemas', schema), 'utf8')))
    }
  })

  test('--from copies the rubric and source byte for byte, so their hashes and existing reviews still bind', async () => {
    const cwd = await scratchDir('init')
    const { code, stdout } = await runCli(['init', 'copy', '--from', DOCUCTL], cwd)
    expect(code).toBe(0)
    expect(stdout).toContain('(copied byte for byte)')
    for (const file of ['rubric.json', 'source.txt']) {
      expect((await readFile(join(cwd, 'copy', file))).equals(await readFile(join(DOCUCTL, file)))).toBe(true)
    }
    // Bring one reviewed case over: it is decided as in the original fixture, with no rebinding.
    const original = JSON.parse(await readFile(join(DOCUCTL, 'cases.json'), 'utf8'))
    const reviews = JSON.parse(await readFile(join(DOCUCTL, 'annotations.json'), 'utf8'))
    const cases = JSON.parse(await readFile(join(cwd, 'copy/cases.json'), 'utf8'))
    const annotations = JSON.parse(await readFile(join(cwd, 'copy/annotations.json'), 'utf8'))
    cases.cases.push(original.cases[0])
    annotations.reviews.push(reviews.reviews[0])
    expect(original.cases[0].expected.review_sha256).toBe(fingerprint(reviews.reviews[0]))
    await writeFile(join(cwd, 'copy/cases.json'), JSON.stringify(cases))
    await writeFile(join(cwd, 'copy/annotations.json'), JSON.stringify(annotations))
    const evaluated = JSON.parse((await runCli(['evaluate', 'copy', '--json'], cwd)).stdout)
    expect(evaluated.decisions.complete.status).toBe('accepted')
  })

  test('--from a scored rubric file scaffolds a scored fixture', async () => {
    const cwd = await scratchDir('init')
    const { code } = await runCli(['init', 'bench', '--from', join(DEBATE, 'evaluation_rubric.json')], cwd)
    expect(code).toBe(0)
    expect((await readdir(join(cwd, 'bench'))).sort()).toEqual(['annotations.json', 'cases.json', 'evaluation_rubric.json'])
    const evaluated = JSON.parse((await runCli(['evaluate', 'bench', '--json'], cwd)).stdout)
    expect(evaluated.fixture.kind).toBe('scored')
    expect(evaluated.coverage.candidates).toBe(0)
  })

  test.each([
    ['docuctl', 'criteria', DOCUCTL, ['rubric.json', 'source.txt']],
    ['debate', 'scored', DEBATE, ['evaluation_rubric.json']],
  ] as const)('--template %s starts from the shipped rubric, byte for byte, and evaluates at once', async (name, kind, bundled, copied) => {
    const cwd = await scratchDir('init')
    const init = await runCli(['init', 'fixtures/mine', '--template', name], cwd)
    expect(init.stderr).toBe('')
    expect(init.stdout).toContain(`created ${kind} fixture fixtures/mine with the rubric of template ${name} (copied byte for byte):`)
    for (const file of copied) expect(await readFile(join(cwd, 'fixtures/mine', file))).toEqual(await readFile(join(bundled, file)))
    const evaluated = await runCli(['evaluate', 'fixtures/mine'], cwd)
    expect(evaluated.code).toBe(0)
    expect(evaluated.stdout).toContain('  decisions: none yet (no cases)')
  })

  test('an unknown template, or --template beside --from, is a usage error that names the templates', async () => {
    const cwd = await scratchDir('init')
    const unknown = await runCli(['init', 'lab', '--template', 'docuctl-rollback'], cwd)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/^vitest-rubric init: there is no template "docuctl-rollback"; the templates are docuctl and debate\./)
    const both = await runCli(['init', 'lab', '--template', 'docuctl', '--from', DOCUCTL], cwd)
    expect(both.code).toBe(2)
    expect(both.stderr).toMatch(/^vitest-rubric init: pass --from or --template, not both\./)
    expect(await readdir(cwd)).toEqual([])
  })

  test('never writes into a directory that holds anything', async () => {
    const cwd = await scratchDir('init')
    await mkdir(join(cwd, 'taken'))
    await writeFile(join(cwd, 'taken/notes.md'), 'mine')
    const { code, stderr } = await runCli(['init', 'taken'], cwd)
    expect(code).toBe(1)
    expect(stderr).toMatchInlineSnapshot(`
      "taken: the directory is not empty (notes.md); nothing was written.
        fix:      name a new or empty directory: init never overwrites files.
      "
    `)
    expect(await readdir(join(cwd, 'taken'))).toEqual(['notes.md'])
  })

  test('--from something that is not a fixture or a rubric is refused', async () => {
    const cwd = await scratchDir('init')
    await writeFile(join(cwd, 'notes.json'), '{}')
    const { code, stderr } = await runCli(['init', 'lab', '--from', 'notes.json'], cwd)
    expect(code).toBe(1)
    expect(stderr).toContain('notes.json: this is neither a fixture directory nor a rubric file; nothing was written.')
    expect(await readdir(cwd)).toEqual(['notes.json'])
  })

  test.each(['docuctl', 'debate'])('the add command init suggests for --template %s works as printed', async (name) => {
    const cwd = await scratchDir('init')
    const init = await runCli(['init', 'fixtures/mine', '--template', name], cwd)
    const suggested = init.stdout.split('\n').find((line) => line.trim().startsWith('vitest-rubric add '))!
    const debateCase = JSON.parse(await readFile(join(DEBATE, 'cases.json'), 'utf8')).cases[0]
    await writeFile(join(cwd, 'spec.json'), JSON.stringify(debateCase.spec))
    await writeFile(join(cwd, 'outputs.json'), JSON.stringify(debateCase.outputs))
    const values: Record<string, string> = {
      '--id': 'first',
      '--answer': 'Run `docuctl releases rollback r41 --environment staging`.',
      '--citation': 'Fictional docuctl 3 guide',
      '--spec': 'spec.json',
      '--outputs': 'outputs.json',
    }
    const words = suggested.split('#')[0]!.trim().split(/\s+/).slice(1)
    const args = words.map((word, at) => (word.startsWith('<') ? values[words[at - 1]!]! : word))
    const added = await runCli(args, cwd)
    expect(added.stderr).toBe('')
    expect(added.stdout).toContain('added first: pending (no review)')
  })

  test.each(['skeleton', 'docuctl', 'debate'])('in Vitest a new fixture (%s) is one todo, never a pass, a failed check or an empty module', async (name) => {
    const root = await scratchDir('init')
    await runCli(['init', 'fixtures/lab', ...(name === 'skeleton' ? [] : ['--template', name])], root)
    const run = await runVitest({ root })
    expect(run.exitCode).toBe(0)
    expect(run.tests.map((each) => `${each.state}: ${each.name}`)).toEqual(['todo: no cases yet: add them with `vitest-rubric add`'])
  })

  test('in Vitest a new fixture is one todo, never a pass or an empty module', async () => {
    const root = await scratchDir('init')
    await runCli(['init', 'fixtures/lab'], root)
    const run = await runVitest({ root })
    expect(run.exitCode).toBe(0)
    expect(run.tests.map((each) => `${each.state}: ${each.name}`)).toEqual(['todo: no cases yet: add them with `vitest-rubric add`'])
    expect(run.stdout).toContain(
      '  fixtures/lab · lab (criteria)\n    origin              not given (annotations.json › origin): `vitest-rubric origin <dir> --set` says who or what made the judgements\n    no cases yet: nothing executed, nothing graded, no quality figure\n',
    )
  })
})
