import { scanFixtures } from '../plugin/discover.js'
import { relative, resolve } from 'node:path'
import { NULL_FINGERPRINT } from '../core/canonical-json.js'
import { FixtureError, type SerializedRubricError } from '../core/errors.js'
import { loadFixture } from '../core/fixture.js'
import { CASE_STATES, fixtureStatus, type CaseState, type FixtureStatus } from '../core/revisions/status.js'

export interface StatusCommandOptions {
  /** Fixture directories; none: every fixture below `fixtures/`. */
  readonly dirs: readonly string[]
  readonly json: boolean
  readonly cwd: string
}

/** What each state asks of a reviewer, in the order `status` lists them. */
const ACTIONS: Readonly<Record<CaseState, { title: string; action: (dir: string) => string }>> = {
  'stale-answer': { title: 'stale answer', action: (dir) => `the answer changed since its review: re-read it, revise the review, then \`vitest-rubric bind ${dir} --case <id>\`` },
  'stale-output': { title: 'stale output', action: (dir) => `the system's output changed since its review: re-review it, then \`vitest-rubric bind ${dir} --case <id>\`` },
  'stale-source': { title: 'stale source', action: (dir) => `the source changed since the review: check the judgements against it, then \`vitest-rubric bind ${dir} --case <id>\`` },
  'stale-spec': { title: 'stale case spec', action: (dir) => `the case's spec changed since its reviews: re-review the outputs against it, then \`vitest-rubric bind ${dir} --case <id>\`` },
  'stale-rubric': { title: 'stale rubric', action: (dir) => `the rubric changed since the review: revise the judgements of the affected criteria, then \`vitest-rubric bind ${dir} --case <id>\`` },
  unacknowledged: { title: 'edited review not acknowledged', action: (dir) => `check the edit, then acknowledge it with \`vitest-rubric bind ${dir} --case <id>\`` },
  refused: { title: 'refused', action: () => 'fix what the message names (`vitest-rubric evaluate` prints it in full)' },
  unreviewed: { title: 'unreviewed', action: () => 'review the answer and add the review to annotations.json, then bind it' },
  incomplete: { title: 'incomplete review', action: () => 'judge the missing criteria (the case stays pending until then)' },
  uncertain: { title: 'uncertain', action: () => 'settle the uncertain ratings as meets or does_not_meet (the case stays pending until then)' },
  'manual-review': { title: 'manual review', action: () => 'too few dimensions apply: a person decides this case (it stays pending)' },
  current: { title: 'bound and current', action: () => 'nothing to do' },
}

/**
 * `vitest-rubric status [dir…]`: what each case needs next, grouped by action. `ok` is false when
 * a case is stale, unacknowledged or refused, so the command can guard CI or a commit.
 */
export async function statusCommand(options: StatusCommandOptions): Promise<{ output: string; ok: boolean }> {
  const dirs = options.dirs.length > 0 ? options.dirs : await fixtureDirs(options.cwd)
  const results: (FixtureStatus | RefusedFixture)[] = []
  // One line per directory, even when several marker files found it; a refused fixture does not hide the others.
  for (const dir of new Set(dirs)) {
    try {
      results.push(fixtureStatus(await loadFixture(dir, { cwd: options.cwd })))
    } catch (error) {
      if (!(error instanceof FixtureError)) throw error
      results.push({ dir: relative(options.cwd, resolve(options.cwd, dir)) || '.', refused: error.toJSON() })
    }
  }
  const ok = results.every((result) => !('refused' in result) && !result.blocked)
  if (options.json) return { output: JSON.stringify(results, null, 2), ok }
  // Nothing checked is no evidence that everything is bound: a hook or CI step must not pass on it.
  if (results.length === 0) {
    return {
      output: 'no fixture directory found below fixtures/, so nothing was checked: pass the fixture directories to check, or create one with `vitest-rubric init <dir>`',
      ok: false,
    }
  }
  return { output: results.map((result) => ('refused' in result ? formatRefused(result) : formatStatus(result))).join('\n\n'), ok }
}

/** Every fixture below `fixtures/`, and every directory there that lost its rubric (it is refused, not skipped). */
async function fixtureDirs(cwd: string): Promise<string[]> {
  const scan = await scanFixtures(cwd, ['fixtures/**'], [])
  return [...scan.fixtures.map((found) => found.dir), ...scan.incomplete].map((dir) => relative(cwd, dir))
}

/** A fixture that could not be loaded: nothing in it is decided until the defect is fixed. */
export interface RefusedFixture {
  readonly dir: string
  readonly refused: SerializedRubricError
}

function formatRefused(result: RefusedFixture): string {
  return [`${result.dir}: the fixture is refused, so none of its cases is decided`, ...result.refused.message.split('\n').map((line) => `  ${line}`)].join('\n')
}

export function formatStatus(status: FixtureStatus): string {
  const lines = [
    `${status.name} (${status.dir})`,
    '  a case added now records (expected):',
    ...Object.entries(status.newCase).map(([key, sha]) => `    ${key.padEnd(23)}${sha}${sha === NULL_FINGERPRINT ? ' (no review yet)' : ''}`),
  ]
  if (status.cases.length === 0) lines.push('  no cases yet: add them to cases.json')
  for (const state of CASE_STATES) {
    const cases = status.cases.flatMap((each) => each.findings.filter((finding) => finding.state === state).map((finding) => ({ id: each.id, ...finding })))
    if (cases.length === 0) continue
    const { title, action } = ACTIONS[state]
    lines.push(`  ${title} (${cases.length}): ${action(status.dir)}`)
    if (state === 'current') lines.push(`    ${cases.map((each) => `${each.id} (${each.detail})`).join(', ')}`)
    else for (const each of cases) lines.push(`    ${each.id}: ${each.detail}`)
  }
  lines.push(
    status.blocked
      ? '  status: some judgements no longer apply to the files as they are; the cases above are refused until revised and bound'
      : '  status: every review is bound to the files as they are',
  )
  return lines.join('\n')
}
