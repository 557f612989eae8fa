import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runVitest } from '../helpers/run-vitest.js'
import { makeProject } from '../helpers/scratch.js'

const RECORD = 'fixtures/docuctl-rollback/decisions.record.json'
const states = (run: Awaited<ReturnType<typeof runVitest>>) => Object.fromEntries(run.tests.map((item) => [item.name.split(' — ')[0], item.state]))

describe("expect: 'record': a fixture of authored contrasts can be green", () => {
  test('the first local run writes the record; from then on each case passes while it decides as recorded, rejected ones included', async () => {
    const root = await makeProject({ 'fixtures/docuctl-rollback': null })
    const first = await runVitest({ root, plugin: { expect: 'record' }, cli: { update: 'new' } })
    expect(JSON.parse(await readFile(join(root, RECORD), 'utf8')).decisions['wrong-command']).toMatchObject({ status: 'rejected', reason: 'command, support' })
    const run = await runVitest({ root, plugin: { expect: 'record' }, cli: { update: 'none' } })
    expect(states(run)).toEqual({
      complete: 'passed',
      paraphrase: 'passed',
      negation: 'passed',
      'unsupported-guarantee': 'passed',
      'missing-verification': 'passed',
      'wrong-command': 'passed',
      'uncertain-wording': 'todo',
      'not-reviewed': 'todo',
    })
    expect(run.exitCode).toBe(0)
    expect(first.exitCode).toBe(0)
    // The reporter still prints the outcomes as they are.
    expect(run.stdout).toContain('outcomes            3 accepted · 3 rejected of 6 graded')
  })

  test('a decision that changed fails its case with both decisions; vitest -u rewrites the record', async () => {
    const root = await makeProject({
      'fixtures/docuctl-rollback': async (fixture) => {
        await fixture.editAnnotations((annotations) => {
          annotations.reviews[4]!.judgements['verification']!.rating = 'meets'
        })
        await fixture.acknowledgeReview('missing-verification')
      },
    })
    // The record says what the bundled fixture decides: missing-verification rejected.
    const bundled = await readFile(join(import.meta.dirname, '../../fixtures/docuctl-rollback/decisions.record.json'), 'utf8')
    await writeFile(join(root, RECORD), bundled)
    const run = await runVitest({ root, plugin: { expect: 'record' }, cli: { update: 'none' } })
    const changed = run.tests.find((item) => item.name === 'missing-verification')!
    expect(changed.state).toBe('failed')
    expect(changed.errors[0]).toContain('the decision differs from decisions.record.json: recorded rejected (verification), now accepted.')
    expect(states(run)['complete']).toBe('passed')
    expect(run.exitCode).toBe(1)

    const updated = await runVitest({ root, plugin: { expect: 'record' }, cli: { update: 'all' } })
    expect(updated.exitCode).toBe(0)
    expect(JSON.parse(await readFile(join(root, RECORD), 'utf8')).decisions['missing-verification'].status).toBe('accepted')
  })

  test('in CI, where no record is written, a fixture without one fails and says to commit it', async () => {
    const root = await makeProject({ 'fixtures/docuctl-rollback': null })
    const run = await runVitest({ root, plugin: { expect: 'record' }, cli: { update: 'none' } })
    expect(run.exitCode).toBe(1)
    expect(run.modules[0]?.errors[0]).toContain("expect: 'record' compares each case with the fixture's decision record, and there is none.")
    await expect(readFile(join(root, RECORD))).rejects.toThrow(/ENOENT/)
  })

  test("under the default, expect: 'acceptance', the same fixture is red: its contrasts are rejected", async () => {
    const root = await makeProject({ 'fixtures/docuctl-rollback': null })
    const run = await runVitest({ root })
    expect(states(run)['wrong-command']).toBe('failed')
    expect(run.exitCode).toBe(1)
  })
})
