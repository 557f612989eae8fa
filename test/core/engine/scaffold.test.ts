import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadFixture } from '../../../src/core/registry.js'
import { initFixture } from '../../../src/core/registry.js'
import { DOCUCTL, ROOT } from '../../helpers/fixture-copy.js'
import { DEBATE } from '../../helpers/scored-copy.js'
import { scratchDir } from '../../helpers/scratch.js'

const read = (dir: string, file: string) => readFile(join(dir, file), 'utf8')

describe('initFixture', () => {
  test('a skeleton: four files that load, each naming its schema relative to the new directory', async () => {
    const cwd = await scratchDir('scaffold')
    const schemaDir = join(cwd, 'schemas')
    const result = await initFixture('fixtures/lab', { cwd, schemaDir })
    expect(result).toStrictEqual({
      dir: 'fixtures/lab',
      kind: 'criteria',
      files: ['fixtures/lab/rubric.json', 'fixtures/lab/source.txt', 'fixtures/lab/cases.json', 'fixtures/lab/annotations.json'],
    })
    const dir = join(cwd, 'fixtures/lab')
    expect(await read(dir, 'rubric.json')).toMatchInlineSnapshot(`
      "{
        "$schema": "../../schemas/rubric.schema.json",
        "id": "lab",
        "version": 1,
        "task": "The question every case of this fixture asks: replace it with yours.",
        "acceptance": "Acceptable when every criterion is judged meets; a missing or uncertain judgement keeps the case pending.",
        "ratings": [
          "meets",
          "does_not_meet",
          "uncertain"
        ],
        "criteria": [
          {
            "id": "example",
            "rule": "Replace with a requirement an acceptable answer meets.",
            "reference_quote": "Replace this file with the source text the criteria quote."
          }
        ]
      }
      "
    `)
    expect(await read(dir, 'source.txt')).toBe('Replace this file with the source text the criteria quote.\n')
    expect(await read(dir, 'cases.json')).toMatchInlineSnapshot(`
      "{
        "$schema": "../../schemas/cases.schema.json",
        "name": "lab",
        "task": "lab",
        "cases": []
      }
      "
    `)
    expect(await read(dir, 'annotations.json')).toMatchInlineSnapshot(`
      "{
        "$schema": "../../schemas/annotations.schema.json",
        "origin": "Say who or what made these judgements (a reviewer, a rating study, an authored example).",
        "reviews": []
      }
      "
    `)
    await expect(loadFixture(dir, { cwd })).resolves.toMatchObject({ kind: 'criteria' })
  })

  test('from a scored rubric file: the rubric copied, and scored cases and annotations', async () => {
    const cwd = await scratchDir('scaffold')
    const result = await initFixture('bench', { cwd, schemaDir: join(cwd, 'schemas'), from: join(DEBATE, 'evaluation_rubric.json') })
    expect(result).toMatchObject({ dir: 'bench', kind: 'scored', files: ['bench/evaluation_rubric.json', 'bench/cases.json', 'bench/annotations.json'] })
    expect(result.copiedFrom).toMatch(/fixtures\/debate-benchmark\/evaluation_rubric\.json$/)
    expect(await readFile(join(cwd, 'bench/evaluation_rubric.json'))).toEqual(await readFile(join(DEBATE, 'evaluation_rubric.json')))
    expect(await read(join(cwd, 'bench'), 'cases.json')).toBe('{\n  "$schema": "../schemas/scored-cases.schema.json",\n  "name": "bench",\n  "cases": []\n}\n')
    expect(JSON.parse(await read(join(cwd, 'bench'), 'annotations.json'))).toMatchObject({ $schema: '../schemas/scored-annotations.schema.json', reviews: [] })
  })

  test('from a criteria fixture directory or its rubric file: rubric and source copied byte for byte', async () => {
    const cwd = await scratchDir('scaffold')
    const fromDir = await initFixture(join(cwd, 'from-dir'), { cwd: ROOT, schemaDir: join(ROOT, 'src/schemas'), from: 'fixtures/docuctl-rollback' })
    expect(fromDir.copiedFrom).toBe('fixtures/docuctl-rollback/rubric.json')
    const copy = await initFixture(join(cwd, 'copy'), { cwd: ROOT, schemaDir: join(ROOT, 'src/schemas'), from: join(DOCUCTL, 'rubric.json') })
    expect(copy.copiedFrom).toBe('fixtures/docuctl-rollback/rubric.json')
    expect(copy.kind).toBe('criteria')
    for (const file of ['rubric.json', 'source.txt']) expect(await readFile(join(cwd, 'copy', file))).toEqual(await readFile(join(DOCUCTL, file)))
    expect(JSON.parse(await read(join(cwd, 'copy'), 'cases.json'))).toMatchObject({ name: 'copy', task: 'copy', cases: [] })
  })

  test('an empty directory is filled; a file, or a directory that holds anything, is refused', async () => {
    const cwd = await scratchDir('scaffold')
    const schemaDir = join(cwd, 'schemas')
    await mkdir(join(cwd, 'empty'))
    await expect(initFixture('empty', { cwd, schemaDir })).resolves.toMatchObject({ dir: 'empty' })
    await writeFile(join(cwd, 'file'), 'x')
    await expect(initFixture('file', { cwd, schemaDir })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [RevisionError: file: a file of that name exists; nothing was written.
        fix:      name a new or empty directory: init never overwrites files.]
    `)
    await mkdir(join(cwd, 'full'))
    for (const name of ['a', 'b', 'c', 'd', 'e']) await writeFile(join(cwd, 'full', name), name)
    await expect(initFixture('full', { cwd, schemaDir })).rejects.toThrow('the directory is not empty (a, b, c, d, e); nothing was written.')
    await writeFile(join(cwd, 'full', 'f'), 'f')
    await expect(initFixture('full', { cwd, schemaDir })).rejects.toThrow(/^full: the directory is not empty \(\w, \w, \w, \w, \w, …\); nothing was written\./)
    expect((await readdir(join(cwd, 'full'))).length).toBe(6)
  })

  test('a source to copy from that is missing, not a fixture, or holds both kinds is refused', async () => {
    const cwd = await scratchDir('scaffold')
    const schemaDir = join(cwd, 'schemas')
    await expect(initFixture('lab', { cwd, schemaDir, from: 'nowhere' })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [RevisionError: nowhere: no such file or directory to copy the rubric from; nothing was written.
        expected: a fixture directory, or a file named rubric.json or evaluation_rubric.json
        fix:      pass --from the directory of an existing fixture (or its rubric file).]
    `)
    await writeFile(join(cwd, 'notes.json'), '{}')
    await expect(initFixture('lab', { cwd, schemaDir, from: 'notes.json' })).rejects.toThrow(
      'notes.json: this is neither a fixture directory nor a rubric file; nothing was written.',
    )
    await mkdir(join(cwd, 'both'))
    await writeFile(join(cwd, 'both/rubric.json'), '{}')
    await writeFile(join(cwd, 'both/evaluation_rubric.json'), '{}')
    await expect(initFixture('lab', { cwd, schemaDir, from: 'both' })).rejects.toMatchObject({ code: 'INIT_SOURCE_INVALID' })
    await mkdir(join(cwd, 'rubric.json'))
    await expect(initFixture('lab', { cwd, schemaDir, from: 'rubric.json' })).rejects.toMatchObject({ code: 'INIT_SOURCE_INVALID' })
    // A rubric that does not load is not copied.
    await writeFile(join(cwd, 'both/evaluation_rubric.json'), '[]')
    await expect(initFixture('lab', { cwd, schemaDir, from: 'both/evaluation_rubric.json' })).rejects.toMatchObject({
      name: 'FixtureError',
      file: 'both/evaluation_rubric.json',
    })
    await mkdir(join(cwd, 'bad'))
    await writeFile(join(cwd, 'bad/rubric.json'), '[]')
    await writeFile(join(cwd, 'bad/source.txt'), 'text')
    await expect(initFixture('lab', { cwd, schemaDir, from: 'bad' })).rejects.toMatchObject({ name: 'FixtureError', file: 'bad/rubric.json' })
    expect((await readdir(cwd)).sort()).toEqual(['bad', 'both', 'notes.json', 'rubric.json'])
  })
})
