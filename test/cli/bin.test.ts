import { spawnSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ROOT } from '../helpers/fixture-copy.js'

// The package as installed: the built bin, run as a child process.
describe('the installed bin', () => {
  const bin = join(ROOT, 'dist/cli/bin.js')

  test('runs from the build, prints JSON and exits 0', () => {
    expect(existsSync(bin), 'dist/ is missing: run `npm run build` (npm test does it)').toBe(true)
    expect(statSync(bin).mode & 0o111, 'the bin must be executable for npx').not.toBe(0)
    const result = spawnSync(process.execPath, [bin, 'evaluate', 'fixtures/docuctl-rollback', '--json'], { cwd: ROOT, encoding: 'utf8' })
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout).coverage.graded).toBe(6)
  })

  test('a missing directory exits 1 with a message and no stack trace', () => {
    const result = spawnSync(process.execPath, [bin, 'evaluate', 'fixtures/nope'], { cwd: ROOT, encoding: 'utf8' })
    expect(result.status).toBe(1)
    expect(result.stderr).toMatchInlineSnapshot(`
      "fixtures/nope: no such fixture directory.
        fix:      pass the path of a directory that holds a fixture (for example fixtures/docuctl-rollback).
      "
    `)
  })

  test('evaluates the debate benchmark', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'dist/cli/bin.js'), 'evaluate', 'fixtures/debate-benchmark', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout).benchmark.gates.baseline.passed).toBe(true)
  })
})
