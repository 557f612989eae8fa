import { displayPath } from '../../core/common/display-path.js'
import { RubricError } from '../../core/common/errors.js'
import { join } from 'node:path'
import { loadFixture } from '../../core/registry.js'
import { gateScopes, planOptions } from '../../run/gate-scope.js'
import { planLoaded } from '../../run/plan-fixture.js'
import { describeRecordChanges, readRecordedDecisions, recordDecisions, sameRecord, writeRecordedDecisions } from '../../core/engine/decision-record.js'
import { needDirs, type Command } from '../command.js'
import { configuredRubricOptions } from '../vitest-config.js'

/**
 * `vitest-rubric decisions <dir…> [--check]`: writes each fixture's decision record, or with
 * `--check` compares the current decisions with it.
 */
export const decisions: Command = {
  name: 'decisions',
  summary: "write each fixture's decision record, or check it with --check",
  help: `Usage: vitest-rubric decisions <dir...> [--check] [--config <file>]

Writes each fixture's decision record (decisions.record.json): every decision and the identities
of the files it was made from, committed so that a changed decision is a visible change. With
--check, compares instead of writing. The record is the one the Vitest plugin compares with: its
options (the record's name, reviewers, agreement, judges, seed, marginGate) are read from rubric()
in the Vitest config that \`vitest\` loads in the working directory.

Options:
  --check           compare the current decisions with the decision record; exit 1 on a difference
  --config <file>   the Vitest config to read rubric()'s options from (default: the one vitest finds)`,
  options: { check: { type: 'boolean', default: false }, config: { type: 'string' } },
  async run({ values, positionals }, io) {
    const dirs = needDirs('decisions', positionals)
    const config = typeof values['config'] === 'string' ? values['config'] : undefined
    const { options, configFile } = await configuredRubricOptions('decisions', io.cwd, config)
    // Said on every line, so that a record written from other options is never mistaken for the plugin's.
    const from = configFile === undefined ? '' : ` (with the rubric() options of ${configFile})`
    const lines: string[] = []
    let ok = true
    const scopes = await gateScopes(options, io.cwd)
    for (const dir of dirs) {
      const fixture = await loadFixture(dir, { cwd: io.cwd })
      const current = recordDecisions(planLoaded(fixture, planOptions(options, scopes, fixture.dir)))
      const path = join(fixture.dir, options.decisionRecord)
      const display = displayPath(io.cwd, path)
      if (values['check'] !== true) {
        // Writing replaces the record whatever it held, even a malformed one: that is the request.
        const recorded = await readRecordedDecisions(path, display, { root: io.cwd }).catch((error: unknown) => {
          // A record outside the project is refused as every fixture file is, and never replaced.
          if (error instanceof RubricError && error.code === 'FILE_OUTSIDE_PROJECT') throw error
          return null
        })
        if (recorded !== undefined && recorded !== null && sameRecord(recorded, current)) lines.push(`${display}: up to date${from}`)
        else {
          await writeRecordedDecisions(path, current, { root: io.cwd })
          lines.push(`${display}: ${recorded === undefined ? 'written' : 'rewritten'}${from}`)
        }
        continue
      }
      const recorded = await readRecordedDecisions(path, display, { root: io.cwd })
      if (recorded === undefined) {
        ok = false
        lines.push(`${display}: no decision record to check against (write one with \`vitest-rubric decisions ${fixture.displayDir}\`)${from}`)
      } else if (sameRecord(recorded, current)) lines.push(`${display}: decisions and bindings match${from}`)
      else {
        ok = false
        lines.push(
          `${display}: the decisions or bindings differ from the decision record${from}:`,
          ...describeRecordChanges(recorded, current).map((line) => `  ${line}`),
        )
      }
    }
    io.stdout(lines.join('\n'))
    return ok ? 0 : 1
  },
}
