// The bar above every view: the way home, who is viewing (the served page), the keys, and a notice.
import { loadOverview } from './api.js'
import { el, messageOf } from './dom.js'
import { app, identity, mode, redraw, state, type Viewer } from './state.js'

/** Who is viewing changed: the overview and the case are read again, as that viewer may see them. */
export function setViewer(viewer: Viewer): void {
  state.viewer = viewer
  localStorage.setItem('vitest-rubric.viewer', JSON.stringify(state.viewer))
  // The overview depends on who views it: a blind reviewer's is served without the others' reviews.
  void loadOverview().then(redraw.page, (error: unknown) => app.replaceChildren(header(), el('p', { class: 'error', role: 'alert' }, messageOf(error))))
}

export function header(): HTMLElement {
  const bar = el('header', { class: 'bar' }, el('a', { href: '#/', class: 'home' }, mode === 'report' ? 'vitest-rubric report' : 'vitest-rubric review'))
  if (mode === 'serve' && identity !== null) {
    const as = identity.role === 'reviewer' ? 'reviewing (blind) as' : identity.role === 'adjudicator' ? 'adjudicating as' : 'reading as'
    bar.append(el('span', { class: 'viewer', id: 'viewer-identity' }, `${as} `, el('strong', {}, identity.name)))
  } else if (mode === 'serve') {
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
      mode === 'serve'
        ? `j/k next/previous case · n ${identity?.role === 'reviewer' ? 'your next case' : identity === null ? 'next in the review queue' : 'next pending'} · 1/2/3 rate · s save`
        : 'j/k next/previous case · n next pending · Esc overview',
    ),
  )
  if (state.notice !== '') bar.append(el('p', { class: 'notice', role: 'status' }, state.notice))
  return bar
}
