// The review page and the static report: modules by view and concern, bundled at build time into
// the one script both inline or load (scripts/build-page.mjs). They read what the server sends
// through the types of ../protocol.ts, and what a kind shows from its page description (KindView):
// no kind's name and no rating is written here.
import { loadOverview } from './api.js'
import { listen } from './changes.js'
import { el, messageOf } from './dom.js'
import { listenToKeys } from './keyboard.js'
import { isDrawn, render, wireRedraw } from './router.js'
import { app, mode } from './state.js'

wireRedraw()
listenToKeys()
window.addEventListener('hashchange', () => {
  if (!isDrawn(location.hash)) void render()
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
