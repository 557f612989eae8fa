// Routing: the address says what is drawn, the overview (`#/`), a case (`#/f/<fixture>/c/<id>`)
// or the comparison of two fixtures (`#/compare/<a>/<b>[/<task>]`).
import { loadCase } from './api.js'
import { renderCase } from './case-view.js'
import { compareRoute, renderComparison } from './comparison.js'
import { el, messageOf } from './dom.js'
import { header } from './header.js'
import { renderOverview } from './overview.js'
import { forgetStatusLine, openCase } from './save.js'
import { app, PAGE_SIZE, redraw, state, visibleCases } from './state.js'

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

/** Whether the address is the one last drawn. */
export const isDrawn = (hash: string) => hash === drawn

/** Counts the drawings begun: one that reads from the server draws only if none began while it read. */
let begun = 0

export async function render(): Promise<void> {
  drawn = location.hash
  const drawing = ++begun
  // A drawing begun later (the address changed, or a change on disk was heard) draws the page; this one's read is dropped.
  const latest = () => drawing === begun
  const compared = compareRoute()
  const at = route()
  // A case opened again from elsewhere starts with an empty status line.
  if (at === null || at === 'malformed' || compared !== null) forgetStatusLine()
  if (compared !== null) {
    state.current = null
    try {
      await renderComparison(compared, latest)
    } catch (error) {
      if (latest()) app.replaceChildren(header(), el('p', { class: 'error', role: 'alert' }, messageOf(error)), el('a', { href: '#/' }, 'back to the overview'))
    }
    return
  }
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
    if (latest()) openCase(data)
  } catch (error) {
    if (latest()) app.replaceChildren(header(), el('p', { class: 'error', role: 'alert' }, messageOf(error)), el('a', { href: '#/' }, 'back to the overview'))
  }
}

/** The views ask for these to be drawn again (state.ts `redraw`). */
export function wireRedraw(): void {
  redraw.page = render
  redraw.case = renderCase
  redraw.overview = renderOverview
}
