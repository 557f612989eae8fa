import { join, relative } from 'node:path'
import { evaluateFixture } from '../../core/engine/evaluate.js'
import { loadFixture } from '../../core/engine/fixture.js'
import { planFixtureTests } from '../../core/engine/plan.js'
import { describeRecordChanges, readRecordedDecisions, recordDecisions, sameRecord, writeRecordedDecisions } from '../../core/engine/decision-record.js'
import { needDirs, type Command } from '../command.js'

/** The decision record's file name, as the plugin's `decisionRecord` option defaults it. */
const DECISION_RECORD = 'decisions.record.json'

/**
 * `vitest-rubric decisions <dir…> [--check]`: writes each fixture's decision record, or with
 * `--check` compares the current decisions with it.
 */
export const decisions: Command = {
  name: 'decisions',
  summary: "write each fixture's decision record, or check it with --check",
  help: `Usage: vitest-rubric decisions <dir...> [--check]

Writes each fixture's decision record (${DECISION_RECORD}): every decision and the identities
of the files it was made from, committed so that a changed decision is a visible change. With
--check, compares instead of writing.

Options:
  --check   compare the current decisions with the decision record; exit 1 on a difference`,
  options: { check: { type: 'boolean', default: false } },
  async run({ values, positionals }, io) {
    const lines: string[] = []
    let ok = true
    for (const dir of needDirs('decisions', positionals)) {
      const fixture = await loadFixture(dir, { cwd: io.cwd })
      const current = recordDecisions(planFixtureTests(evaluateFixture(fixture)))
      const path = join(fixture.dir, DECISION_RECORD)
      const display = relative(io.cwd, path)
      if (values['check'] !== true) {
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
        lines.push(`${display}: no decision record to check against (write one with \`vitest-rubric decisions ${fixture.displayDir}\`)`)
      } else if (sameRecord(recorded, current)) lines.push(`${display}: decisions and bindings match`)
      else {
        ok = false
        lines.push(`${display}: the decisions or bindings differ from the decision record:`, ...describeRecordChanges(recorded, current).map((line) => `  ${line}`))
      }
    }
    io.stdout(lines.join('\n'))
    return ok ? 0 : 1
  },
}
