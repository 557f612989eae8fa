import { join, relative } from 'node:path'
import { evaluateFixture, loadFixture, planFixtureTests } from '../core/fixture.js'
import {
  describeRecordChanges,
  readRecordedDecisions,
  recordDecisions,
  sameRecord,
  writeRecordedDecisions,
} from '../core/recorded-decisions.js'

export interface RecordCommandOptions {
  readonly dirs: readonly string[]
  /** Compare with the existing record instead of writing it. */
  readonly check: boolean
  readonly file: string
  readonly cwd: string
}

/**
 * `vitest-rubric record <dir…> [--check]`: writes each fixture's decision record, or with
 * `--check` compares the current decisions with it. Returns the report and whether all matched.
 */
export async function recordCommand(options: RecordCommandOptions): Promise<{ output: string; ok: boolean }> {
  const lines: string[] = []
  let ok = true
  for (const dir of options.dirs) {
    const fixture = await loadFixture(dir, { cwd: options.cwd })
    const current = recordDecisions(planFixtureTests(evaluateFixture(fixture)))
    const path = join(fixture.dir, options.file)
    const display = relative(options.cwd, path)
    if (!options.check) {
      // Writing replaces the record whatever it held, even a malformed one: that is the request.
      const recorded = await readRecordedDecisions(path, display).catch(() => null)
      if (recorded !== undefined && recorded !== null && sameRecord(recorded, current)) lines.push(`${display}: up to date`)
      else {
        await writeRecordedDecisions(path, current)
        lines.push(`${display}: ${recorded === undefined ? 'written' : 'rewritten'}`)
      }
      continue
    }
    const recorded = await readRecordedDecisions(path, display)
    if (recorded === undefined) {
      ok = false
      lines.push(`${display}: no record to check against (write one with \`vitest-rubric record ${fixture.displayDir}\`)`)
    } else if (sameRecord(recorded, current)) {
      lines.push(`${display}: decisions and bindings match`)
    } else {
      ok = false
      lines.push(`${display}: the decisions or bindings differ from the record:`, ...describeRecordChanges(recorded, current).map((line) => `  ${line}`))
    }
  }
  return { output: lines.join('\n'), ok }
}
