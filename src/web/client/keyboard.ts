// The keys: j and k move through the cases shown, n opens the next case of the review queue (a team's
// reviewer's next case as the server hands it out; a team's reader's next pending one), 1, 2, 3… rate the
// active criterion with the kind's ratings and 0 leaves it out, the arrows move between criteria,
// s or Ctrl+Enter saves, Esc goes back to the overview. A key typed in a field is text, never a shortcut.
import { askNext, followsQueue, isAssigned } from './assignment.js'
import { activate, focusActive, setRating } from './criteria-form.js'
import { saveReview } from './save.js'
import { go, keyOf, kindOf, nextPending, state, visibleCases } from './state.js'

const isField = (node: Element | null) =>
  node instanceof HTMLTextAreaElement ||
  (node instanceof HTMLInputElement && node.type !== 'radio' && node.type !== 'checkbox') ||
  node instanceof HTMLSelectElement

/** Listens to the keys, once, for the life of the page. */
export function listenToKeys(): void {
  document.addEventListener('keydown', onKey)
}

function onKey(event: KeyboardEvent): void {
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
  } else if (event.key === 'n' && (isAssigned() || followsQueue())) {
    void askNext()
  } else if (event.key === 'n') {
    const next = nextPending()
    if (next !== null) go(next.fixture, next.id)
  } else if (current !== null && /^[0-9]$/.test(event.key) && Number(event.key) <= kindOf(current.fixture).ratings.length) {
    if (document.getElementById(`reason-${state.active}`) === null) return
    setRating(state.active, event.key === '0' ? '' : kindOf(current.fixture).ratings[Number(event.key) - 1]!)
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
}
