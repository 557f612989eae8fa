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
  }
  interface Judgement {
    rating: string
    reason: string
    answer_span: string
  }
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
    existing: boolean
    revisable: boolean
    versions: Record<string, string | null>
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
  // Cast: the report embeds the page data the server side built (PageFixture, PageCase).
  const embedded =
    mode === 'report'
      ? (JSON.parse(document.getElementById('rubric-data')!.textContent ?? '{}') as { fixtures: FixtureEntry[]; cases: Record<string, CaseData> })
      : null

  interface PageState {
    fixtures: FixtureEntry[]
    filters: { status: string; waiting: string; split: string; criterion: string; disagreement: boolean; stale: boolean; search: string }
    current: CaseData | null
    drafts: Draft[]
    active: number
    dirty: boolean
    viewer: Viewer
    notice: string
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
  }
  const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

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
  }

  async function loadCase(fixture: number, id: string): Promise<CaseData> {
    if (embedded !== null) {
      const found = embedded.cases[`${fixture}/${id}`]
      if (found === undefined) throw new Error(`there is no case "${id}"`)
      return found
    }
    return api<CaseData>(`/api/case?fixture=${fixture}&id=${encodeURIComponent(id)}&viewer=${encodeURIComponent(viewerParam())}`)
  }

  function fixtureAt(index: number): Fixture | null {
    const entry = state.fixtures[index]
    return entry !== undefined && !('refused' in entry) ? entry : null
  }

  function matches(row: CaseRow): boolean {
    const { filters } = state
    if (filters.status !== '' && row.status !== filters.status) return false
    if (filters.waiting !== '' && row.waiting !== filters.waiting) return false
    if (filters.split !== '' && row.split !== filters.split) return false
    if (filters.criterion !== '' && ![...row.failed, ...row.uncertain, ...row.missing].includes(filters.criterion)) return false
    if (filters.disagreement && !row.disagreement) return false
    if (filters.stale && !row.stale) return false
    const search = filters.search.trim().toLowerCase()
    return search === '' || row.id.toLowerCase().includes(search) || row.text.toLowerCase().includes(search)
  }

  /** The cases the filters leave, in order, over every fixture: what j and k move through. */
  function visibleCases(): { fixture: number; row: CaseRow }[] {
    const list: { fixture: number; row: CaseRow }[] = []
    for (const entry of state.fixtures) {
      const fixture = fixtureAt(entry.index)
      if (fixture !== null) for (const row of fixture.cases) if (matches(row)) list.push({ fixture: fixture.index, row })
    }
    return list
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

  function go(fixture: number, id: string): void {
    location.hash = `#/f/${fixture}/c/${encodeURIComponent(id)}`
  }

  async function render(): Promise<void> {
    const at = route()
    if (at === null) {
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
    state.active = 0
    state.dirty = false
    renderCase()
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
      const apply = () => {
        state.viewer = { role: role.value === 'reviewer' || role.value === 'adjudicator' ? role.value : 'reader', name: name.value.trim() }
        localStorage.setItem('vitest-rubric.viewer', JSON.stringify(state.viewer))
        // The overview depends on who views it: a blind reviewer's is served without the others' reviews.
        void loadOverview().then(render, (error: unknown) => app.replaceChildren(header(), el('p', { class: 'error', role: 'alert' }, messageOf(error))))
      }
      role.addEventListener('change', apply)
      name.addEventListener('change', apply)
      bar.append(el('span', { class: 'viewer' }, role, ' ', name))
    }
    bar.append(el('span', { class: 'keys' }, 'j/k next/previous case · n next pending · 1/2/3 rate · s save'))
    if (state.notice !== '') bar.append(el('p', { class: 'notice', role: 'status' }, state.notice))
    return bar
  }

  // ---------- overview ----------

  function renderOverview(): void {
    const main = el('main', { class: 'overview' })
    main.append(filtersBar())
    for (const entry of state.fixtures) {
      if ('refused' in entry) {
        main.append(el('section', { class: 'fixture refused' }, el('h2', {}, entry.dir), el('pre', { class: 'error' }, entry.refused)))
        continue
      }
      main.append(fixtureSection(entry))
    }
    app.replaceChildren(header(), main)
  }

  function filtersBar(): HTMLElement {
    const fixtures = state.fixtures.flatMap((entry) => ('refused' in entry ? [] : [entry]))
    const waits = [...new Set(fixtures.flatMap((fixture) => fixture.cases.flatMap((row) => (row.waiting === null ? [] : [row.waiting]))))]
    const splits = [...new Set(fixtures.flatMap((fixture) => fixture.cases.map((row) => row.split)))]
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
        renderOverview()
      })
      return node
    }
    const check = (key: 'disagreement' | 'stale', label: string) => {
      const box = el('input', { type: 'checkbox', id: `filter-${key}` })
      box.checked = state.filters[key]
      box.addEventListener('change', () => {
        state.filters[key] = box.checked
        renderOverview()
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
    search.addEventListener('input', () => {
      state.filters.search = search.value
      const position = search.selectionStart
      renderOverview()
      const again = document.querySelector<HTMLInputElement>('#filter-search')
      again?.focus()
      again?.setSelectionRange(position, position)
    })
    return el(
      'div',
      { class: 'filters' },
      select('status', 'status', ['accepted', 'rejected', 'pending', 'refused']),
      select('waiting', 'pending reason', waits),
      select('split', 'split', splits),
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
          el('td', { class: 'pending' }, String(counts.pending)),
          el('td', {}, String(counts.refused)),
          el('td', {}, outcome),
        ),
      )
    }
    section.append(table)
    const byReason = new Map<string, number>()
    for (const row of fixture.cases) if (row.waiting !== null) byReason.set(row.waiting, (byReason.get(row.waiting) ?? 0) + 1)
    if (byReason.size > 0)
      section.append(el('p', { class: 'pending-reasons' }, `pending: ${[...byReason].map(([reason, count]) => `${count} ${reason}`).join(' · ')}`))
    if (fixture.agreement !== null) {
      const agreement = el(
        'table',
        { class: 'agreement' },
        el('caption', {}, `review agreement (${fixture.agreement.reviewers.join(', ')})`),
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
      section.append(agreement)
    }
    if (fixture.calibration !== null) {
      for (const [judge, figures] of Object.entries(fixture.calibration.judges)) {
        const calibration = el(
          'table',
          { class: 'calibration' },
          el('caption', {}, `judge ${judge} (${figures.origin}): ${figures.cases} cases, ${figures.stale} stale labels`),
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
        section.append(calibration)
        if (figures.predictions.pending > 0)
          section.append(
            el(
              'p',
              { class: 'dim' },
              `prediction, not review coverage: the judge predicts ${figures.predictions.accepted} accepted, ${figures.predictions.rejected} rejected of ${figures.predictions.pending} pending cases`,
            ),
          )
      }
    }
    const list = el('table', { class: 'cases' }, el('tr', {}, el('th', {}, 'case'), el('th', {}, 'split'), el('th', {}, 'decision'), el('th', {}, 'why')))
    let shown = 0
    for (const row of fixture.cases) {
      if (!matches(row)) continue
      shown++
      const link = el('a', { href: `#/f/${fixture.index}/c/${encodeURIComponent(row.id)}` }, row.id)
      const why = el('td', {}, row.reason)
      if (row.stale) why.append(' ', el('span', { class: 'badge refused' }, 'stale'))
      list.append(
        el('tr', { class: `case-row ${row.status}`, 'data-case': row.id }, el('td', {}, link), el('td', {}, row.split), el('td', {}, badge(row.status)), why),
      )
    }
    section.append(el('p', { class: 'dim' }, `${shown} of ${fixture.cases.length} cases shown`), list)
    return section
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
    const list = visibleCases()
    const position = list.findIndex((item) => item.fixture === data.fixture && item.row.id === data.id)
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
    if (data.view === 'criteria') main.append(criteriaBlock(data))
    else main.append(...tableBlock(data))
    if (data.reviewers === 'hidden')
      main.append(el('p', { class: 'hidden-reviews' }, "The other reviewers' judgements are shown once you have saved your own review of every criterion."))
    else if (data.reviewers.length > 0) main.append(reviewersBlock(data, data.reviewers))
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

  function criteriaBlock(data: CaseData): HTMLElement {
    const editable =
      mode === 'serve' &&
      data.view === 'criteria' &&
      (state.viewer.role === 'reviewer' ? state.viewer.name !== '' : true) &&
      (data.refusal === null || data.revisable)
    const block = el(
      'section',
      { class: 'criteria', id: 'criteria' },
      el('h3', {}, editable ? (state.viewer.role === 'adjudicator' ? 'Criteria: adjudicate' : 'Criteria: review') : 'Criteria'),
    )
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
          item.rating === null ? el('span', { class: 'badge pending' }, 'not judged') : el('span', { class: `badge ${item.rating}` }, item.rating),
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
      block.append(el('div', { class: 'actions' }, save, el('span', { id: 'save-status', role: 'status' }, '')))
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
    data.criteria.forEach((item, index) => {
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
        if (judgement !== undefined && mode === 'serve' && state.viewer.role === 'adjudicator') {
          const take = el('button', { type: 'button', class: 'take' }, 'take')
          take.addEventListener('click', () => {
            state.drafts[index] = { rating: judgement.rating, reason: judgement.reason, span: judgement.answer_span }
            state.dirty = true
            state.active = index
            renderCase()
          })
          cell.append(' ', take)
        }
        row.append(cell)
      }
      table.append(row)
    })
    return table
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
    if (data === null || mode !== 'serve' || document.getElementById('save') === null) return
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
      const result = await api<{ decision: string; case: CaseData; fixtures: FixtureEntry[] }>(adjudicating ? '/api/adjudicate' : '/api/review', body)
      state.fixtures = result.fixtures
      openCase(result.case)
      const next = nextPending()
      setStatus(`saved: ${result.decision}.${next === null ? ' No pending case is left.' : ' Press n for the next pending case.'}`, 'ok')
    } catch (error) {
      // The form is kept: a conflict or a refusal never loses what was typed.
      const conflict = typeof error === 'object' && error !== null && 'status' in error && error.status === 409
      setStatus(`${conflict ? 'not saved: ' : 'refused: '}${messageOf(error)}`, 'error')
      if (conflict) {
        const reload = el('button', { type: 'button', id: 'reload' }, 'reload the case (your form is lost)')
        reload.addEventListener('click', () => void render())
        document.getElementById('save-status')?.append(' ', reload)
      }
    }
  }

  function nextPending(): { fixture: number; id: string } | null {
    const current = state.current
    const all: { fixture: number; row: CaseRow }[] = []
    for (const entry of state.fixtures) {
      const fixture = fixtureAt(entry.index)
      if (fixture !== null) for (const row of fixture.cases) all.push({ fixture: fixture.index, row })
    }
    const start = current === null ? -1 : all.findIndex((item) => item.fixture === current.fixture && item.row.id === current.id)
    for (let step = 1; step <= all.length; step++) {
      const item = all[(start + step + all.length) % all.length]!
      if (item.row.status === 'pending' && !(current !== null && item.fixture === current.fixture && item.row.id === current.id))
        return { fixture: item.fixture, id: item.row.id }
    }
    return null
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
    const list = visibleCases()
    const current = state.current
    const at = current === null ? -1 : list.findIndex((item) => item.fixture === current.fixture && item.row.id === current.id)
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

  async function watch(): Promise<void> {
    try {
      const { versions } = await api<{ versions: (string | null)[] }>('/api/version')
      const changed = state.fixtures.filter((entry, index) => versions[index] !== entry.version).map((entry) => entry.dir)
      if (changed.length > 0) {
        await loadOverview()
        const names = changed
        state.notice = `Re-read from disk: ${names.join(', ')} changed.${state.dirty ? ' Your form is kept; saving checks again whether its files changed.' : ''}`
        if (state.current !== null && !state.dirty) await render()
        else if (state.current === null) renderOverview()
        else {
          const bar = document.querySelector('header.bar')
          if (bar !== null) bar.replaceWith(header())
        }
      }
    } catch {
      // the server stopped: keep the page as it is
    }
    setTimeout(() => void watch(), 1500)
  }

  window.addEventListener('hashchange', () => void render())
  void (async () => {
    try {
      await loadOverview()
      await render()
      if (mode === 'serve') setTimeout(() => void watch(), 1500)
    } catch (error) {
      app.replaceChildren(el('p', { class: 'error', role: 'alert' }, `The page could not load its data: ${messageOf(error)}`))
    }
  })()
})()
