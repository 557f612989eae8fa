import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'

const COMMANDS = [
  'evaluate',
  'status',
  'next',
  'init',
  'origin',
  'add',
  'review',
  'show',
  'adjudicate',
  'agreement',
  'calibrate',
  'sample',
  'estimate',
  'compare',
  'judge',
  'serve',
  'report',
  'bind',
  'schema',
  'decisions',
  'convert',
  'resolve',
  'compact',
]

describe('vitest-rubric --help', () => {
  test('lists every command', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    expect(stdout.match(/^ {2}(\w+) /gm)?.map((line) => line.trim())).toEqual(COMMANDS)
  })

  test.each(COMMANDS)('%s --help and help <command> print the usage of that command', async (command) => {
    const flag = await runCli([command, '--help'])
    expect(flag.code).toBe(0)
    expect(flag.stdout).toMatch(new RegExp(`^Usage: vitest-rubric ${command}\\b`))
    expect((await runCli(['help', command])).stdout).toBe(flag.stdout)
  })

  test('agreement --help and calibrate --help say what the bootstrap resamples, when there is no interval, and what is skipped', async () => {
    const agreement = (await runCli(['agreement', '--help'])).stdout.replace(/\s+/g, ' ')
    expect(agreement).toContain('The bootstrap resamples cases with replacement')
    expect(agreement).toContain('overall, the cases with such a judgement of a pooled criterion, each drawn case bringing all its pooled criteria')
    expect(agreement).toContain('Overall pools the criteria whose own alpha is defined')
    expect(agreement).toContain(
      'Below 10 cases there is no interval, and below 25 no overall one: in simulation the pooled interval covered the true alpha in under 93% of such panels.',
    )
    expect(agreement).toContain('above 20% it marks the interval unreliable')
    const calibrate = (await runCli(['calibrate', '--help'])).stdout.replace(/\s+/g, ' ')
    expect(calibrate).toContain('resampling cases, one pair of ratings each; none below 10 cases')
  })

  test("an unknown option prints the command's usage and exits 2", async () => {
    const { code, stderr } = await runCli(['bind', 'fixtures/docuctl-rollback', '--case', 'complete', '--force'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^vitest-rubric bind: unknown option --force\.\n/)
    expect(stderr).toContain('Usage: vitest-rubric bind <dir> (--case <id>... | --all) [--reviewer <name>]... [--dry-run]')
  })

  test('an unknown command is a usage error', async () => {
    const { code, stderr } = await runCli(['rebind'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^vitest-rubric: unknown command "rebind"\./)
  })

  test.each([['toString'], ['constructor', '--help'], ['__proto__'], ['hasOwnProperty', 'fixtures']])(
    'a name inherited from Object (%s) is an unknown command too: usage error, exit 2, no stack',
    async (...argv) => {
      const { code, stdout, stderr } = await runCli(argv)
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toMatch(new RegExp(`^vitest-rubric: unknown command "${argv[0]}"\\.`))
      expect(stderr).not.toMatch(/TypeError|\n\s+at /)
    },
  )
})
