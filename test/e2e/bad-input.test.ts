import { readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { filesIn } from '../helpers/bad-input.js'
import { makeProject } from '../helpers/scratch.js'
import { runVitest } from '../helpers/run-vitest.js'

/*
 * The entries of the bad-input matrix (test/core/bad-input.test.ts) that a user meets in a Vitest
 * run: a broken file among good fixtures, symbolic link loops under the fixture globs, a glob that
 * matches nothing and a fixture directory that lost its rubric. A file removed from a fixture is
 * in test/e2e/plugin.test.ts.
 */
describe('bad input in a Vitest run', () => {
  test('a broken file and link loops among good fixtures: the good fixture runs once, the broken one fails with its message', async () => {
    const root = await makeProject({
      'fixtures/good': null,
      'fixtures/broken': async (fixture) => writeFile(join(fixture.dir, 'cases.json'), `\ufeff${await readFile(join(fixture.dir, 'cases.json'), 'utf8')}`),
    })
    await symlink('..', join(root, 'fixtures/good/up')) // fixtures/good/up/good/up/…
    await symlink('self', join(root, 'fixtures/self'))
    const before = await filesIn(join(root, 'fixtures/broken'))
    const run = await runVitest({ root })
    expect(run.exitCode).toBe(1)
    expect(run.modules.map(({ id, state }) => `${id}: ${state}`).sort()).toEqual(['fixtures/broken/rubric.json: failed', 'fixtures/good/rubric.json: failed'])
    expect(run.modules.find((module) => module.id === 'fixtures/broken/rubric.json')?.errors).toEqual([
      'fixtures/broken/cases.json: the file starts with a byte-order mark, which JSON does not allow.\n' +
        '  expected: the JSON value from the first byte\n' +
        '  found:    the bytes EF BB BF (a UTF-8 byte-order mark, invisible in most editors)\n' +
        '  fix:      save the file as UTF-8 without a BOM (an editor setting: "UTF-8", not "UTF-8 with BOM"); the mark is part of the bytes, so it also changes the file\'s SHA-256.',
    ])
    expect(run.counts).toBe('3 passed | 3 failed | 2 todo')
    expect(run.stderr).not.toMatch(/^\s+at /m) // the message, not a stack trace
    expect(await filesIn(join(root, 'fixtures/broken'))).toEqual(before)
  })

  test('a glob that matches nothing and a fixture that lost its rubric fail the run, although every test that ran passed', async () => {
    const root = await makeProject({ 'fixtures/good': null, 'fixtures/lost': async (fixture) => rm(join(fixture.dir, 'rubric.json')) })
    await writeFile(join(root, 'own.test.js'), "import { test, expect } from 'vitest'\ntest('own', () => expect(1).toBe(1))\n")
    const run = await runVitest({
      root,
      plugin: { include: ['fixtures/**', 'fixture/**'] },
      cli: { include: ['*.test.js'], testNamePattern: 'complete$|^own$' },
    })
    expect(run.exitCode).toBe(1)
    expect(
      run.tests
        .filter((each) => each.state === 'passed')
        .map((each) => each.name)
        .sort(),
    ).toEqual(['complete', 'own'])
    expect(run.tests.filter((each) => each.state === 'failed')).toEqual([])
    expect(run.stderr.replaceAll(root, '<root>')).toContain(
      'vitest-rubric: the include glob "fixture/**" matches no fixture directory under <root> (a fixture directory holds rubric.json, or evaluation_rubric.json). Set the include option of rubric() to where your fixtures are.\n' +
        'vitest-rubric: fixtures/lost holds cases.json and annotations.json but neither rubric.json nor evaluation_rubric.json, so it is no fixture and none of its cases runs. Restore its rubric file (from version control, if it was deleted or renamed).\n',
    )
  })

  test('a marker file or fixture folder linked outside the project is no test module: the run fails naming it, the good fixture runs', async () => {
    const root = await makeProject({ 'fixtures/good': null, 'fixtures/linked': null })
    const outside = await makeProject({ lab: null, other: null })
    await rm(join(root, 'fixtures/linked/rubric.json'))
    await symlink(join(outside, 'lab/rubric.json'), join(root, 'fixtures/linked/rubric.json'))
    await symlink(join(outside, 'other'), join(root, 'fixtures/folder'))
    const run = await runVitest({ root })
    expect(run.exitCode).toBe(1)
    expect(run.modules.map(({ id }) => id).sort()).toEqual(['fixtures/good/rubric.json'])
    for (const id of ['fixtures/folder/rubric.json', 'fixtures/linked/rubric.json'])
      expect(run.stderr).toContain(`vitest-rubric: ${id}: the path leads outside the project through a symbolic link (to ${outside}`)
    expect(run.stderr).not.toContain('No test suite found')
  })

  test('no fixture at all fails the run, even with passWithNoTests', async () => {
    const root = await makeProject({ 'elsewhere/docuctl': null })
    const run = await runVitest({ root, cli: { passWithNoTests: true } })
    expect(run.exitCode).toBe(1)
    expect(run.tests).toEqual([])
    expect(run.stderr).toContain('vitest-rubric: the include glob "fixtures/**" matches no fixture directory under ')
  })
})
