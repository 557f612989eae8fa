import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { detectFixtureKind, fixtureKindsIn, loadFixture } from '../../../src/core/registry.js'
import { DOCUCTL, ROOT } from '../../helpers/fixture-copy.js'
import { DEBATE } from '../../helpers/scored-copy.js'
import { scratchDir } from '../../helpers/scratch.js'

describe('telling the kind of a fixture directory', () => {
  test('by its marker file, a file and not a directory', async () => {
    const dir = await scratchDir('kind')
    expect(await detectFixtureKind(DOCUCTL)).toBe('criteria')
    expect(await detectFixtureKind(DEBATE)).toBe('scored')
    expect(await detectFixtureKind(dir)).toBeUndefined()
    await mkdir(join(dir, 'rubric.json'))
    expect(await fixtureKindsIn(dir)).toEqual([])
    await writeFile(join(dir, 'evaluation_rubric.json'), '{}')
    expect(await fixtureKindsIn(dir)).toEqual(['scored'])
    expect(await fixtureKindsIn(join(dir, 'missing'))).toEqual([])
  })

  test('both markers in one directory: both kinds, and loading it is refused', async () => {
    const dir = await scratchDir('kind')
    await writeFile(join(dir, 'rubric.json'), '{}')
    await writeFile(join(dir, 'evaluation_rubric.json'), '{}')
    expect(await fixtureKindsIn(dir)).toEqual(['criteria', 'scored'])
    await expect(loadFixture(dir, { cwd: dir })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: .: the directory holds the marker files of 2 kinds of fixture, so which one it is would be a guess.
        found:    rubric.json and evaluation_rubric.json
        fix:      keep one fixture per directory: move one of the rubrics, with its cases and annotations, to a directory of its own.]
    `)
    await expect(loadFixture(dir, { cwd: dir })).rejects.toMatchObject({ code: 'FIXTURE_KIND_AMBIGUOUS' })
  })
})

describe('loading a fixture directory', () => {
  test('of another kind than asked for is refused, naming both', async () => {
    await expect(loadFixture('fixtures/docuctl-rollback', { cwd: ROOT, kind: 'scored' })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: fixtures/docuctl-rollback: the directory holds a criteria fixture, not a scored fixture.
        expected: evaluation_rubric.json (a scored fixture)
        found:    rubric.json (a criteria fixture)
        fix:      load it without { kind: 'scored' }, or point at a scored fixture.]
    `)
    await expect(loadFixture('fixtures/debate-benchmark', { cwd: ROOT, kind: 'criteria' })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: fixtures/debate-benchmark: the directory holds a scored fixture, not a criteria fixture.
        expected: rubric.json (a criteria fixture)
        found:    evaluation_rubric.json (a scored fixture)
        fix:      load it without { kind: 'criteria' }, or point at a criteria fixture.]
    `)
    await expect(loadFixture('fixtures/docuctl-rollback', { cwd: ROOT, kind: 'criteria' })).resolves.toMatchObject({ kind: 'criteria' })
    await expect(loadFixture('fixtures/debate-benchmark', { cwd: ROOT })).resolves.toMatchObject({ kind: 'scored' })
  })

  test('that is missing, a file, or empty is refused with what to pass instead', async () => {
    const dir = await scratchDir('kind')
    await writeFile(join(dir, 'notes.txt'), 'x')
    await expect(loadFixture('nope', { cwd: dir })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: nope: no such fixture directory.
        fix:      pass the path of a directory that holds a fixture (for example fixtures/docuctl-rollback).]
    `)
    await expect(loadFixture('notes.txt', { cwd: dir })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: notes.txt: the path is a file, not a fixture directory.
        fix:      pass the directory that holds the fixture's files (.).]
    `)
    // Outside the working folder, the directory is named by its absolute path, not as "..".
    await expect(loadFixture(join(dir, 'notes.txt'), { cwd: join(dir, 'sub') })).rejects.toThrow(
      `${join(dir, 'notes.txt')}: the path is a file, not a fixture directory.\n  fix:      pass the directory that holds the fixture's files (${dir}).`,
    )
    await expect(loadFixture('.', { cwd: dir })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: .: the directory holds no fixture.
        expected: rubric.json, source.txt, cases.json, annotations.json; or evaluation_rubric.json, cases.json, annotations.json; in the records layout, records/ in place of cases.json and annotations.json
        fix:      point at a fixture directory, or add the files of a fixture (see docs/format.md).]
    `)
    await expect(loadFixture('.', { cwd: dir, kind: 'criteria' })).rejects.toMatchObject({
      code: 'FIXTURE_KIND_UNKNOWN',
      summary: 'the directory holds no fixture.',
    })
  })

  test('with fixture files but no rubric is refused, listing what is there', async () => {
    const dir = await scratchDir('kind')
    await writeFile(join(dir, 'cases.json'), '{}')
    await mkdir(join(dir, 'annotations.json'))
    await mkdir(join(dir, 'rubric.json'))
    await expect(loadFixture('.', { cwd: dir })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: .: the directory holds fixture files but no rubric: neither rubric.json nor evaluation_rubric.json is a file there.
        expected: rubric.json, source.txt, cases.json, annotations.json; or evaluation_rubric.json, cases.json, annotations.json; in the records layout, records/ in place of cases.json and annotations.json
        found:    rubric.json (a directory), cases.json, annotations.json (a directory)
        fix:      restore the rubric file (from version control, if it was deleted or renamed): the rubric is what makes the directory a fixture.]
    `)
  })
})
