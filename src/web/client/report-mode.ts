// The static report: one file, read-only. Its data is two JSON blocks (report.ts): the overview,
// read before the script runs, and the cases, parsed only when a case is first opened.
import type { GateCheck, PageFixture, ReportCase, ReportData } from '../protocol.js'
import { badge, counted, el, headRow } from './dom.js'
import { embedded, keyOf, type ShownCase } from './state.js'

/** The report's cases, parsed on the first case opened: the overview is drawn without waiting for them. */
let reportCases: Record<string, ReportCase> | null = null

/** A case of the report: its own part, and what its fixture's cases share. */
export async function reportCase(report: ReportData, fixture: number, id: string): Promise<ShownCase> {
  // The cases follow the script in the file: until the browser has read them, wait.
  if (document.readyState === 'loading') await new Promise((done) => document.addEventListener('DOMContentLoaded', done, { once: true }))
  // Cast: the report's second block, written by report.ts beside the overview.
  reportCases ??= JSON.parse(document.getElementById('rubric-cases')?.textContent ?? '{}') as Record<string, ReportCase>
  const found = reportCases[keyOf(fixture, id)]
  const shared = report.shared[String(fixture)]
  if (found === undefined || shared === undefined) throw new Error(`there is no case "${id}"`)
  return {
    ...found,
    source: found.source === undefined ? shared.source : found.source,
    // The report has no form: nothing is pre-filled.
    criteria: found.criteria.map((judged, at) => ({ ...shared.criteria[at]!, ...judged, prefill: null, dispute: null })),
  }
}

/** Above the report's overview: which gates the project's Vitest config sets; none in the served page. */
export function gatesOfReport(): HTMLElement | null {
  return embedded === null ? null : gatesSet(embedded.gates)
}

/** The static report: which gates the project's Vitest config sets, and what each requires; said plainly when it sets none. */
function gatesSet(gates: ReportData['gates']): HTMLElement {
  const block = el('section', { class: 'gates-set', id: 'gates-set' })
  if (gates.config === null) {
    block.append(
      el(
        'p',
        { class: 'dim' },
        'Gates: no Vitest config with rubric() was found where this report was written, so no agreement, judge or compare gate is set and none is shown.',
      ),
    )
    return block
  }
  if (gates.requirements.length === 0) {
    block.append(el('p', { class: 'dim' }, `Gates: ${gates.config} sets no agreement, judge or compare gate.`))
    return block
  }
  const list = el('ul', {})
  for (const requirement of gates.requirements) list.append(el('li', {}, requirement))
  block.append(el('p', {}, `Gates set in ${gates.config}, as the run checks them:`), list)
  return block
}

/** The static report: each gate's check of the fixture, with what it found and its outcome; a long list folds away. */
export function gatesBlock(fixture: PageFixture, checks: readonly GateCheck[]): HTMLElement {
  if (checks.length === 0) return el('p', { class: 'dim gates', id: `gates-${fixture.index}` }, 'No gate checks this fixture.')
  const count = (status: GateCheck['status']) => checks.filter((check) => check.status === status).length
  const table = el('table', { class: 'gates', id: `gates-${fixture.index}` }, headRow('gate', 'outcome', 'figure'))
  for (const check of checks)
    table.append(
      el(
        'tr',
        { class: `gate ${check.status}`, 'data-gate': check.name },
        el('td', {}, check.name),
        el('td', {}, badge(check.status)),
        el('td', { class: 'figure' }, check.message),
      ),
    )
  return el(
    'details',
    { class: 'statistics gates-block', open: '' },
    el('summary', {}, `gates: ${counted(checks.length, 'check')}, ${count('passed')} passed, ${count('failed')} failed, ${count('todo')} todo`),
    table,
  )
}
