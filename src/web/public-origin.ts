// `serve --public-origin <url>`: the address people reach the server at, through a reverse proxy
// that terminates TLS. The server still listens on loopback; it accepts that origin's Host (and
// Origin) and nothing else, and the links it prints name it.

/** The origin people reach the server at, as the browser names it. */
export interface PublicOrigin {
  /** `https://review.example.org` (a port only when not 443), as a browser's `Origin` header names it. */
  readonly origin: string
  /** `review.example.org`, as the `Host` header a proxy passes on names it (lowercase). */
  readonly host: string
}

/**
 * Reads `--public-origin`: an `https://` URL naming a host (and a port, if not 443) and nothing
 * else: no path, query, fragment or user. Plain `http://` is refused: the proxy in front must
 * terminate TLS, since the links carry the tokens. Throws an `Error` whose message says what was
 * expected.
 */
export function parsePublicOrigin(text: string): PublicOrigin {
  const expected = 'an https:// URL with a host and nothing after it, such as https://review.example.org'
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error(`--public-origin takes ${expected}, not ${JSON.stringify(text)}.`)
  }
  if (url.protocol !== 'https:')
    throw new Error(
      `--public-origin ${text}: the address must start with https://, as the reverse proxy in front of serve terminates TLS (the links carry the tokens).`,
    )
  if (url.username !== '' || url.password !== '') throw new Error(`--public-origin ${text}: the address must not carry a user name or password.`)
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(text))
    throw new Error(`--public-origin ${text}: the address must name no path, query or fragment (serve is served at the root of its host): ${expected}.`)
  return { origin: url.origin, host: url.host.toLowerCase() }
}
