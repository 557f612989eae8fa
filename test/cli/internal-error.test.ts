import { afterEach, describe, expect, test, vi } from 'vitest'
import { COMMANDS, internalError } from '../../src/cli/main.js'
import { runCli } from '../helpers/cli.js'

// An error that is no RubricError is a bug of the package: one line, exit 1, the stack only with DEBUG.
describe('an internal error', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    vi.unstubAllEnvs()
  })

  test('is printed as one line asking for a report, without a stack, and exits 1', async () => {
    vi.stubEnv('DEBUG', '')
    vi.spyOn(COMMANDS.get('schema')!, 'run').mockRejectedValue(new TypeError("Cannot read properties of undefined (reading 'x')\nsecond line"))
    const { code, stdout, stderr } = await runCli(['schema'])
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toBe("internal error: Cannot read properties of undefined (reading 'x') (please report it, with the command; DEBUG=1 shows the stack)\n")
  })

  test('shows its stack when DEBUG is set', async () => {
    vi.stubEnv('DEBUG', '1')
    vi.spyOn(COMMANDS.get('schema')!, 'run').mockRejectedValue(new Error('boom'))
    const { code, stderr } = await runCli(['schema'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^internal error: boom \(please report it, with the command; DEBUG=1 shows the stack\)\nError: boom\n {4}at /)
  })

  test('names a thrown value that is no Error', () => {
    expect(internalError('a string', undefined)).toBe('internal error: a string (please report it, with the command; DEBUG=1 shows the stack)')
  })
})
