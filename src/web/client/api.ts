// What the page reads from the server (protocol.ts), or, in the static report, from its own file.
import type { ErrorAnswer, OverviewAnswer, PageCase } from '../protocol.js'
import { reportCase } from './report-mode.js'
import { ahead, dataChanged, embedded, keyOf, mode, nextPending, state, token, visibleCases, type ShownCase } from './state.js'

/** A request to the server with the page's token; a refusal is thrown with its code and status. */
export async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-rubric-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  // Cast: the server's answer to this path has the type the caller names (protocol.ts), or is a refusal.
  const data = (await response.json()) as T & Partial<ErrorAnswer>
  if (!response.ok)
    throw Object.assign(new Error(data.error?.message ?? response.statusText), { code: data.error?.code ?? String(response.status), status: response.status })
  return data
}

/** Who is viewing, as the server reads it: a blind reviewer is served nothing of the others' reviews. */
export function viewerParam(): string {
  return state.viewer.role === 'reader' || state.viewer.name === '' ? 'reader' : `${state.viewer.role}:${state.viewer.name}`
}

/** A case as the server shows it to `viewer` (the current viewer unless named). */
export function readCase(fixture: number, id: string, viewer = viewerParam()): Promise<PageCase> {
  return api<PageCase>(`/api/case?fixture=${fixture}&id=${encodeURIComponent(id)}&viewer=${encodeURIComponent(viewer)}`)
}

export async function loadOverview(): Promise<void> {
  state.fixtures = embedded !== null ? embedded.fixtures : (await api<OverviewAnswer>(`/api/overview?viewer=${encodeURIComponent(viewerParam())}`)).fixtures
  dataChanged()
}

export async function loadCase(fixture: number, id: string): Promise<ShownCase> {
  if (embedded !== null) return reportCase(embedded, fixture, id)
  const key = keyOf(fixture, id)
  const read = ahead.get(key)
  if (read !== undefined) {
    ahead.delete(key)
    return read
  }
  return readCase(fixture, id)
}

/** Reads the cases j and k would open from `data`, and with `pending` the one n would open, so that the key draws at once. */
export function readAhead(data: ShownCase, { pending: withPending }: { readonly pending: boolean }): void {
  if (mode !== 'serve') return
  const { list, at } = visibleCases()
  const position = at.get(keyOf(data.fixture, data.id))
  const near = [position === undefined ? undefined : list[position + 1], position === undefined ? undefined : list[position - 1]].flatMap((item) =>
    item === undefined ? [] : [{ fixture: item.fixture, id: item.row.id }],
  )
  const pending = withPending ? nextPending() : null
  if (pending !== null) near.push(pending)
  ahead.clear()
  for (const item of near) {
    const read = readCase(item.fixture, item.id)
    // A failed read ahead is read again when the case is opened.
    read.catch(() => ahead.delete(keyOf(item.fixture, item.id)))
    ahead.set(keyOf(item.fixture, item.id), read)
  }
}
