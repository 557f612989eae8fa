// The page's state: where it runs (the served page or the static report), who views it, the
// overview's fixtures, the open case and its form, and the index of cases the filters, j, k and n read.
import type { CaseRow, KindView, PageCase, PageFixture, FixtureEntry, ReportData, ShownBinding } from '../protocol.js'

/**
 * A case as the page shows it: served whole, or rebuilt from the static report, whose bindings are
 * read-only. Its versions are those a save sends: a form kept over a change on disk takes the new
 * ones once the user says it was checked against the change.
 */
export type ShownCase = Omit<PageCase, 'bindings' | 'versions'> & { readonly bindings: readonly ShownBinding[]; versions: PageCase['versions'] }

/** One case of the list, where it is: a fixture and its position there. */
export interface Listed {
  fixture: number
  row: CaseRow
}

export interface Viewer {
  role: 'reviewer' | 'adjudicator' | 'reader'
  name: string
}

export interface Draft {
  rating: string
  reason: string
  span: string
  /** Carried over from a review of an earlier rubric: saved only once confirmed. */
  carried?: boolean
  confirmed?: boolean
}

export const app = document.getElementById('app')!
export const mode = app.dataset['mode'] === 'report' ? 'report' : 'serve'
export const token = document.querySelector<HTMLMetaElement>('meta[name="rubric-token"]')?.content ?? ''
/** With `serve --team`, the person the page's link names: the page views and saves as them, and no one else. */
export const identity = readIdentity()
// Cast: the report embeds the data report.ts built (ReportData).
export const embedded = mode === 'report' ? (JSON.parse(document.getElementById('rubric-data')!.textContent ?? '{}') as ReportData) : null
/** How many case rows the overview draws at once, per fixture: the DOM holds these rows only. */
export const PAGE_SIZE = 100

export interface PageState {
  fixtures: readonly FixtureEntry[]
  filters: { status: string; waiting: string; split: string; criterion: string; disagreement: boolean; stale: boolean; search: string }
  current: ShownCase | null
  drafts: Draft[]
  active: number
  dirty: boolean
  viewer: Viewer
  notice: string
  /** The first row shown of each fixture's list, by fixture. */
  pages: Record<number, number>
  /**
   * The form was kept while its case changed on disk: what changed, in a few words, and the case's
   * new versions, which a save sends only once the user has checked the form against the change
   * (`null` once taken, or when nothing a save replaces changed).
   */
  kept: { changes: string[]; versions: PageCase['versions'] | null } | null
}
export const state: PageState = {
  fixtures: [],
  filters: { status: '', waiting: '', split: '', criterion: '', disagreement: false, stale: false, search: '' },
  current: null,
  drafts: [],
  active: 0,
  dirty: false,
  viewer: loadViewer(),
  notice: '',
  pages: {},
  kept: null,
}

function readIdentity(): Viewer | null {
  const text = document.querySelector<HTMLMetaElement>('meta[name="rubric-identity"]')?.content
  if (text === undefined) return null
  // Cast: the server wrote this meta element from the team file's checked person.
  const person = JSON.parse(text) as Viewer
  return { role: person.role, name: person.name }
}

function loadViewer(): Viewer {
  if (mode === 'report') return { role: 'reader', name: '' }
  if (identity !== null) return identity
  try {
    // Cast: the page stored this viewer itself; a value it cannot read falls back to a reader below.
    const saved = JSON.parse(localStorage.getItem('vitest-rubric.viewer') ?? 'null') as Viewer | null
    if (saved !== null && (saved.role === 'reviewer' || saved.role === 'adjudicator' || saved.role === 'reader')) return saved
  } catch {
    // a malformed saved viewer: start as a reader
  }
  return { role: 'reader', name: '' }
}

/**
 * Drawing again, as the entry (page.ts) wires it: a view asks for the page, the open case or the
 * overview to be drawn again without importing the views above it.
 */
export const redraw = {
  page: async (): Promise<void> => {},
  case: (): void => {},
  overview: (): void => {},
}

/** Opens a case by its address, drawn now rather than on the hashchange event, which the browser sends a frame or so later. */
export function go(fixture: number, id: string): void {
  location.hash = `#/f/${fixture}/c/${encodeURIComponent(id)}`
  void redraw.page()
}

export const keyOf = (fixture: number, id: string) => `${fixture}/${id}`

export function fixtureAt(index: number): PageFixture | null {
  const entry = state.fixtures[index]
  return entry !== undefined && !('refused' in entry) ? entry : null
}

/** A kind the page has no fixture of draws nothing it would have to be told about. */
const UNKNOWN_KIND: KindView = { view: 'table', ratings: [], passing: null, item: 'item', items: 'items', noReason: '' }

/** How the page draws the cases of a fixture, as its kind says (protocol.ts KindView). */
export function kindOf(fixture: number): KindView {
  return fixtureAt(fixture)?.page ?? UNKNOWN_KIND
}

/** Why no save of the case can be made by this viewer as it is now; `null` when one can. */
export function saveBlocked(data: ShownCase): string | null {
  if (data.refusal !== null && !data.revisable) return 'the case is refused (the message above says why and what to do)'
  if (state.viewer.role === 'reader' && data.adjudicationOnly)
    return 'the case has independent reviews, so only an adjudication adopts its review (choose "adjudicating as" in the header)'
  return null
}

// ---------- the index: built once per overview, read by the filters, j, k and n ----------

interface CaseIndex {
  /** Every case in order, over every fixture. */
  all: Listed[]
  /** Position in `all` by `fixture/id`. */
  at: Map<string, number>
  /** Positions in `all` of the pending cases, ascending. */
  pending: number[]
  /** Each case's id and answer text, lower-cased, for the search. */
  text: string[]
}
let index: CaseIndex | null = null
/** The filtered list and each case's position in it; `null` when the filters or the data changed. */
let filtered: { list: Listed[]; at: Map<string, number>; byFixture: Map<number, Listed[]> } | null = null

/** The cases one key away (j, k, n), read ahead of the key: a move then draws without waiting for the server. */
export const ahead = new Map<string, Promise<PageCase>>()

export function caseIndex(): CaseIndex {
  if (index !== null) return index
  const built: CaseIndex = { all: [], at: new Map(), pending: [], text: [] }
  for (const entry of state.fixtures) {
    const fixture = fixtureAt(entry.index)
    if (fixture === null) continue
    for (const row of fixture.cases) {
      built.at.set(keyOf(fixture.index, row.id), built.all.length)
      if (row.status === 'pending') built.pending.push(built.all.length)
      built.text.push(`${row.id}\u0000${row.text}`.toLowerCase())
      built.all.push({ fixture: fixture.index, row })
    }
  }
  index = built
  return built
}

/** The overview's data changed: the index and the filtered list are built again when next read. */
export function dataChanged(): void {
  index = null
  filtered = null
  ahead.clear()
}

/** The filters changed: the filtered list is built again when next read, and every list starts at its first row. */
export function filtersChanged(): void {
  filtered = null
  state.pages = {}
}

function matches(row: CaseRow, text: string, search: string): boolean {
  const { filters } = state
  if (filters.status !== '' && row.status !== filters.status) return false
  if (filters.waiting !== '' && row.waiting !== filters.waiting) return false
  if (filters.split !== '' && row.split !== filters.split) return false
  if (filters.criterion !== '' && !row.flagged.includes(filters.criterion)) return false
  if (filters.disagreement && !row.disagreement) return false
  if (filters.stale && !row.stale) return false
  return search === '' || text.includes(search)
}

/** The cases the filters leave, in order, over every fixture: what j and k move through. Built once per change of the filters. */
export function visibleCases(): NonNullable<typeof filtered> {
  if (filtered !== null) return filtered
  const { all, text } = caseIndex()
  const search = state.filters.search.trim().toLowerCase()
  const list: Listed[] = []
  const at = new Map<string, number>()
  const byFixture = new Map<number, Listed[]>()
  for (let position = 0; position < all.length; position++) {
    const item = all[position]!
    if (!matches(item.row, text[position]!, search)) continue
    at.set(keyOf(item.fixture, item.row.id), list.length)
    list.push(item)
    const own = byFixture.get(item.fixture)
    if (own === undefined) byFixture.set(item.fixture, [item])
    else own.push(item)
  }
  filtered = { list, at, byFixture }
  return filtered
}

/** The first pending case after the current one, over every fixture, from the start again after the last. */
export function nextPending(): { fixture: number; id: string } | null {
  const current = state.current
  const { all, at, pending } = caseIndex()
  const start = current === null ? -1 : (at.get(keyOf(current.fixture, current.id)) ?? -1)
  // The first pending position past `start`, by bisection.
  let low = 0
  let high = pending.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (pending[middle]! <= start) low = middle + 1
    else high = middle
  }
  const found = pending[low] ?? pending[0]
  if (found === undefined || found === start) return null
  const item = all[found]!
  return { fixture: item.fixture, id: item.row.id }
}
