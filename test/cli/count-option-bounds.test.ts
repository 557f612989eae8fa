import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'

// A count on the command line is read as written, in decimal digits, within bounds: `1e20` retries
// would retry a failing call for ever and `0x10` is no count anyone means, so each is a usage error
// before the fixture is read or a judge is called.

const headOf = (stderr: string) => stderr.split('\n')[0]

describe("judge's counts", () => {
  const judge = (option: string, value: string) =>
    runCli(['judge', 'fixtures/docuctl-rollback', '--judge', 'kw', '--run', 'examples/judges/keyword-judge.mjs', '--dry-run', option, value])

  test.each([
    ['--retries', '1e20', '--retries takes a whole number from 0 to 100, not "1e20".'],
    ['--retries', '101', '--retries takes a whole number from 0 to 100, not "101".'],
    ['--retries', '0x10', '--retries takes a whole number from 0 to 100, not "0x10".'],
    ['--concurrency', '1e3', '--concurrency takes a whole number from 1 to 1024, not "1e3".'],
    ['--concurrency', '0', '--concurrency takes a whole number from 1 to 1024, not "0".'],
    ['--batch', '1.5', '--batch takes a whole number from 1 to 1000000, not "1.5".'],
    ['--batch', ' 7', '--batch takes a whole number from 1 to 1000000, not " 7".'],
  ])('%s %s is a usage error', async (option, value, message) => {
    const run = await judge(option, value)
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toBe(`vitest-rubric judge: ${message}`)
  })

  test.each(['0x10', '  7', '+3', '1e3', '0', '2147484'])('--timeout %j is a usage error', async (value) => {
    const run = await judge('--timeout', value)
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toBe(`vitest-rubric judge: --timeout takes a number of seconds greater than 0 (at most 2147483), not ${JSON.stringify(value)}.`)
  })

  test.each(['0.5', '30', '2147483'])('--timeout %s is taken', async (value) => {
    const run = await judge('--timeout', value)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
  })

  test('a count within bounds is taken', async () => {
    const run = await judge('--retries', '100')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
  })
})

describe("agreement's --sample", () => {
  test.each(['1e20', '0', '-3', '2.0', '1000001'])('--sample %j is a usage error', async (value) => {
    const run = await runCli(['agreement', 'fixtures/docuctl-rollback', '--sample', value])
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toBe(`vitest-rubric agreement: --sample takes a whole number of cases from 1 to 1000000, not ${JSON.stringify(value)}.`)
  })

  test('a sample within bounds is drawn', async () => {
    const run = await runCli(['agreement', 'fixtures/docuctl-rollback', '--sample', '2'])
    expect(run.code).toBe(0)
  })
})

describe('--judge on the commands that read labels', () => {
  test.each([
    ['evaluate', 'fixtures/docuctl-rollback'],
    ['calibrate', 'fixtures/docuctl-rollback'],
    ['estimate', 'fixtures/docuctl-rollback'],
    ['sample', 'fixtures/docuctl-rollback', '--size', '2', '--seed', 's', '--by', 'decision'],
  ])('%s takes a judge name, not a path, as the commands that write its file do', async (...args) => {
    const run = await runCli([...args, '--judge', '../../../tmp/x'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--judge: "../../../tmp/x" is not a judge name')
    expect(run.stderr).not.toContain('judges/../')
  })
})
