import { resolve } from 'node:path'
import { displayPath } from '../core/common/display-path.js'
import { RevisionError, RubricError } from '../core/common/errors.js'
import { loadFixture } from '../core/engine/fixture.js'
import { kinds, refuseOutputOverFixture } from '../core/registry.js'
import { outputBoundary, readOutputStart, writeOutputFile, type OutputPlace } from '../core/json/output-file.js'
import { evaluateWithStates, type EvaluateOptions } from '../core/engine/evaluate.js'
import { isReportPage, jsonForScript, reportPage } from './html.js'
import { pageCase, pageFixture } from './page-data.js'
import type { FixtureEntry, ReportCase, ReportData, ReportShared } from './protocol.js'
import { NO_GATES, type ReportGates } from './report-gates.js'

/**
 * The static report of some fixtures: one self-contained, read-only HTML file with the overview and
 * every case view of the review page, without its forms. Nothing is fetched when it is opened, so
 * it works from `file://` and as a CI artifact. `gates` are the gates the project's Vitest config
 * sets, with each one's checks of a fixture; without them the report says that none is set.
 */
export async function renderReport(dirs: readonly string[], cwd: string, options: EvaluateOptions = {}, gates: ReportGates = NO_GATES): Promise<string> {
  const fixtures: FixtureEntry[] = []
  // What every case of a fixture shows alike (the source, the criteria's rules and quotes) is written once per fixture.
  const shared: Record<number, ReportShared> = {}
  // Each case is written out as it is made, so that no object of every case is held at once.
  const cases: string[] = []
  for (const [index, dir] of dirs.entries()) {
    try {
      const fixture = await loadFixture(kinds, dir, { cwd })
      const decided = evaluateWithStates(fixture, { ...options, allStates: true })
      const page = await pageFixture(fixture, index, options, { role: 'reader' }, decided, gates.estimateJudgeOf?.(fixture.dir))
      fixtures.push(gates.config === null ? page : { ...page, gates: await gates.checksOf(fixture.dir, decided.evaluation) })
      for (const [position, row] of page.cases.entries()) {
        // A read-only view: no versions to save with, and the bindings as the page shows them.
        const { source, criteria, bindings, ...rest } = pageCase(fixture, index, row.id, { role: 'reader' }, options, decided, { position, readOnly: true })
        shared[index] ??= {
          source,
          criteria: criteria.map(({ criterion, marker, rule, referenceQuote, quoteAt }) => ({ criterion, marker, rule, referenceQuote, quoteAt })),
        }
        const view: ReportCase = {
          ...rest,
          // A kind whose source differs from case to case keeps each case's own.
          ...(source === shared[index].source ? {} : { source }),
          bindings: bindings.map(({ location, stale, meaning }) => ({ location, stale, meaning })),
          criteria: criteria.map(({ rating, reason, answerSpan, spanAt }) => ({ rating, reason, answerSpan, spanAt })),
        }
        cases.push(`${jsonForScript(`${index}/${row.id}`)}:${jsonForScript(view)}`)
      }
      shared[index] ??= { source: null, criteria: [] }
    } catch (error) {
      if (!(error instanceof RubricError)) throw error
      fixtures.push({ index, dir, refused: error.message, version: null })
    }
  }
  const data: ReportData = { fixtures, shared, gates: { config: gates.config, requirements: gates.requirements } }
  return reportPage(data, `{${cases.join(',')}}`, 'vitest-rubric report')
}

/**
 * Writes the report to `out` (made with its folders), returning the path written. A symbolic link
 * at `out` is replaced, never written through, and a folder on the way that leads outside the
 * project through a link is refused (see `writeOutputFile`).
 */
export async function writeReport(
  dirs: readonly string[],
  cwd: string,
  out: string,
  options: EvaluateOptions = {},
  gates: ReportGates = NO_GATES,
  option = '--out',
): Promise<string> {
  const path = resolve(cwd, out)
  // A report named as a file of a fixture it reports on (`--out fixtures/lab/cases.json`) would be written over that file.
  refuseOutputOverFixture(
    dirs.map((dir) => resolve(cwd, dir)),
    path,
    { option, cwd },
  )
  const place: OutputPlace = { boundary: outputBoundary(cwd, path), cwd }
  await refuseOverOtherFile(path, place, option)
  const html = await renderReport(dirs, cwd, options, gates)
  await writeOutputFile({ path, display: displayPath(cwd, path), contents: html }, place)
  return path
}

/** The bytes of a file's start that tell a report (the doctype, the head, the inline style sheet) from another file. */
const REPORT_START_BYTES = 64 * 1024

/**
 * Refuses to replace a regular file at `path` that is no report of this package (a swapped
 * argument, `--out vitest.config.ts`, would destroy the file). A missing file, an earlier report,
 * and a symbolic link (replaced, never followed) are written as before.
 */
async function refuseOverOtherFile(path: string, place: OutputPlace, option: string): Promise<void> {
  const display = displayPath(place.cwd, path)
  let start: Buffer | undefined
  try {
    start = await readOutputStart(path, place, REPORT_START_BYTES)
  } catch (error) {
    if (error instanceof RubricError) throw error
    // A file that cannot be read (its permissions) is not known to be a report.
    throw notReport(display, option)
  }
  if (start !== undefined && !isReportPage(start.toString('utf8'))) throw notReport(display, option)
}

function notReport(display: string, option: string): RevisionError {
  return new RevisionError({
    code: 'WRITE_FAILED',
    file: display,
    summary: `${option} names a file that exists and is no report of vitest-rubric, so it would be replaced by the report; nothing was written.`,
    expected: 'a new path, or an earlier report (its head names vitest-rubric as its generator)',
    hint: `give ${option} another path, such as .vitest-rubric/report.html, or remove ${display} first if it is meant to go.`,
  })
}
