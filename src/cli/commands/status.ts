import { displayPath } from '../../core/common/display-path.js'
import { plural } from '../../core/common/primitives.js'
import { relative } from 'node:path'
import { FixtureError, type SerializedRubricError } from '../../core/common/errors.js'
import { scanFixtures } from '../../core/engine/discover.js'
import { kinds } from '../../core/registry.js'
import { loadFixture } from '../../core/registry.js'
import { fixtureHistory } from '../../core/engine/fixture-history.js'
import { fixtureStatus, type FixtureStatus } from '../../core/engine/status.js'
import { NULL_FINGERPRINT } from '../../core/json/canonical-json.js'
import { NO_CASES_YET } from '../../core/engine/no-cases.js'
import { openReservations, reservedIn } from '../../web/reservation-file.js'
import { minReviewsOption, type Command } from '../command.js'

/** A fixture that could not be loaded: nothing in it is decided until the defect is fixed. */
export interface RefusedFixture {
  readonly dir: string
  readonly refused: SerializedRubricError
}

/** A case a reviewer holds under `serve --team`, as `status` lists it. */
export interface ListedReservation {
  readonly person: string
  readonly case: string
  /** When the reservation ends, as an ISO time. */
  readonly until: string
}

/**
 * `vitest-rubric status [dir…] [--json]`: what each case needs next, grouped by action. Fails when
 * a case is stale, not bound or refused, so the command can guard CI or a commit.
 */
export const status: Command = {
  name: 'status',
  summary: 'what each case needs next: stale, not bound, unreviewed, uncertain or current',
  help: `Usage: vitest-rubric status [dir...] [--json]

For every case, what a reviewer must do next, grouped by action: a stale answer, source or rubric
(with the criteria a rubric change affects: when the rubric a review was bound to is committed in
git, which rules were reworded and which criteria are unchanged), a new or edited review not bound yet, a refused case,
an unreviewed, incomplete or uncertain review, or nothing. Then the cases that a running (or
stopped) serve --team has reserved for a reviewer and whose time has not run out: person, case,
until. Without directories, checks every fixture below fixtures/.

Options:
  --json              print the status as JSON
  --min-reviews <n>   a case needs n independent reviews (reviews/<name>.json) before it is decided
                      (default 0)

Exit codes: 0 when every review is bound to the files as they are (pending cases included);
1 when a case is stale, not bound or refused, a fixture is refused, or there is no fixture
to check: use it in CI or a pre-commit hook.`,
  options: { json: { type: 'boolean', default: false }, 'min-reviews': { type: 'string' } },
  async run({ values, positionals }, io) {
    const dirs = positionals.length > 0 ? positionals : await fixtureDirs(io.cwd)
    const results: ((FixtureStatus | RefusedFixture) & { reservations: readonly ListedReservation[] })[] = []
    const reservations = await openReservations(io.cwd)
    const reservedHere = (dir: string): ListedReservation[] =>
      reservations.filter((each) => reservedIn(io.cwd, each, dir, io.cwd)).map((each) => ({ person: each.person, case: each.case, until: each.until }))
    const minReviews = minReviewsOption('status', values['min-reviews'])
    // One entry per directory, even when several marker files found it; a refused fixture does not hide the others.
    for (const dir of new Set(dirs)) {
      try {
        const fixture = await loadFixture(dir, { cwd: io.cwd })
        results.push({ ...fixtureStatus(fixture, { panel: { minReviews } }, await fixtureHistory(fixture)), reservations: reservedHere(dir) })
      } catch (error) {
        if (!(error instanceof FixtureError)) throw error
        results.push({ dir: displayPath(io.cwd, dir), refused: error.toJSON(), reservations: reservedHere(dir) })
      }
    }
    const ok = results.length > 0 && results.every((result) => !('refused' in result) && !result.blocked)
    if (values['json'] === true) io.stdout(JSON.stringify(results, null, 2))
    // Nothing checked is no evidence that everything is bound: a hook or CI step must not pass on it.
    else if (results.length === 0) {
      io.stdout(
        'no fixture directory found below fixtures/, so nothing was checked: pass the fixture directories to check, or create one with `vitest-rubric init <dir>`',
      )
    } else
      io.stdout(
        results.map((result) => ('refused' in result ? formatRefused(result) : formatStatus(result)) + formatReservations(result.reservations)).join('\n\n'),
      )
    return ok ? 0 : 1
  },
}

/** Every fixture below `fixtures/`, and every directory there that lost its rubric (it is refused, not skipped). */
/** The fixture directories under `fixtures/`, as `status` finds them when given none. */
export async function fixtureDirs(cwd: string): Promise<string[]> {
  const scan = await scanFixtures(kinds, cwd, ['fixtures/**'], [])
  return [...scan.fixtures.map((found) => found.dir), ...scan.incomplete].map((dir) => relative(cwd, dir))
}

/** The open reservations of a fixture, one line a person; nothing when there are none. */
function formatReservations(reservations: readonly ListedReservation[]): string {
  if (reservations.length === 0) return ''
  const byPerson = new Map<string, ListedReservation[]>()
  for (const each of reservations) byPerson.set(each.person, [...(byPerson.get(each.person) ?? []), each])
  const lines = [`\n  reserved by serve --team (${reservations.length}): held for each reviewer until the time shown, unless they save or skip the case first`]
  for (const [person, held] of byPerson) lines.push(`    ${person}: ${held.map((each) => `${each.case} until ${each.until}`).join(', ')}`)
  return lines.join('\n')
}

function formatRefused(result: RefusedFixture): string {
  return [`${result.dir}: the fixture is refused, so none of its cases is decided`, ...result.refused.message.split('\n').map((line) => `  ${line}`)].join('\n')
}

/** How many cases are listed by id before the rest are counted: `status --json` lists every one. */
const LISTED_CASES = 12

/** `3 cases: a, b, c`, or the first few and how many more. */
function caseList(ids: readonly string[]): string {
  const shown = ids.slice(0, LISTED_CASES).join(', ')
  const more = ids.length - LISTED_CASES
  return `${ids.length === 1 ? '1 case' : `${ids.length} cases`}: ${shown}${more > 0 ? ` and ${more} more (\`status --json\` lists each)` : ''}`
}

/** A finding's detail with the entries' places in their lists left out (`cases[3]` as `cases[…]`): alike for alike findings of several cases. */
function sameDetail(detail: string): string {
  return detail.replaceAll(/\b(cases|reviews)\[\d+\]/g, '$1[…]')
}

/** A fixture's status as text: the hashes a new case records, then each group with its action and cases. */
export function formatStatus(status: FixtureStatus): string {
  const lines = [
    `${status.name} (${status.dir})`,
    '  a case added now records (expected):',
    ...Object.entries(status.newCase).map(([key, sha]) => `    ${key.padEnd(23)}${sha}${sha === NULL_FINGERPRINT ? ' (no review yet)' : ''}`),
  ]
  if (status.cases.length === 0) lines.push(`  ${NO_CASES_YET}`)
  for (const group of status.groups) {
    const cases = status.cases.flatMap((each) => each.findings.filter((finding) => finding.group === group.key).map((finding) => ({ id: each.id, ...finding })))
    if (cases.length === 0) continue
    lines.push(`  ${group.title} (${cases.length}): ${group.action.replaceAll('{dir}', status.dir)}`)
    if (group.key === 'current') {
      lines.push(`    ${cases.map((each) => `${each.id} (${each.detail})`).join(', ')}`)
      continue
    }
    // A command for several cases is said once, with its cases and what it acts on; a case alone keeps its line.
    const byCommand = new Map<string, (typeof cases)[number][]>()
    for (const each of cases) {
      const key = each.next?.command ?? ''
      byCommand.set(key, [...(byCommand.get(key) ?? []), each])
    }
    // Findings without a command that read the same but for the entry's place in its list are said once, with their cases.
    const byDetail = new Map<string, (typeof cases)[number][]>()
    for (const each of cases) {
      if (each.next !== undefined) continue
      const key = sameDetail(each.detail)
      byDetail.set(key, [...(byDetail.get(key) ?? []), each])
    }
    for (const each of cases) {
      const same = each.next === undefined ? [] : byCommand.get(each.next.command)!
      const alike = each.next === undefined ? byDetail.get(sameDetail(each.detail))! : []
      if (alike.length >= 2) {
        if (alike[0] === each) lines.push(`    ${caseList([...new Set(alike.map((one) => one.id))])}`, `      ${sameDetail(each.detail)}`)
      } else if (same.length < 2) lines.push(`    ${each.id}: ${each.detail}`)
      else if (same[0] === each) {
        const { command, otherwise } = each.next!
        lines.push(`    \`${command}\`${otherwise === undefined ? '' : ` (or, ${otherwise})`} for ${caseList([...new Set(same.map((one) => one.id))])}`)
        for (const text of new Set(same.map((one) => one.next!.what))) lines.push(`      ${text}`)
      }
    }
  }
  for (const note of status.notes) lines.push(`  note on ${note.file}: ${note.text}`)
  if (status.forked.length > 0)
    lines.push(
      `  status: ${plural(status.forked.length, 'case has', 'cases have')} records revised apart (${status.forked.join(', ')}): pending until \`vitest-rubric resolve ${status.dir} <case> --keep <save>\` keeps one revision`,
    )
  if (status.unbound || status.forked.length === 0)
    lines.push(
      status.unbound
        ? '  status: some judgements do not apply to the files as they are, or are not bound yet; the cases above are refused until revised and bound'
        : '  status: every review is bound to the files as they are',
    )
  return lines.join('\n')
}
