// The review page and the static report: one script, no framework. Every fixture text is put in
// the page with textContent, never as HTML, so an answer holding markup shows its characters.
;(() => {
  type Status = 'accepted' | 'rejected' | 'pending' | 'refused'
  interface Counts {
    candidates: number
    graded: number
    pending: number
    refused: number
    outcomes: { accepted: number; rejected: number; rate: number; interval: [number, number] } | null
  }
  interface CaseRow {
    id: string
    split: string
    status: Status
    reason: string
    waiting: string | null
    stale: boolean
    disagreement: boolean
    failed: string[]
    uncertain: string[]
    missing: string[]
    text: string
  }
  interface ItemAgreement {
    alpha: number | null
    alpha_ci: [number, number] | null
    reason: string | null
    units: number
    disagreements: string[]
  }
  interface CriterionCalibration {
    n: number
    kappa: number | null
    kappa_ci: [number, number] | null
    kappa_reason: string | null
    failure_recall: number | null
    false_accepts: string[]
  }
  interface Fixture {
    index: number
    dir: string
    name: string
    kind: string
    coverage: Counts & { splits: Record<string, Counts>; pendingCases: { id: string; reason: string }[] }
    agreement: { reviewers: string[]; items: Record<string, ItemAgreement> } | null
    calibration: {
      judges: Record<
        string,
        {
          origin: string
          cases: number
          stale: number
          criteria: Record<string, CriterionCalibration>
          predictions: { pending: number; accepted: number; rejected: number }
        }
      >
    } | null
    reviewers: string[]
    criteria: string[]
    cases: CaseRow[]
    version: string
    /** The static report only: the outcome of every gate that checks the fixture (report-gates.ts). */
    gates?: GateCheck[]
  }
  /** A gate's check of a fixture, as the run decides it: passed, failed, or todo while it has no figure. */
  interface GateCheck {
    name: string
    status: 'passed' | 'failed' | 'todo'
    message: string
  }
  type FixtureEntry = Fixture | { index: number; dir: string; refused: string; version: string | null }
  interface Criterion {
    criterion: string
    marker: number
    rule: string
    referenceQuote: string
    quoteAt: [number, number] | null
    rating: string | null
    reason: string | null
    answerSpan: string | null
    spanAt: [number, number] | null
    prefill: { rating: string; reason: string; answerSpan: string; carried: boolean } | null
    /** What keeps the reviewers from agreeing on it (page-data.ts), `null` when they agree. */
    dispute: 'not judged by all' | 'disputed' | 'uncertain' | null
  }
  interface Judgement {
    rating: string
    reason: string
    answer_span: string
  }
  /** A judge's label of the case: a prediction, never adopted by itself (page-data.ts PageJudgeHint). */
  type JudgeHint =
    | { judge: string; origin: string; current: true; prediction: string; judgements: Record<string, Judgement> }
    | { judge: string; origin: string; current: false; reason: string }
  interface CaseData {
    fixture: number
    id: string
    split: string
    kind: string
    question: string | null
    answer: string | null
    citation: string | null
    source: string | null
    criteria: Criterion[]
    view: 'criteria' | 'table'
    table: { caption: string; head: string[]; rows: { cells: string[]; low: boolean }[] } | null
    decision: { status: Status; reason: string } & Record<string, unknown>
    refusal: string | null
    bindings: { location: string; stale: boolean; meaning: string }[]
    shows: 'adopted' | 'own'
    reviewers: { reviewer: string; decision: string; judgements: Record<string, Judgement> }[] | 'hidden'
    judges: JudgeHint[]
    existing: boolean
    revisable: boolean
    /** For a reader: the case has independent reviews, so only an adjudication adopts its review. */
    adjudicationOnly: boolean
    versions: Record<string, string | null>
  }
  /** The static report's data: the overview, and each case less what its fixture shares (the source, the criteria's rules). */
  interface ReportData {
    fixtures: FixtureEntry[]
    /** The gates the project's Vitest config sets: the file (`null`: none found, no gate set) and what each requires. */
    gates: { config: string | null; requirements: string[] }
    shared: Record<string, { source: string | null; criteria: Pick<Criterion, 'criterion' | 'marker' | 'rule' | 'referenceQuote' | 'quoteAt'>[] }>
  }
  interface ReportCase extends Omit<CaseData, 'source' | 'criteria'> {
    /** Only when it is not the fixture's shared one. */
    source?: string | null
    criteria: Pick<Criterion, 'rating' | 'reason' | 'answerSpan' | 'spanAt'>[]
  }
  /** One case of the list, where it is: a fixture and its position there. */
  interface Listed {
    fixture: number
    row: CaseRow
  }
  interface Viewer {
    role: 'reviewer' | 'adjudicator' | 'reader'
    name: string
  }
  interface Draft {
    rating: string
    reason: string
    span: string
    /** Carried over from a review of an earlier rubric: saved only once confirmed. */
    carried?: boolean
    confirmed?: boolean
  }

  const RATINGS = ['meets', 'does_not_meet', 'uncertain'] as const
  const app = document.getElementById('app')!
  const mode = app.dataset['mode'] === 'report' ? 'report' : 'serve'
  const token = document.querySelector<HTMLMetaElement>('meta[name="rubric-token"]')?.content ?? ''
  // Cast: the report embeds the page data the server side built (PageFixture, and each case less what its fixture shares).
  const embedded = mode === 'report' ? (JSON.parse(document.getElementById('rubric-data')!.textContent ?? '{}') as ReportData) : null
  /** How many case rows the overview draws at once, per fixture: the DOM holds these rows only. */
  const PAGE_SIZE = 100

  interface PageState {
    fixtures: FixtureEntry[]
    filters: { status: string; waiting: string; split: string; criterion: string; disagreement: boolean; stale: boolean; search: string }
    current: CaseData | null
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
    kept: { changes: string[]; versions: Record<string, string | null> | null } | null
  }
  const state: PageState = {
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
  const keyOf = (fixture: number, id: string) => `${fixture}/${id}`

  function caseIndex(): CaseIndex {
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
  function dataChanged(): void {
    index = null
    filtered = null
    ahead.clear()
  }
  const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

  /** The cases one key away (j, k, n), read ahead of the key: a move then draws without waiting for the server. */
  const ahead = new Map<string, Promise<CaseData>>()

  /** `1 case`, `2 cases`: a count with its noun, singular for one. */
  const counted = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`

  // ---------- small DOM helpers ----------

  function el<K extends keyof HTMLElementTagNameMap>(
    tag: K,
    attrs: Record<string, string> = {},
    ...children: (Node | string | null)[]
  ): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag)
    for (const [key, value] of Object.entries(attrs)) {
      if (key === 'class') node.className = value
      else node.setAttribute(key, value)
    }
    for (const child of children) if (child !== null) node.append(typeof child === 'string' ? document.createTextNode(child) : child)
    return node
  }
  const figure = (value: number | null) => (value === null ? '—' : value.toFixed(3))
  const percent = (value: number) => `${(value * 100).toFixed(0)}%`
  const badge = (status: string) => el('span', { class: `badge ${status}` }, status)

  function loadViewer(): Viewer {
    if (mode === 'report') return { role: 'reader', name: '' }
    try {
      // Cast: the page stored this viewer itself; a value it cannot read falls back to a reader below.
      const saved = JSON.parse(localStorage.getItem('vitest-rubric.viewer') ?? 'null') as Viewer | null
      if (saved !== null && (saved.role === 'reviewer' || saved.role === 'adjudicator' || saved.role === 'reader')) return saved
    } catch {
      // a malformed saved viewer: start as a reader
    }
    return { role: 'reader', name: '' }
  }

  // ---------- data ----------

  async function api<T>(path: string, body?: unknown): Promise<T> {
    const response = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'x-rubric-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    // Cast: the server's reply to this path has the type the caller names (server.ts), or is a refusal.
    const data = (await response.json()) as T & { error?: { code: string; message: string } }
    if (!response.ok)
      throw Object.assign(new Error(data.error?.message ?? response.statusText), { code: data.error?.code ?? String(response.status), status: response.status })
    return data
  }

  /** Who is viewing, as the server reads it: a blind reviewer is served nothing of the others' reviews. */
  function viewerParam(): string {
    return state.viewer.role === 'reader' || state.viewer.name === '' ? 'reader' : `${state.viewer.role}:${state.viewer.name}`
  }

  async function loadOverview(): Promise<void> {
    state.fixtures =
      embedded !== null ? embedded.fixtures : (await api<{ fixtures: FixtureEntry[] }>(`/api/overview?viewer=${encodeURIComponent(viewerParam())}`)).fixtures
    dataChanged()
  }

  /** The report's cases, parsed on the first case opened: the overview is drawn without waiting for them. */
  let reportCases: Record<string, ReportCase> | null = null

  async function loadCase(fixture: number, id: string): Promise<CaseData> {
    if (embedded !== null) {
      // The cases follow the script in the file: until the browser has read them, wait.
      if (document.readyState === 'loading') await new Promise((done) => document.addEventListener('DOMContentLoaded', done, { once: true }))
      // Cast: the report's second block, written by report.ts beside the overview.
      reportCases ??= JSON.parse(document.getElementById('rubric-cases')?.textContent ?? '{}') as Record<string, ReportCase>
      const found = reportCases[keyOf(fixture, id)]
      const shared = embedded.shared[String(fixture)]
      if (found === undefined || shared === undefined) throw new Error(`there is no case "${id}"`)
      return {
        ...found,
        source: found.source === undefined ? shared.source : found.source,
        // The report has no form: nothing is pre-filled.
        criteria: found.criteria.map((judged, at) => ({ ...shared.criteria[at]!, ...judged, prefill: null, dispute: null })),
      }
    }
    const key = keyOf(fixture, id)
    const read = ahead.get(key)
    if (read !== undefined) {
      ahead.delete(key)
      return read
    }
    return api<CaseData>(`/api/case?fixture=${fixture}&id=${encodeURIComponent(id)}&viewer=${encodeURIComponent(viewerParam())}`)
  }

  /** Reads the cases j, k and n would open from `data`, so that the key draws at once. */
  function readAhead(data: CaseData): void {
    if (mode !== 'serve') return
    const { list, at } = visibleCases()
    const position = at.get(keyOf(data.fixture, data.id))
    const near = [position === undefined ? undefined : list[position + 1], position === undefined ? undefined : list[position - 1]].flatMap((item) =>
      item === undefined ? [] : [{ fixture: item.fixture, id: item.row.id }],
    )
    const pending = nextPending()
    if (pending !== null) near.push(pending)
    ahead.clear()
    for (const item of near) {
      const read = api<CaseData>(`/api/case?fixture=${item.fixture}&id=${encodeURIComponent(item.id)}&viewer=${encodeURIComponent(viewerParam())}`)
      // A failed read ahead is read again when the case is opened.
      read.catch(() => ahead.delete(keyOf(item.fixture, item.id)))
      ahead.set(keyOf(item.fixture, item.id), read)
    }
  }

  function fixtureAt(index: number): Fixture | null {
    const entry = state.fixtures[index]
    return entry !== undefined && !('refused' in entry) ? entry : null
  }

  function matches(row: CaseRow, text: string, search: string): boolean {
    const { filters } = state
    if (filters.status !== '' && row.status !== filters.status) return false
    if (filters.waiting !== '' && row.waiting !== filters.waiting) return false
    if (filters.split !== '' && row.split !== filters.split) return false
    if (
      filters.criterion !== '' &&
      !row.failed.includes(filters.criterion) &&
      !row.uncertain.includes(filters.criterion) &&
      !row.missing.includes(filters.criterion)
    )
      return false
    if (filters.disagreement && !row.disagreement) return false
    if (filters.stale && !row.stale) return false
    return search === '' || text.includes(search)
  }

  /** The cases the filters leave, in order, over every fixture: what j and k move through. Built once per change of the filters. */
  function visibleCases(): NonNullable<typeof filtered> {
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

  // ---------- routing ----------

  /** The case the address names; `malformed` for an address whose case id is not valid percent-encoding. */
  function route(): { fixture: number; id: string } | 'malformed' | null {
    const match = /^#\/f\/(\d+)\/c\/(.+)$/.exec(location.hash)
    if (match === null) return null
    try {
      return { fixture: Number(match[1]), id: decodeURIComponent(match[2]!) }
    } catch {
      return 'malformed'
    }
  }

  /** The address last drawn: its hashchange, when `go` drew it already, draws nothing again. */
  let drawn: string | null = null

  function go(fixture: number, id: string): void {
    location.hash = `#/f/${fixture}/c/${encodeURIComponent(id)}`
    // Drawn now rather than on the hashchange event, which the browser sends a frame or so later.
    void render()
  }

  async function render(): Promise<void> {
    drawn = location.hash
    const compared = compareRoute()
    if (compared !== null) {
      state.current = null
      try {
        await renderComparison(compared)
      } catch (error) {
        app.replaceChildren(header(), el('p', { class: 'error', role: 'alert' }, messageOf(error)), el('a', { href: '#/' }, 'back to the overview'))
      }
      return
    }
    const at = route()
    if (at === null) {
      // Back from a case: its fixture's list opens at the window that holds it.
      const left = state.current
      const position =
        left === null
          ? undefined
          : visibleCases()
              .byFixture.get(left.fixture)
              ?.findIndex((item) => item.row.id === left.id)
      if (left !== null && position !== undefined && position !== -1) state.pages[left.fixture] = position - (position % PAGE_SIZE)
      state.current = null
      renderOverview()
      return
    }
    if (at === 'malformed') {
      state.current = null
      app.replaceChildren(
        header(),
        el('p', { class: 'error', role: 'alert' }, 'This address names no case: its case id is not valid percent-encoding.'),
        el('a', { href: '#/' }, 'back to the overview'),
      )
      return
    }
    try {
      const data = await loadCase(at.fixture, at.id)
      openCase(data)
    } catch (error) {
      app.replaceChildren(header(), el('p', { class: 'error', role: 'alert' }, messageOf(error)), el('a', { href: '#/' }, 'back to the overview'))
    }
  }

  function openCase(data: CaseData): void {
    state.current = data
    state.drafts = data.criteria.map((item) => ({
      rating: item.prefill?.rating ?? '',
      reason: item.prefill?.reason ?? '',
      span: item.prefill?.answerSpan ?? '',
      carried: item.prefill?.carried === true,
      confirmed: false,
    }))
    // Adjudicating, a criterion every reviewer rated alike starts from their judgement, unless an
    // earlier adoption judged it (it may have overruled them); the form opens on the first disputed one.
    const disputes = disputesOf(data)
    if (disputes !== null)
      data.criteria.forEach((item, index) => {
        const agreed = disputes.agreed.get(item.criterion)
        const draft = state.drafts[index]!
        if (agreed !== undefined && draft.rating === '') state.drafts[index] = { rating: agreed.rating, reason: agreed.reason, span: agreed.answer_span }
      })
    state.active =
      disputes === null
        ? 0
        : Math.max(
            0,
            data.criteria.findIndex((item) => disputes.disputed.includes(item.criterion)),
          )
    state.dirty = false
    state.kept = null
    renderCase()
    readAhead(data)
  }

  /** Who is viewing changed: the overview and the case are read again, as that viewer may see them. */
  function setViewer(viewer: Viewer): void {
    state.viewer = viewer
    localStorage.setItem('vitest-rubric.viewer', JSON.stringify(state.viewer))
    // The overview depends on who views it: a blind reviewer's is served without the others' reviews.
    void loadOverview().then(render, (error: unknown) => app.replaceChildren(header(), el('p', { class: 'error', role: 'alert' }, messageOf(error))))
  }

  // ---------- header ----------

  function header(): HTMLElement {
    const bar = el('header', { class: 'bar' }, el('a', { href: '#/', class: 'home' }, mode === 'report' ? 'vitest-rubric report' : 'vitest-rubric review'))
    if (mode === 'serve') {
      const role = el('select', { 'aria-label': 'you are', id: 'viewer-role' })
      for (const [value, label] of [
        ['reader', 'reading'],
        ['reviewer', 'reviewing (blind) as'],
        ['adjudicator', 'adjudicating as'],
      ] as const) {
        const option = el('option', { value }, label)
        if (state.viewer.role === value) option.selected = true
        role.append(option)
      }
      const name = el('input', { 'aria-label': 'your name', id: 'viewer-name', placeholder: 'your name', value: state.viewer.name, size: '12' })
      const apply = () => setViewer({ role: role.value === 'reviewer' || role.value === 'adjudicator' ? role.value : 'reader', name: name.value.trim() })
      role.addEventListener('change', apply)
      name.addEventListener('change', apply)
      bar.append(el('span', { class: 'viewer' }, role, ' ', name))
    }
    // Only the keys that work here: the static report rates and saves nothing.
    bar.append(
      el(
        'span',
        { class: 'keys' },
        mode === 'serve' ? 'j/k next/previous case · n next pending · 1/2/3 rate · s save' : 'j/k next/previous case · n next pending · Esc overview',
      ),
    )
    if (state.notice !== '') bar.append(el('p', { class: 'notice', role: 'status' }, state.notice))
    return bar
  }

  // ---------- overview ----------

  function renderOverview(): void {
    const main = el('main', { class: 'overview' })
    main.append(filtersBar())
    const offer = compareOffer()
    if (offer !== null) main.append(offer)
    if (embedded !== null) main.append(gatesSet(embedded.gates))
    for (const entry of state.fixtures) {
      if ('refused' in entry) {
        main.append(el('section', { class: 'fixture refused' }, el('h2', {}, entry.dir), el('pre', { class: 'error' }, entry.refused)))
        continue
      }
      main.append(fixtureSection(entry))
    }
    app.replaceChildren(header(), main)
  }

  /**
   * With two or more fixtures of one kind served, the way to the comparison view (`#/compare/<a>/<b>`):
   * which is A and which is B, the first two by default. The static report has no comparison.
   */
  function compareOffer(): HTMLElement | null {
    if (mode !== 'serve') return null
    const loaded = state.fixtures.flatMap((entry) => ('refused' in entry ? [] : [entry]))
    const kinds = new Map<string, Fixture[]>()
    for (const fixture of loaded) kinds.set(fixture.kind, [...(kinds.get(fixture.kind) ?? []), fixture])
    const comparable = [...kinds.values()].find((same) => same.length >= 2)
    if (comparable === undefined) return null
    const choose = (label: string, chosen: number) => {
      const node = el('select', { 'aria-label': label, id: `compare-${label.toLowerCase()}` })
      for (const fixture of comparable) {
        const option = el('option', { value: String(fixture.index) }, fixture.dir)
        if (fixture.index === chosen) option.selected = true
        node.append(option)
      }
      return node
    }
    const a = choose('A', comparable[0]!.index)
    const b = choose('B', comparable[1]!.index)
    const link = el('a', { id: 'compare-link', class: 'compare-link' }, 'compare B with A')
    const point = () => link.setAttribute('href', `#/compare/${a.value}/${b.value}`)
    point()
    a.addEventListener('change', point)
    b.addEventListener('change', point)
    return el('p', { class: 'compare-offer', id: 'compare-offer' }, 'Compare two systems, case by case: A ', a, ' B ', b, ' ', link)
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
  function gatesBlock(fixture: Fixture, checks: GateCheck[]): HTMLElement {
    if (checks.length === 0) return el('p', { class: 'dim gates', id: `gates-${fixture.index}` }, 'No gate checks this fixture.')
    const count = (status: GateCheck['status']) => checks.filter((check) => check.status === status).length
    const table = el(
      'table',
      { class: 'gates', id: `gates-${fixture.index}` },
      el('tr', {}, el('th', {}, 'gate'), el('th', {}, 'outcome'), el('th', {}, 'figure')),
    )
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

  function filtersChanged(): void {
    filtered = null
    state.pages = {}
    for (const entry of state.fixtures) {
      const fixture = fixtureAt(entry.index)
      const holder = document.getElementById(`cases-${entry.index}`)
      if (fixture !== null && holder !== null) holder.replaceChildren(...caseList(fixture))
    }
  }

  function filtersBar(): HTMLElement {
    const fixtures = state.fixtures.flatMap((entry) => ('refused' in entry ? [] : [entry]))
    const waits = new Set<string>()
    const splits = new Set<string>()
    for (const { row } of caseIndex().all) {
      if (row.waiting !== null) waits.add(row.waiting)
      splits.add(row.split)
    }
    const criteria = [...new Set(fixtures.flatMap((fixture) => fixture.criteria))]
    const select = (key: 'status' | 'waiting' | 'split' | 'criterion', label: string, values: readonly string[]) => {
      const node = el('select', { 'aria-label': label, id: `filter-${key}` }, el('option', { value: '' }, `any ${label}`))
      for (const value of values) {
        const option = el('option', { value }, value)
        if (state.filters[key] === value) option.selected = true
        node.append(option)
      }
      node.addEventListener('change', () => {
        state.filters[key] = node.value
        filtersChanged()
      })
      return node
    }
    const check = (key: 'disagreement' | 'stale', label: string) => {
      const box = el('input', { type: 'checkbox', id: `filter-${key}` })
      box.checked = state.filters[key]
      box.addEventListener('change', () => {
        state.filters[key] = box.checked
        filtersChanged()
      })
      return el('label', {}, box, ` ${label}`)
    }
    const search = el('input', {
      type: 'search',
      id: 'filter-search',
      placeholder: 'search id or answer text',
      value: state.filters.search,
      'aria-label': 'search',
    })
    // Only the lists are drawn again: the field keeps its focus and its caret.
    search.addEventListener('input', () => {
      state.filters.search = search.value
      filtersChanged()
    })
    return el(
      'div',
      { class: 'filters' },
      select('status', 'status', ['accepted', 'rejected', 'pending', 'refused']),
      select('waiting', 'pending reason', [...waits]),
      select('split', 'split', [...splits]),
      select('criterion', 'criterion', criteria),
      check('disagreement', 'disagreement'),
      check('stale', 'stale binding'),
      search,
    )
  }

  function fixtureSection(fixture: Fixture): HTMLElement {
    const section = el('section', { class: 'fixture' }, el('h2', {}, `${fixture.name} `, el('span', { class: 'dim' }, `${fixture.dir} · ${fixture.kind}`)))
    const table = el(
      'table',
      { class: 'figures' },
      el('tr', {}, el('th', {}, 'split'), el('th', {}, 'graded'), el('th', {}, 'pending'), el('th', {}, 'refused'), el('th', {}, 'outcomes')),
    )
    const rows: [string, Counts][] = [['all', fixture.coverage], ...Object.entries(fixture.coverage.splits).filter(([, counts]) => counts.candidates > 0)]
    for (const [split, counts] of rows) {
      const outcome =
        counts.outcomes === null
          ? 'no completed reviews: no quality figure'
          : `${counts.outcomes.accepted} accepted · ${counts.outcomes.rejected} rejected · ${percent(counts.outcomes.rate)} accepted (95% interval ${percent(counts.outcomes.interval[0])}–${percent(counts.outcomes.interval[1])})`
      table.append(
        el(
          'tr',
          {},
          el('td', {}, split),
          el('td', {}, `${counts.graded} of ${counts.candidates}`),
          // Only a pending count above zero is drawn as one to act on.
          el('td', counts.pending > 0 ? { class: 'pending' } : {}, String(counts.pending)),
          el('td', {}, String(counts.refused)),
          el('td', {}, outcome),
        ),
      )
    }
    section.append(table)
    if (fixture.gates !== undefined) section.append(gatesBlock(fixture, fixture.gates))
    // The pending and the failed cases, each group one click from its list.
    const byReason = new Map<string, number>()
    const byFailed = new Map<string, number>()
    for (const row of fixture.cases) {
      if (row.waiting !== null) byReason.set(row.waiting, (byReason.get(row.waiting) ?? 0) + 1)
      if (row.status === 'rejected') for (const criterion of row.failed) byFailed.set(criterion, (byFailed.get(criterion) ?? 0) + 1)
    }
    const quick = (label: string, filters: Partial<typeof state.filters>) => {
      const button = el('button', { type: 'button', class: 'quick-filter' }, label)
      button.addEventListener('click', () => {
        Object.assign(state.filters, filters)
        filtered = null
        state.pages = {}
        renderOverview()
      })
      return button
    }
    if (byReason.size > 0)
      section.append(
        el(
          'p',
          { class: 'pending-reasons' },
          'pending: ',
          // The count is of cases, whatever the reason's own grammar: `reviewers disagree: 1 case`.
          ...[...byReason].map(([reason, count]) => quick(`${reason}: ${counted(count, 'case')}`, { status: 'pending', waiting: reason, criterion: '' })),
        ),
      )
    if (byFailed.size > 0)
      section.append(
        el(
          'p',
          { class: 'failed-criteria' },
          'rejected on: ',
          ...[...byFailed].map(([criterion, count]) => quick(`${criterion} ${count}`, { status: 'rejected', waiting: '', criterion })),
        ),
      )
    // The cases come before the long tables of statistics, which fold away.
    section.append(el('div', { class: 'case-list', id: `cases-${fixture.index}` }, ...caseList(fixture)))
    if (fixture.agreement !== null) {
      const agreement = el(
        'table',
        { class: 'agreement' },
        el('tr', {}, el('th', {}, 'criterion'), el('th', {}, 'α'), el('th', {}, '95% interval'), el('th', {}, 'cases'), el('th', {}, 'disagreements')),
      )
      for (const [name, item] of Object.entries(fixture.agreement.items)) {
        agreement.append(
          el(
            'tr',
            {},
            el('td', {}, name),
            el('td', {}, item.alpha === null ? `no figure: ${item.reason ?? ''}` : figure(item.alpha)),
            el('td', {}, item.alpha_ci === null ? '—' : `${figure(item.alpha_ci[0])} – ${figure(item.alpha_ci[1])}`),
            el('td', {}, String(item.units)),
            el('td', {}, item.disagreements.join(', ') || '—'),
          ),
        )
      }
      section.append(
        el('details', { class: 'statistics', open: '' }, el('summary', {}, `review agreement (${fixture.agreement.reviewers.join(', ')})`), agreement),
      )
    }
    if (fixture.calibration !== null) {
      for (const [judge, figures] of Object.entries(fixture.calibration.judges)) {
        const calibration = el(
          'table',
          { class: 'calibration' },
          el(
            'tr',
            {},
            el('th', {}, 'criterion'),
            el('th', {}, 'n'),
            el('th', {}, 'κ'),
            el('th', {}, '95% interval'),
            el('th', {}, 'failure recall'),
            el('th', {}, 'false accepts'),
          ),
        )
        for (const [name, item] of Object.entries(figures.criteria)) {
          calibration.append(
            el(
              'tr',
              {},
              el('td', {}, name),
              el('td', {}, String(item.n)),
              el('td', {}, item.kappa === null ? `no kappa: ${item.kappa_reason ?? ''}` : figure(item.kappa)),
              el('td', {}, item.kappa_ci === null ? '—' : `${figure(item.kappa_ci[0])} – ${figure(item.kappa_ci[1])}`),
              el('td', {}, figure(item.failure_recall)),
              el('td', {}, item.false_accepts.join(', ') || '—'),
            ),
          )
        }
        const block = el(
          'details',
          { class: 'statistics', open: '' },
          el('summary', {}, `judge ${judge} (${figures.origin}): ${counted(figures.cases, 'case')}, ${counted(figures.stale, 'stale label')}`),
          calibration,
        )
        if (figures.predictions.pending > 0)
          block.append(
            el(
              'p',
              { class: 'dim' },
              `prediction, not review coverage: the judge predicts ${figures.predictions.accepted} accepted, ${figures.predictions.rejected} rejected of ${counted(figures.predictions.pending, 'pending case')}`,
            ),
          )
        section.append(block)
      }
    }
    return section
  }

  /** A fixture's filtered cases, one window of them drawn: its count, the rows, and the way to the other windows. */
  function caseList(fixture: Fixture): HTMLElement[] {
    const rows = visibleCases().byFixture.get(fixture.index) ?? []
    const first = Math.min(state.pages[fixture.index] ?? 0, Math.max(0, rows.length - 1))
    const last = Math.min(rows.length, first + PAGE_SIZE)
    const list = el('table', { class: 'cases' }, el('tr', {}, el('th', {}, 'case'), el('th', {}, 'split'), el('th', {}, 'decision'), el('th', {}, 'why')))
    for (let at = first; at < last; at++) {
      const { row } = rows[at]!
      const link = el('a', { href: `#/f/${fixture.index}/c/${encodeURIComponent(row.id)}` }, row.id)
      const why = el('td', {}, row.reason)
      if (row.stale) why.append(' ', el('span', { class: 'badge refused' }, 'stale'))
      list.append(
        el('tr', { class: `case-row ${row.status}`, 'data-case': row.id }, el('td', {}, link), el('td', {}, row.split), el('td', {}, badge(row.status)), why),
      )
    }
    const count = el('p', { class: 'dim list-count' }, `${rows.length} of ${counted(fixture.cases.length, 'case')} shown`)
    if (rows.length <= PAGE_SIZE) return [count, list]
    return [count, pager(fixture, first, last, rows.length, false), list, pager(fixture, first, last, rows.length, true)]
  }

  /** Buttons to the previous and next window of a fixture's list; under the list, a turn scrolls back to its top. */
  function pager(fixture: Fixture, first: number, last: number, total: number, below: boolean): HTMLElement {
    const turn = (label: string, to: number, id: string) => {
      const button = el('button', { type: 'button', class: 'page-turn', ...(below ? {} : { id: `${id}-${fixture.index}` }) }, label)
      if (to < 0 || to >= total) button.setAttribute('disabled', '')
      button.addEventListener('click', () => {
        state.pages[fixture.index] = to
        const holder = document.getElementById(`cases-${fixture.index}`)
        holder?.replaceChildren(...caseList(fixture))
        if (below) holder?.scrollIntoView({ block: 'start' })
      })
      return button
    }
    return el(
      'p',
      { class: 'pager' },
      turn('‹ previous', first - PAGE_SIZE, 'page-previous'),
      ` rows ${first + 1}–${last} of ${total} `,
      turn('next ›', first + PAGE_SIZE, 'page-next'),
    )
  }

  // ---------- case view ----------

  /** Text with ranges marked: each range a <mark> tied to its marker; overlapping ranges split at every boundary. */
  function highlighted(text: string, ranges: { at: [number, number]; marker: number; label: string }[], tag: 'answer' | 'source'): HTMLElement {
    const node = el('div', { class: `text ${tag}`, id: tag })
    const cuts = new Set<number>([0, text.length])
    for (const range of ranges) {
      cuts.add(range.at[0])
      cuts.add(range.at[1])
    }
    const points = [...cuts].sort((a, b) => a - b)
    for (let i = 0; i + 1 < points.length; i++) {
      const from = points[i]!
      const to = points[i + 1]!
      const piece = text.slice(from, to)
      const covering = ranges.filter((range) => range.at[0] <= from && to <= range.at[1])
      if (covering.length === 0) {
        node.append(document.createTextNode(piece))
        continue
      }
      const mark = el(
        'mark',
        {
          class: `m${covering[0]!.marker % 8}`,
          'data-criteria': covering.map((range) => range.label).join(' '),
          title: covering.map((range) => range.label).join(', '),
        },
        piece,
      )
      // The marker number is drawn by CSS, so a selection of the text never includes it.
      if (covering.some((range) => range.at[0] === from))
        mark.dataset['m'] = covering
          .filter((range) => range.at[0] === from)
          .map((range) => String(range.marker))
          .join(',')
      node.append(mark)
    }
    return node
  }

  function renderCase(): void {
    const data = state.current!
    const fixture = fixtureAt(data.fixture)
    const main = el('main', { class: 'case' })
    const { list, at } = visibleCases()
    const position = at.get(keyOf(data.fixture, data.id)) ?? -1
    main.append(
      el(
        'nav',
        { class: 'crumbs' },
        el('a', { href: '#/' }, 'overview'),
        ` › ${fixture?.name ?? ''} › `,
        el('strong', {}, data.id),
        el('span', { class: 'dim' }, ` ${position === -1 ? '' : `(${position + 1} of ${list.length} shown)`} · ${data.split}`),
      ),
      el(
        'div',
        { class: 'decision', id: 'decision' },
        badge(data.decision.status),
        ' ',
        data.decision.reason === '' ? 'every criterion meets' : data.decision.reason,
      ),
    )
    if (state.kept !== null) main.append(keptNotice(data))
    if (data.shows === 'own') main.append(el('p', { class: 'dim' }, `Blind review: you see your own review and its decision only.`))
    if (data.refusal !== null) main.append(el('pre', { class: 'error refusal', role: 'alert' }, data.refusal))
    if (data.question !== null) main.append(el('h3', {}, 'Question'), el('p', { class: 'question' }, data.question))
    if (data.answer !== null) {
      const ranges = data.criteria.flatMap((item) => (item.spanAt === null ? [] : [{ at: item.spanAt, marker: item.marker, label: item.criterion }]))
      const answer = highlighted(data.answer, ranges, 'answer')
      answer.addEventListener('mouseup', () => takeSelection(answer))
      main.append(el('h3', {}, 'Answer'), answer)
      if (data.citation !== null) main.append(el('p', { class: 'dim' }, `citation: ${data.citation}`))
    }
    if (data.source !== null) {
      const ranges = data.criteria.flatMap((item) => (item.quoteAt === null ? [] : [{ at: item.quoteAt, marker: item.marker, label: item.criterion }]))
      main.append(
        el(
          'details',
          { class: 'source-block', open: '' },
          el('summary', {}, "Source, with each criterion's reference quote"),
          highlighted(data.source, ranges, 'source'),
        ),
      )
    }
    const disputes = disputesOf(data)
    if (disputes !== null) main.append(disputesBlock(data, disputes))
    if (data.view === 'criteria') main.append(criteriaBlock(data))
    else main.append(...tableBlock(data))
    if (data.reviewers === 'hidden')
      main.append(el('p', { class: 'hidden-reviews' }, "The other reviewers' judgements are shown once you have saved your own review of every criterion."))
    else if (data.reviewers.length > 0) {
      // Adjudicating, the table is the whole record behind the disputes shown above the form.
      const table = reviewersBlock(data, data.reviewers)
      main.append(disputesOf(data) === null ? table : el('details', { class: 'side-by-side-block' }, el('summary', {}, 'Every review, side by side'), table))
    }
    if (data.bindings.length > 0) {
      const bindings = el('ul', { class: 'bindings' })
      for (const binding of data.bindings)
        bindings.append(
          el(
            'li',
            { class: binding.stale ? 'stale' : 'current' },
            `${binding.stale ? 'stale' : 'current'} · ${binding.location}${binding.stale ? `: ${binding.meaning}` : ''}`,
          ),
        )
      main.append(
        el(
          'details',
          { class: 'bindings-block' },
          el('summary', {}, `Bindings: ${data.bindings.filter((item) => item.stale).length} stale of ${data.bindings.length}`),
          bindings,
        ),
      )
    }
    app.replaceChildren(header(), main)
    focusActive()
  }

  /** A case its kind shows as a table (a scored case: each dimension's score and why, beside the baseline's); the whole decision under it. */
  function tableBlock(data: CaseData): HTMLElement[] {
    const blocks: HTMLElement[] = []
    if (data.table !== null) {
      const table = el('table', { class: 'scores', id: 'scores' }, el('caption', {}, data.table.caption))
      table.append(el('tr', {}, ...data.table.head.map((cell) => el('th', {}, cell))))
      for (const row of data.table.rows) table.append(el('tr', { class: row.low ? 'low' : '' }, ...row.cells.map((cell) => el('td', {}, cell))))
      blocks.push(table)
    }
    blocks.push(
      el('details', { class: 'detail' }, el('summary', {}, 'The decision as evaluate --json shows it'), el('pre', {}, JSON.stringify(data.decision, null, 2))),
    )
    return blocks
  }

  /** Why no save of the case can be made by this viewer as it is now; `null` when one can. */
  function saveBlocked(data: CaseData): string | null {
    if (data.refusal !== null && !data.revisable) return 'the case is refused (the message above says why and what to do)'
    if (state.viewer.role === 'reader' && data.adjudicationOnly)
      return 'the case has independent reviews, so only an adjudication adopts its review (choose "adjudicating as" in the header)'
    return null
  }

  /** A reader's case that only an adjudication adopts: no form that cannot save, and the role that can, one click away. */
  function adjudicationPointer(data: CaseData): HTMLElement {
    const names = data.reviewers === 'hidden' || data.reviewers.length === 0 ? '' : ` (${data.reviewers.map((review) => review.reviewer).join(', ')})`
    const adjudicate = el('button', { type: 'button', id: 'switch-to-adjudicator' }, 'Adjudicate this case')
    adjudicate.addEventListener('click', () => setViewer({ role: 'adjudicator', name: state.viewer.name }))
    return el(
      'p',
      { class: 'role-hint', id: 'role-hint' },
      `This case has independent reviews${names}: only an adjudication adopts its review, so reading, you save nothing here. `,
      adjudicate,
      ' or add a review of your own under "reviewing (blind) as".',
    )
  }

  function criteriaBlock(data: CaseData): HTMLElement {
    const blocked = saveBlocked(data)
    // A form kept over a change on disk stays, even when it can no longer be saved: what was typed is never taken away.
    const editable =
      mode === 'serve' &&
      data.view === 'criteria' &&
      (state.viewer.role === 'reviewer' ? state.viewer.name !== '' : true) &&
      (blocked === null || state.kept !== null)
    const block = el(
      'section',
      { class: 'criteria', id: 'criteria' },
      el('h3', {}, editable ? (state.viewer.role === 'adjudicator' ? 'Criteria: adjudicate' : 'Criteria: review') : 'Criteria'),
    )
    if (mode === 'serve' && data.view === 'criteria' && state.viewer.role === 'reader' && data.adjudicationOnly && state.kept === null)
      block.append(adjudicationPointer(data))
    data.criteria.forEach((item, index) => {
      const draft = state.drafts[index]!
      const card = el('div', {
        class: `criterion${index === state.active ? ' active' : ''} ${item.rating ?? 'none'}`,
        'data-criterion': item.criterion,
        id: `criterion-${item.criterion}`,
      })
      card.append(
        el(
          'h4',
          {},
          el('span', { class: `marker m${item.marker % 8}` }, String(item.marker)),
          ` ${item.criterion} `,
          // Adjudicating a case nobody adopted yet, the mark says what the reviewers did instead.
          item.rating === null
            ? disputesOf(data) === null
              ? el('span', { class: 'badge pending' }, 'not judged')
              : null
            : el('span', { class: `badge ${item.rating}` }, disputesOf(data) === null ? item.rating : `adopted: ${item.rating}`),
          ...panelMark(data, item.criterion),
        ),
        el('p', { class: 'rule' }, item.rule),
        el('blockquote', {}, item.referenceQuote),
      )
      if (item.reason !== null && !editable) card.append(el('p', { class: 'reason' }, `reason: ${item.reason}`))
      if (item.answerSpan !== null && !editable)
        card.append(
          el(
            'p',
            { class: 'span' },
            item.answerSpan === '' ? 'span: none (an omission)' : `span: “${item.answerSpan}”${item.spanAt === null ? ' (not in the answer)' : ''}`,
          ),
        )
      if (editable) card.append(criterionForm(data, index, draft))
      block.append(card)
    })
    if (editable) {
      const save = el(
        'button',
        { id: 'save', type: 'button' },
        state.viewer.role === 'adjudicator' ? 'Adopt (s)' : data.existing ? 'Save revision (s)' : 'Save review (s)',
      )
      save.addEventListener('click', () => void saveReview())
      const status = el('span', { id: 'save-status', role: 'status' }, '')
      if (blocked !== null) {
        save.setAttribute('disabled', '')
        status.className = 'error'
        status.textContent = `Cannot be saved now: ${blocked}.`
      }
      block.append(el('div', { class: 'actions' }, save, status))
    }
    return block
  }

  function criterionForm(data: CaseData, index: number, draft: Draft): HTMLElement {
    const form = el('div', { class: 'form' })
    const group = el('div', { class: 'ratings', role: 'radiogroup', 'aria-label': `rating of ${data.criteria[index]!.criterion}` })
    RATINGS.forEach((rating, at) => {
      const input = el('input', { type: 'radio', name: `rating-${index}`, value: rating, id: `rating-${index}-${rating}` })
      input.checked = draft.rating === rating
      input.addEventListener('change', () => setRating(index, rating))
      group.append(el('label', { for: `rating-${index}-${rating}` }, input, ` ${at + 1} ${rating}`))
    })
    const none = el('input', { type: 'radio', name: `rating-${index}`, value: '', id: `rating-${index}-none` })
    none.checked = draft.rating === ''
    none.addEventListener('change', () => setRating(index, ''))
    group.append(el('label', { for: `rating-${index}-none` }, none, ' leave out'))
    const reason = el('textarea', { id: `reason-${index}`, rows: '2', placeholder: 'reason', 'aria-label': `reason for ${data.criteria[index]!.criterion}` })
    reason.value = draft.reason
    reason.addEventListener('input', () => {
      draft.reason = reason.value
      state.dirty = true
    })
    reason.addEventListener('focus', () => activate(index))
    const span = el('input', {
      id: `span-${index}`,
      placeholder: 'answer span: select it in the answer, or type it; empty for an omission',
      'aria-label': `answer span for ${data.criteria[index]!.criterion}`,
    })
    span.value = draft.span
    const hint = el('span', { class: 'span-hint', id: `span-hint-${index}` }, '')
    const check = () => {
      const bad = span.value !== '' && data.answer !== null && !data.answer.includes(span.value)
      span.classList.toggle('invalid', bad)
      hint.textContent = bad ? 'not in the answer: select or type an exact excerpt' : ''
    }
    span.addEventListener('input', () => {
      draft.span = span.value
      state.dirty = true
      check()
    })
    span.addEventListener('focus', () => activate(index))
    check()
    form.append(group, reason, span, hint)
    if (draft.carried === true) {
      const box = el('input', { type: 'checkbox', id: `carried-${index}` })
      box.checked = draft.confirmed === true
      box.addEventListener('change', () => {
        draft.confirmed = box.checked
        state.dirty = true
      })
      form.append(el('label', { class: 'carried', for: `carried-${index}` }, box, ' carried over, confirm (the criterion is unchanged since this review)'))
    }
    return form
  }

  function reviewersBlock(data: CaseData, reviewers: Exclude<CaseData['reviewers'], 'hidden'>): HTMLElement {
    const table = el('table', { class: 'side-by-side', id: 'side-by-side' }, el('caption', {}, 'Independent reviews, side by side'))
    table.append(
      el(
        'tr',
        {},
        el('th', {}, 'criterion'),
        ...reviewers.map((review) => el('th', {}, review.reviewer, el('br'), el('span', { class: 'dim' }, review.decision))),
      ),
    )
    data.criteria.forEach((item) => {
      const ratings = reviewers.map((review) => review.judgements[item.criterion]?.rating ?? 'not judged')
      const row = el('tr', { class: new Set(ratings).size > 1 ? 'disagree' : 'agree' }, el('td', {}, item.criterion))
      for (const review of reviewers) {
        const judgement = review.judgements[item.criterion]
        const cell = el(
          'td',
          {},
          judgement === undefined
            ? el('span', { class: 'dim' }, 'not judged')
            : el('span', {}, el('span', { class: `badge ${judgement.rating}` }, judgement.rating), ' ', judgement.reason),
        )
        row.append(cell)
      }
      table.append(row)
    })
    return table
  }

  // ---------- comparing two systems ----------

  interface CompareSide {
    status: Status
    reason: string
    failed: string[]
  }
  /** The server's comparison view (compare-data.ts PageComparison). */
  interface Comparison {
    kind: string
    a: { fixture: number; name: string; dir: string; cases: number }
    b: { fixture: number; name: string; dir: string; cases: number }
    same: string
    notes: string[]
    nouns: { accepted: string; rejected: string }
    sections: {
      split: string
      standing: 'result' | 'development'
      label: string | null
      coverage: string
      difference: string
      worstCase: string | null
      rates: string | null
      table: { both: number; a_only: number; b_only: number; neither: number } | null
      leaks: string[]
      criteria: { criterion: string; cells: string[] }[]
      scores: string | null
    }[]
    tasks: { id: string; split: string; a: CompareSide | null; b: CompareSide | null; discordant: 'a_accepted_b_rejected' | 'b_accepted_a_rejected' | null }[]
  }

  /** `#/compare/<A>/<B>`, and `…/<task>` with a task selected: two served fixtures' systems compared, read-only. */
  function compareRoute(): { a: number; b: number; id: string | null } | null {
    const match = /^#\/compare\/(\d+)\/(\d+)(?:\/(.+))?$/.exec(location.hash)
    if (match === null) return null
    let id: string | null = null
    try {
      id = match[3] === undefined ? null : decodeURIComponent(match[3])
    } catch {
      id = null
    }
    return { a: Number(match[1]), b: Number(match[2]), id }
  }

  let comparison: { key: string; data: Comparison } | null = null

  async function renderComparison(at: { a: number; b: number; id: string | null }): Promise<void> {
    if (mode !== 'serve') throw new Error('The comparison view is served by vitest-rubric serve; the static report has none.')
    const key = `${at.a}/${at.b}`
    if (comparison?.key !== key) comparison = { key, data: await api<Comparison>(`/api/compare?a=${at.a}&b=${at.b}`) }
    const data = comparison.data
    const { accepted, rejected } = data.nouns
    const main = el(
      'main',
      { class: 'compare', id: 'compare' },
      el('nav', { class: 'crumbs' }, el('a', { href: '#/' }, 'overview'), ' › compare'),
      el(
        'h2',
        {},
        `A: ${data.a.name} `,
        el('span', { class: 'dim' }, `(${data.a.dir})`),
        ` · B: ${data.b.name} `,
        el('span', { class: 'dim' }, `(${data.b.dir})`),
      ),
      el('p', { class: 'dim' }, data.same),
      ...data.notes.map((note) => el('p', { class: 'dim' }, note)),
    )
    for (const section of data.sections) {
      const block = el(
        'section',
        { class: `compare-split ${section.standing}`, id: `compare-${section.split}`, 'data-split': section.split },
        el('h3', {}, section.label === null ? `${section.split}: the result` : section.split),
      )
      if (section.label !== null) block.append(el('p', { class: 'development-label' }, section.label))
      block.append(el('p', { class: 'coverage' }, section.coverage), el('p', { class: 'difference' }, section.difference))
      if (section.worstCase !== null) block.append(el('p', { class: 'worst-case' }, section.worstCase))
      for (const leak of section.leaks) block.append(el('p', { class: 'leak' }, leak))
      if (section.rates !== null) block.append(el('p', { class: 'rates' }, section.rates))
      if (section.table !== null) {
        const t = section.table
        const table = el('table', { class: 'paired' }, el('caption', {}, 'Paired table: tasks decided in both'))
        table.append(
          el('tr', {}, el('th', {}, ''), el('th', {}, `B ${accepted}`), el('th', {}, `B ${rejected}`)),
          el('tr', {}, el('th', {}, `A ${accepted}`), el('td', {}, String(t.both)), el('td', { class: 'discordant' }, String(t.a_only))),
          el('tr', {}, el('th', {}, `A ${rejected}`), el('td', { class: 'discordant' }, String(t.b_only)), el('td', {}, String(t.neither))),
        )
        block.append(table)
      }
      if (section.criteria.length > 0) {
        const table = el('table', { class: 'compare-criteria' }, el('caption', {}, 'Per criterion, over the same pairs'))
        table.append(
          el(
            'tr',
            {},
            ...['criterion', 'A meets', 'B meets', 'B − A', '95% interval', 'McNemar p', 'fixed by B', 'broken by B'].map((head) => el('th', {}, head)),
          ),
        )
        for (const row of section.criteria) table.append(el('tr', {}, el('td', {}, row.criterion), ...row.cells.map((cell) => el('td', {}, cell))))
        block.append(table)
      }
      if (section.scores !== null) block.append(el('p', { class: 'scores' }, section.scores))
      main.append(block)
    }
    const tasks = el(
      'table',
      { class: 'compare-tasks', id: 'compare-tasks' },
      el('caption', {}, `Both systems' decisions per task: A ${accepted} and B ${rejected} first, then B ${accepted} and A ${rejected}`),
      el('tr', {}, el('th', {}, 'task'), el('th', {}, 'split'), el('th', {}, 'A'), el('th', {}, 'B')),
    )
    const sideCell = (side: CompareSide | null) =>
      el('td', {}, ...(side === null ? [el('span', { class: 'dim' }, 'not in this fixture')] : [badge(side.status), ' ', side.reason]))
    for (const task of data.tasks) {
      const link = el('a', { href: `#/compare/${at.a}/${at.b}/${encodeURIComponent(task.id)}` }, task.id)
      const mark = task.discordant === null ? '' : ` discordant ${task.discordant}`
      tasks.append(
        el(
          'tr',
          { class: `task-row${mark}${task.id === at.id ? ' selected' : ''}`, 'data-id': task.id },
          el('td', {}, link),
          el('td', {}, task.split),
          sideCell(task.a),
          sideCell(task.b),
        ),
      )
    }
    const chosen = at.id === null ? undefined : data.tasks.find((task) => task.id === at.id)
    if (chosen !== undefined) main.append(await sideBySide(data, at, chosen))
    main.append(tasks)
    app.replaceChildren(header(), main)
    document.getElementById('compare-case')?.scrollIntoView({ block: 'nearest' })
  }

  /** The selected task: both answers side by side, each with its decision and the criteria it failed. Read-only. */
  async function sideBySide(data: Comparison, at: { a: number; b: number }, task: Comparison['tasks'][number]): Promise<HTMLElement> {
    const read = (fixture: number) =>
      api<CaseData>(`/api/case?fixture=${fixture}&id=${encodeURIComponent(task.id)}&viewer=reader`).catch((error: unknown) => messageOf(error))
    const [left, right] = await Promise.all([task.a === null ? null : read(at.a), task.b === null ? null : read(at.b)])
    const column = (label: string, fixture: Comparison['a'], shown: CaseData | string | null) => {
      const block = el('div', { class: 'compare-side', 'data-system': label }, el('h3', {}, `${label}: ${fixture.name}`))
      if (shown === null || typeof shown === 'string') {
        block.append(shown === null ? el('p', { class: 'dim' }, 'This task is not in this fixture.') : el('p', { class: 'error' }, shown))
        return block
      }
      block.append(
        el('div', { class: 'decision' }, badge(shown.decision.status), ' ', shown.decision.reason === '' ? 'every criterion meets' : shown.decision.reason),
      )
      if (shown.answer !== null) {
        const failed = shown.criteria.filter((item) => item.rating !== 'meets')
        const ranges = failed.flatMap((item) => (item.spanAt === null ? [] : [{ at: item.spanAt, marker: item.marker, label: item.criterion }]))
        block.append(highlighted(shown.answer, ranges, 'answer'))
        const list = el('ul', { class: 'failed' })
        for (const item of failed)
          list.append(
            el(
              'li',
              { 'data-criterion': item.criterion },
              el('strong', {}, item.criterion),
              ' ',
              item.rating === null ? el('span', { class: 'badge pending' }, 'not judged') : badge(item.rating),
              item.reason === null ? '' : ` ${item.reason}`,
            ),
          )
        block.append(el('h4', {}, failed.length === 0 ? 'No failed criterion' : 'Failed criteria'), list)
      }
      return block
    }
    return el(
      'section',
      { class: 'compare-case', id: 'compare-case' },
      el('h3', {}, `Task ${task.id}`, el('span', { class: 'dim' }, ` · ${task.split}`)),
      el('div', { class: 'compare-sides' }, column('A', data.a, left), column('B', data.b, right)),
    )
  }

  // ---------- adjudicating ----------

  interface Disputes {
    /** The criteria the reviewers rate differently, leave unrated or all leave uncertain, in the rubric's order. */
    disputed: string[]
    /** Each criterion every reviewer rated alike, with the first reviewer's judgement of it. */
    agreed: Map<string, Judgement & { by: string }>
  }

  /** What the adjudicator settles: `null` unless adjudicating a case with independent reviews on the criteria form. */
  function disputesOf(data: CaseData): Disputes | null {
    if (
      mode !== 'serve' ||
      state.viewer.role !== 'adjudicator' ||
      data.view !== 'criteria' ||
      data.reviewers === 'hidden' ||
      data.reviewers.length === 0 ||
      data.refusal !== null
    )
      return null
    const reviewers = data.reviewers
    const disputed: string[] = []
    const agreed = new Map<string, Judgement & { by: string }>()
    for (const item of data.criteria) {
      const first = reviewers[0]!.judgements[item.criterion]
      // The server says which criteria the reviewers agree on, as the terminal's adjudication sorts them.
      if (item.dispute === null && first !== undefined) agreed.set(item.criterion, { ...first, by: reviewers[0]!.reviewer })
      else disputed.push(item.criterion)
    }
    return { disputed, agreed }
  }

  /** A criterion card's mark while adjudicating: disputed, or agreed by every reviewer. */
  function panelMark(data: CaseData, criterion: string): HTMLElement[] {
    const disputes = disputesOf(data)
    if (disputes === null) return []
    const agreed = disputes.agreed.get(criterion)
    return agreed === undefined
      ? [el('span', { class: 'badge disputed' }, data.criteria.find((item) => item.criterion === criterion)?.dispute ?? 'disputed')]
      : [el('span', { class: 'badge agreed', title: `every reviewer rated it ${agreed.rating}; the form holds ${agreed.by}'s reason and span` }, 'agreed')]
  }

  /** The disputed criteria first, each reviewer's judgement inline with a button taking it into the form, and the judges' labels as predictions. */
  function disputesBlock(data: CaseData, disputes: Disputes): HTMLElement {
    const reviewers = data.reviewers === 'hidden' ? [] : data.reviewers
    const names = reviewers.map((review) => review.reviewer).join(', ')
    const block = el(
      'section',
      { class: 'disputes', id: 'disputes' },
      el(
        'h3',
        {},
        disputes.disputed.length === 0
          ? 'Adjudicate: the reviewers agree'
          : `Adjudicate first: ${disputes.disputed.length} of ${counted(data.criteria.length, 'criterion', 'criteria')}`,
      ),
      el(
        'p',
        { class: 'dim' },
        disputes.agreed.size === 0
          ? `Reviews by ${names}. No criterion is rated alike by every reviewer.`
          : `Reviews by ${names}. The ${disputes.agreed.size === 1 ? 'criterion' : `${disputes.agreed.size} criteria`} they rate alike ${disputes.agreed.size === 1 ? 'is' : 'are'} pre-filled in the form below (marked agreed); Adopt records the form as it is.`,
      ),
    )
    const judges = data.judges
    for (const criterion of disputes.disputed) {
      const index = data.criteria.findIndex((item) => item.criterion === criterion)
      const item = data.criteria[index]!
      const card = el(
        'div',
        { class: 'dispute', 'data-criterion': criterion, id: `dispute-${criterion}` },
        el(
          'h4',
          {},
          el('span', { class: `marker m${item.marker % 8}` }, String(item.marker)),
          ` ${criterion} `,
          el('span', { class: 'badge disputed' }, item.dispute ?? 'disputed'),
        ),
        el('p', { class: 'rule' }, item.rule),
      )
      const list = el('ul', { class: 'judgements' })
      for (const review of reviewers) {
        const judgement = review.judgements[criterion]
        const line = el('li', { 'data-reviewer': review.reviewer }, el('strong', {}, review.reviewer), ' ')
        if (judgement === undefined) line.append(el('span', { class: 'dim' }, 'not judged'))
        else {
          const take = el('button', { type: 'button', class: 'take' }, `take ${review.reviewer}'s`)
          take.addEventListener('click', () => {
            state.drafts[index] = { rating: judgement.rating, reason: judgement.reason, span: judgement.answer_span }
            state.dirty = true
            state.active = index
            renderCase()
          })
          line.append(
            el('span', { class: `badge ${judgement.rating}` }, judgement.rating),
            ' ',
            judgement.reason,
            ' ',
            spanText(judgement.answer_span, data),
            ' ',
            take,
          )
        }
        list.append(line)
      }
      for (const hint of judges) {
        const label = hint.current ? hint.judgements[criterion] : undefined
        if (label === undefined) continue
        list.append(
          el(
            'li',
            { class: 'judge-hint', 'data-judge': hint.judge },
            el('span', { class: 'badge prediction' }, 'prediction'),
            ' ',
            el('strong', {}, `judge ${hint.judge}`),
            ' ',
            el('span', { class: `badge ${label.rating}` }, label.rating),
            ' ',
            label.reason,
            ' ',
            el('span', { class: 'dim' }, '(an automated label: a hint, never adopted by itself)'),
          ),
        )
      }
      card.append(list)
      block.append(card)
    }
    for (const hint of judges)
      block.append(
        el(
          'p',
          { class: 'judge-hint', 'data-judge': hint.judge },
          el('span', { class: 'badge prediction' }, 'prediction'),
          ' ',
          hint.current
            ? `judge ${hint.judge}${hint.origin === '' ? '' : ` (${hint.origin})`} predicts ${hint.prediction}. An automated label is a hint: it is never adopted by itself.`
            : `judge ${hint.judge}'s label is stale and not shown: ${hint.reason}`,
        ),
      )
    return block
  }

  function spanText(span: string, data: CaseData): HTMLElement {
    return el(
      'span',
      { class: 'span' },
      span === '' ? 'span: none (an omission)' : `span: “${span}”${data.answer !== null && !data.answer.includes(span) ? ' (not in the answer)' : ''}`,
    )
  }

  // ---------- reviewing ----------

  function activate(index: number): void {
    if (state.active === index) return
    state.active = index
    document.querySelectorAll('.criterion').forEach((node, at) => {
      node.classList.toggle('active', at === index)
    })
  }

  function setRating(index: number, rating: string): void {
    state.drafts[index]!.rating = rating
    // Rating a carried-over criterion again is the reviewer's own judgement of it.
    if (state.drafts[index]!.carried === true) {
      state.drafts[index]!.confirmed = true
      const box = document.querySelector<HTMLInputElement>(`#carried-${index}`)
      if (box !== null) box.checked = true
    }
    state.dirty = true
    activate(index)
    const input = document.querySelector<HTMLInputElement>(rating === '' ? `#rating-${index}-none` : `#rating-${index}-${rating}`)
    if (input !== null) input.checked = true
  }

  function focusActive(): void {
    document.getElementById(`criterion-${state.current?.criteria[state.active]?.criterion ?? ''}`)?.scrollIntoView({ block: 'nearest' })
  }

  function takeSelection(answer: HTMLElement): void {
    const selection = window.getSelection()
    if (selection === null || selection.isCollapsed || state.current === null) return
    const range = selection.getRangeAt(0)
    if (!answer.contains(range.commonAncestorContainer)) return
    const text = selection.toString()
    const input = document.querySelector<HTMLInputElement>(`#span-${state.active}`)
    if (input === null || text === '') return
    input.value = text
    input.dispatchEvent(new Event('input'))
  }

  function setStatus(text: string, kind: 'ok' | 'error'): void {
    const node = document.getElementById('save-status')
    if (node !== null) {
      node.textContent = text
      node.className = kind
    }
  }

  /**
   * Saves the form. An empty form is never sent; a form that leaves criteria out is sent only once
   * the user confirms it (a key press never does), and for a blind reviewer it does not unblind.
   */
  async function saveReview(confirmed = false): Promise<void> {
    const data = state.current
    if (data === null || mode !== 'serve' || document.getElementById('save') === null || saveBlocked(data) !== null) return
    const draft: Record<string, { rating: string; reason: string; answer_span: string }> = {}
    const left: string[] = []
    const unconfirmed: string[] = []
    data.criteria.forEach((item, index) => {
      const value = state.drafts[index]!
      if (value.rating !== '' && (value.carried !== true || value.confirmed === true))
        draft[item.criterion] = { rating: value.rating, reason: value.reason, answer_span: value.span }
      else left.push(item.criterion)
      if (value.rating !== '' && value.carried === true && value.confirmed !== true) unconfirmed.push(item.criterion)
    })
    if (left.length === data.criteria.length) {
      setStatus(
        unconfirmed.length === 0
          ? 'Nothing to save: no criterion is rated. Rate one with 1, 2 or 3.'
          : `Nothing to save: ${unconfirmed.join(', ')} ${unconfirmed.length === 1 ? 'is' : 'are'} carried over, not confirmed. Tick "carried over, confirm" to keep a judgement, or rate it again.`,
        'error',
      )
      return
    }
    if (left.length > 0 && !confirmed) {
      const blind = state.viewer.role === 'reviewer'
      setStatus(
        `Not saved yet: ${left.join(', ')} ${left.length === 1 ? 'is' : 'are'} not rated${unconfirmed.length === 0 ? '' : ` (${unconfirmed.join(', ')} carried over, not confirmed)`} and would be left out${blind ? '; the other reviews stay hidden until every criterion is rated' : ''}. `,
        'error',
      )
      const anyway = el('button', { type: 'button', id: 'save-anyway' }, 'Save anyway')
      anyway.addEventListener('click', () => void saveReview(true))
      const keep = el('button', { type: 'button', id: 'save-cancel' }, 'Keep reviewing')
      keep.addEventListener('click', () => setStatus('', 'ok'))
      document.getElementById('save-status')?.append(anyway, ' ', keep)
      return
    }
    const adjudicating = state.viewer.role === 'adjudicator'
    const body = {
      fixture: data.fixture,
      id: data.id,
      draft,
      versions: data.versions,
      replace: data.existing,
      ...(state.viewer.role === 'reviewer' ? { reviewer: state.viewer.name } : {}),
      ...(adjudicating ? { adjudicator: state.viewer.name || 'page' } : {}),
    }
    setStatus('saving…', 'ok')
    try {
      const result = await api<{
        decision: string
        case: CaseData
        fixture: Pick<Fixture, 'index' | 'version' | 'coverage' | 'agreement' | 'calibration'> & { row: CaseRow | null }
      }>(adjudicating ? '/api/adjudicate' : '/api/review', body)
      savedInto(result.fixture)
      openCase(result.case)
      const next = nextPending()
      setStatus(`saved: ${result.decision}.${next === null ? ' No pending case is left.' : ' Press n for the next pending case.'}`, 'ok')
    } catch (error) {
      // The form is kept: a conflict or a refusal never loses what was typed.
      const conflict = typeof error === 'object' && error !== null && 'code' in error && error.code === 'CASE_CHANGED_MEANWHILE'
      setStatus(`${conflict ? 'not saved: ' : 'refused: '}${messageOf(error)}`, 'error')
      if (conflict && state.kept === null) {
        const reread = el('button', { type: 'button', id: 'reread' }, 're-read the case (your form is kept)')
        reread.addEventListener('click', () => void rereadKept())
        document.getElementById('save-status')?.append(' ', reread)
      } else if (conflict) document.getElementById('save-status')?.append(' What changed is shown above the form.')
    }
  }

  /** The first pending case after the current one, over every fixture, from the start again after the last. */
  /** A save's answer: the saved case's row and its fixture's figures, put in place of the old ones. */
  function savedInto(saved: Pick<Fixture, 'index' | 'version' | 'coverage' | 'agreement' | 'calibration'> & { row: CaseRow | null }): void {
    const fixture = fixtureAt(saved.index)
    if (fixture === null) return
    const { row, ...figures } = saved
    const cases = row === null ? fixture.cases : fixture.cases.map((each) => (each.id === row.id ? row : each))
    state.fixtures = state.fixtures.map((entry) => (entry.index === saved.index ? { ...fixture, ...figures, cases } : entry))
    dataChanged()
  }

  function nextPending(): { fixture: number; id: string } | null {
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

  // ---------- keyboard ----------

  const isField = (node: Element | null) =>
    node instanceof HTMLTextAreaElement ||
    (node instanceof HTMLInputElement && node.type !== 'radio' && node.type !== 'checkbox') ||
    node instanceof HTMLSelectElement

  document.addEventListener('keydown', (event) => {
    const target = event.target instanceof HTMLElement ? event.target : document.body
    // Whichever holds the focus, a key typed in a field is text, never a shortcut.
    const typing = isField(target) || isField(document.activeElement)
    if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
      event.preventDefault()
      void saveReview()
      return
    }
    if (typing) {
      // Esc in a field stays in it (it closes the browser's suggestions); what follows is still typed text.
      if (event.key === 'Enter' && target.id.startsWith('reason-') && !event.shiftKey) {
        event.preventDefault()
        document.getElementById(`span-${state.active}`)?.focus()
      } else if (event.key === 'Enter' && target.id.startsWith('span-')) {
        event.preventDefault()
        target.blur()
        if (state.current !== null && state.active + 1 < state.current.criteria.length) {
          activate(state.active + 1)
          focusActive()
        }
      }
      return
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return
    const { list, at: positions } = visibleCases()
    const current = state.current
    const at = current === null ? -1 : (positions.get(keyOf(current.fixture, current.id)) ?? -1)
    if (event.key === 'j' || event.key === 'k') {
      const item = list[event.key === 'j' ? at + 1 : at === -1 ? list.length - 1 : at - 1]
      if (item !== undefined) go(item.fixture, item.row.id)
    } else if (event.key === 'n') {
      const next = nextPending()
      if (next !== null) go(next.fixture, next.id)
    } else if (current !== null && (event.key === '1' || event.key === '2' || event.key === '3' || event.key === '0')) {
      if (document.getElementById(`reason-${state.active}`) === null) return
      setRating(state.active, event.key === '0' ? '' : RATINGS[Number(event.key) - 1]!)
      event.preventDefault()
      document.getElementById(`reason-${state.active}`)?.focus()
    } else if (current !== null && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      const next = state.active + (event.key === 'ArrowDown' ? 1 : -1)
      if (next >= 0 && next < current.criteria.length) {
        event.preventDefault()
        activate(next)
        focusActive()
      }
    } else if (event.key === 's' && current !== null) {
      event.preventDefault()
      void saveReview()
    } else if (event.key === 'Escape' && current !== null) {
      location.hash = '#/'
    }
  })

  // ---------- a fixture edited on disk ----------

  /**
   * The open case is read again while its form is being filled in: the page shows the case as it is
   * now and keeps the form. A save still sends the versions the form was begun on, so it is refused
   * until the user says the form was checked against what changed.
   */
  async function rereadKept(): Promise<void> {
    const old = state.current
    if (old === null || mode !== 'serve') return
    let fresh: CaseData
    try {
      fresh = await api<CaseData>(`/api/case?fixture=${old.fixture}&id=${encodeURIComponent(old.id)}&viewer=${encodeURIComponent(viewerParam())}`)
    } catch (error) {
      state.kept = { changes: [...(state.kept?.changes ?? []), `the case could not be read again (${messageOf(error)})`], versions: null }
      keepStatus(renderCase)
      return
    }
    if (state.current !== old) return
    const changes = caseChanges(old, fresh)
    if (changes.length === 0) return
    // The drafts follow their criteria, wherever the rubric now puts them.
    const byCriterion = new Map(old.criteria.map((item, index) => [item.criterion, state.drafts[index]!]))
    const activeCriterion = old.criteria[state.active]?.criterion
    // A criterion left empty that the reviewers now agree on starts from their judgement, as when a case is opened.
    const agreed = disputesOf(fresh)?.agreed
    state.drafts = fresh.criteria.map((item) => {
      const draft = byCriterion.get(item.criterion)
      const now = agreed?.get(item.criterion)
      if ((draft === undefined || draft.rating === '') && now !== undefined) return { rating: now.rating, reason: now.reason, span: now.answer_span }
      return draft ?? { rating: '', reason: '', span: '' }
    })
    state.active = Math.max(
      0,
      fresh.criteria.findIndex((item) => item.criterion === activeCriterion),
    )
    const changedVersions = JSON.stringify(fresh.versions) !== JSON.stringify(old.versions)
    state.kept = {
      changes: [...new Set([...(state.kept?.changes ?? []), ...changes])],
      versions: changedVersions ? fresh.versions : (state.kept?.versions ?? null),
    }
    state.current = { ...fresh, versions: old.versions }
    keepStatus(renderCase)
  }

  /** Draws again, keeping the save's status line: a save answered meanwhile is not wiped. */
  function keepStatus(draw: () => void): void {
    const status = document.getElementById('save-status')
    draw()
    if (status !== null && status.textContent !== '') document.getElementById('save-status')?.replaceWith(status)
  }

  /** What differs between two reads of a case, in a few words each: `the answer`, `bob's review`, `the decision (now refused)`. */
  function caseChanges(old: CaseData, fresh: CaseData): string[] {
    const changes: string[] = []
    if (old.question !== fresh.question) changes.push('the question')
    if (old.answer !== fresh.answer) changes.push('the answer')
    if (old.source !== fresh.source) changes.push('the source')
    const oldCriteria = new Map(old.criteria.map((item) => [item.criterion, item]))
    const reworded = fresh.criteria
      .filter((item) => {
        const before = oldCriteria.get(item.criterion)
        return before === undefined || before.rule !== item.rule || before.referenceQuote !== item.referenceQuote
      })
      .map((item) => item.criterion)
    const removed = old.criteria.filter((item) => !fresh.criteria.some((now) => now.criterion === item.criterion)).map((item) => item.criterion)
    if (reworded.length + removed.length > 0) changes.push(`the rubric (${[...reworded, ...removed].join(', ')})`)
    const judged = (data: CaseData) => JSON.stringify(data.criteria.map((item) => [item.criterion, item.rating, item.reason, item.answerSpan]))
    if (judged(old) !== judged(fresh)) changes.push(fresh.shows === 'own' ? 'your review' : 'the adopted review')
    const reviews = (data: CaseData) =>
      new Map(data.reviewers === 'hidden' ? [] : data.reviewers.map((review) => [review.reviewer, JSON.stringify(review.judgements)]))
    const before = reviews(old)
    const now = reviews(fresh)
    for (const [reviewer, judgements] of now) {
      const earlier = before.get(reviewer)
      if (earlier === undefined) changes.push(`${reviewer}'s review (new)`)
      else if (earlier !== judgements) changes.push(`${reviewer}'s review`)
    }
    for (const reviewer of before.keys()) if (!now.has(reviewer)) changes.push(`${reviewer}'s review (withdrawn)`)
    const labels = (data: CaseData) => JSON.stringify(data.judges)
    if (labels(old) !== labels(fresh)) changes.push('the judges’ labels')
    // The decision itself is drawn above: a few words say that it moved.
    if (old.decision.status !== fresh.decision.status) changes.push(`the decision (now ${fresh.decision.status})`)
    else if (old.decision.reason !== fresh.decision.reason) changes.push(`why it is ${fresh.decision.status}`)
    return changes
  }

  /** Above a form kept over a change on disk: what changed, and how to save from here, or why the form cannot be saved now. */
  function keptNotice(data: CaseData): HTMLElement {
    const kept = state.kept!
    const notice = el(
      'div',
      { class: 'kept', id: 'kept', role: 'alert' },
      el('strong', {}, 'Changed on disk while you filled in the form: '),
      `${kept.changes.join('; ')}. The page shows the case as it is now; your form is kept as you left it.`,
    )
    const blocked = saveBlocked(data)
    if (blocked !== null) notice.append(` It cannot be saved now: ${blocked}.`)
    else if (kept.versions !== null) {
      const checked = el('button', { type: 'button', id: 'kept-checked' }, 'My form is checked: save over this version')
      checked.addEventListener('click', () => {
        data.versions = kept.versions!
        kept.versions = null
        renderCase()
      })
      notice.append(' Check your form against it; until you say so, a save is refused. ', checked)
    }
    return notice
  }

  /** The server says a fixture changed (and nothing of what): its version is compared, and the overview read again. */
  async function changed(): Promise<void> {
    try {
      const { versions } = await api<{ versions: (string | null)[] }>('/api/version')
      const edited = state.fixtures.filter((entry, index) => versions[index] !== entry.version)
      const changed = edited.map((entry) => entry.dir)
      if (changed.length > 0) {
        await loadOverview()
        state.notice = `Re-read from disk: ${changed.join(', ')} changed.${state.dirty ? ' Your form is kept.' : ''}`
        // The comparison view is read again, and stays open.
        if (compareRoute() !== null) {
          comparison = null
          await render()
        } else if (state.current !== null && !state.dirty) await render()
        else if (state.current === null) renderOverview()
        else {
          const bar = document.querySelector('header.bar')
          if (bar !== null) bar.replaceWith(header())
          // The case is shown as it is now, beside the form kept as it was.
          const current = state.current
          if (edited.some((entry) => entry.index === current.fixture)) await rereadKept()
        }
      }
    } catch {
      // the server stopped: keep the page as it is
    }
  }

  /** Changes are pushed by the server, not polled: an idle page sends nothing. */
  function listen(): void {
    const events = new EventSource(`/api/events?token=${encodeURIComponent(token)}`)
    let checking = Promise.resolve()
    events.addEventListener('changed', () => {
      checking = checking.then(changed)
    })
    // Reconnected after the server was away: what changed meanwhile was not heard.
    events.addEventListener('open', () => {
      if (state.fixtures.length > 0) checking = checking.then(changed)
    })
  }

  window.addEventListener('hashchange', () => {
    if (location.hash !== drawn) void render()
  })
  void (async () => {
    try {
      await loadOverview()
      await render()
      if (mode === 'serve') listen()
    } catch (error) {
      app.replaceChildren(el('p', { class: 'error', role: 'alert' }, `The page could not load its data: ${messageOf(error)}`))
    }
  })()
})()
