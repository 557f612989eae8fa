import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { RubricError } from '../core/common/errors.js'
import { loadFixture } from '../core/engine/fixture.js'
import { kinds } from '../core/registry.js'
import { evaluateWithStates, type EvaluateOptions } from '../core/engine/evaluate.js'
import { reportPage } from './html.js'
import { pageCase, pageFixture, type PageCase } from './page-data.js'

/**
 * The static report of some fixtures: one self-contained, read-only HTML file with the overview and
 * every case view of the review page, without its forms. Nothing is fetched when it is opened, so
 * it works from `file://` and as a CI artifact.
 */
export async function renderReport(dirs: readonly string[], cwd: string, options: EvaluateOptions = {}): Promise<string> {
  const fixtures: unknown[] = []
  const cases: Record<string, PageCase> = {}
  for (const [index, dir] of dirs.entries()) {
    try {
      const fixture = await loadFixture(kinds, dir, { cwd })
      const page = await pageFixture(fixture, index, options)
      fixtures.push(page)
      const decided = evaluateWithStates(fixture, { ...options, allStates: true })
      for (const row of page.cases) cases[`${index}/${row.id}`] = pageCase(fixture, index, row.id, { role: 'reader' }, options, decided)
    } catch (error) {
      if (!(error instanceof RubricError)) throw error
      fixtures.push({ index, dir, refused: error.message, version: null })
    }
  }
  return reportPage({ fixtures, cases }, 'vitest-rubric report')
}

/** Writes the report to `out` (made with its directory), returning the path written. */
export async function writeReport(dirs: readonly string[], cwd: string, out: string, options: EvaluateOptions = {}): Promise<string> {
  const path = resolve(cwd, out)
  const html = await renderReport(dirs, cwd, options)
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, html)
  return path
}
