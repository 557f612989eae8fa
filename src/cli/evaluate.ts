import { criteriaRecord, type CriteriaRecord } from '../core/criteria/record.js'
import { evaluateFixture, loadFixture } from '../core/fixture.js'
import { formatCriteriaRecord } from './format.js'

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
  const records: CriteriaRecord[] = []
  for (const dir of options.dirs) {
    const fixture = await loadFixture(dir, { cwd: options.cwd })
    records.push(criteriaRecord(evaluateFixture(fixture)))
  }
  if (options.json) return JSON.stringify(records.length === 1 ? records[0] : records, null, 2)
  return records.map(formatCriteriaRecord).join('\n\n')
}
