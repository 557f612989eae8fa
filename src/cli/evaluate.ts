import { evaluateFixture, fixtureRecord, loadFixture, type FixtureRecord } from '../core/fixture.js'
import { formatFixtureRecord } from './format.js'

export interface EvaluateCommandOptions {
  readonly dirs: readonly string[]
  readonly json: boolean
  readonly cwd: string
}

/**
 * `vitest-rubric evaluate <dir…> [--json]`: decides every case of each fixture and prints the
 * decisions and coverage. Rejected and pending cases are results, not errors: only a fixture that
 * cannot be loaded makes the command fail (it throws, and the caller prints the message).
 */
export async function evaluateCommand(options: EvaluateCommandOptions): Promise<string> {
  const records: FixtureRecord[] = []
  for (const dir of options.dirs) {
    records.push(fixtureRecord(evaluateFixture(await loadFixture(dir, { cwd: options.cwd }))))
  }
  if (options.json) return JSON.stringify(records.length === 1 ? records[0] : records, null, 2)
  return records.map(formatFixtureRecord).join('\n\n')
}
