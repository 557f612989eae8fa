import { ASSET_FILES, readAsset, servedPage, type AssetName } from '../html.js'
import { RequestError } from '../request.js'
import { send } from '../respond.js'
import type { Route } from './route.js'

// The page itself: its shell (`GET /`), which carries the caller's token, and its built script and
// style sheet (`GET /assets/<name>`), only those the package ships.

/** `GET /`: the page's shell, with the token the request came in with (and, with a team, the person it names). */
export const pageShell: Route = async ({ response, caller }) => send(response, 200, 'text/html; charset=utf-8', servedPage(caller.token, caller.person))

/** The path the assets are served under. */
export const ASSETS_PATH = '/assets/'

/** `GET /assets/<name>`: one of the page's built files, by its name. */
export const pageAsset: Route = async ({ response, url }) => {
  const name = url.pathname.slice(ASSETS_PATH.length)
  if (!isAssetName(name)) throw new RequestError('NOT_FOUND', 'no such file.')
  send(response, 200, ASSET_FILES[name].type, await readAsset(name))
}

function isAssetName(name: string): name is AssetName {
  return Object.hasOwn(ASSET_FILES, name)
}
