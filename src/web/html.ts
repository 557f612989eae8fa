import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { packageFile } from '../package-files.js'
import type { ReportData } from './protocol.js'

/** The page's built assets: the script and the style sheet the package ships. */
export const ASSET_FILES = {
  'page.js': { file: packageFile('dist/web/client/page.js'), type: 'text/javascript; charset=utf-8' },
  'page.css': { file: packageFile('dist/web/client/page.css'), type: 'text/css; charset=utf-8' },
} as const

export type AssetName = keyof typeof ASSET_FILES

export async function readAsset(name: AssetName): Promise<string> {
  return readFile(ASSET_FILES[name].file, 'utf8')
}

/** Text for an HTML attribute value or element content: every character that could end either is escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>`, `&` and the line separators are
 * written as escapes, so no fixture text can end the block or open a tag.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** The Content-Security-Policy of the served page: only its own script and style, no inline script, no framing. */
export const SERVE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * The served page's shell: the token in a meta element, the script and style loaded from the server.
 * With a team, the person the token names in another meta element: the page views and saves as them.
 */
export function servedPage(token: string, person?: { readonly name: string; readonly role: string }): string {
  const query = `?token=${encodeURIComponent(token)}`
  const identity =
    person === undefined ? '' : `\n<meta name="rubric-identity" content="${escapeHtml(JSON.stringify({ name: person.name, role: person.role }))}">`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="rubric-token" content="${escapeHtml(token)}">${identity}
<title>vitest-rubric review</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/page.css${escapeHtml(query)}">
</head>
<body>
<div id="app" data-mode="serve"><p>Loading…</p></div>
<script src="/assets/page.js${escapeHtml(query)}"></script>
</body>
</html>
`
}

/**
 * The static report: one self-contained HTML file. The script and the style are inline, allowed by
 * their SHA-256 in the page's Content-Security-Policy and nothing else; the data is two JSON
 * blocks: the overview before the script, and the cases after it, which the browser reads while
 * the overview is drawn and the page parses only when a case is first opened. `casesJson` is that
 * block's text, each value in it written with {@link jsonForScript}.
 */
export async function reportPage(data: ReportData, casesJson: string, title: string): Promise<string> {
  const [script, style] = await Promise.all([readAsset('page.js'), readAsset('page.css')])
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
  const csp = `default-src 'none'; script-src ${hash(script)}; style-src ${hash(style)}; img-src data:; base-uri 'none'; form-action 'none'`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="vitest-rubric">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>${style}</style>
</head>
<body>
<div id="app" data-mode="report"><p>Loading…</p></div>
<script type="application/json" id="rubric-data">${jsonForScript(data)}</script>
<script>${script}</script>
<script type="application/json" id="rubric-cases">${casesJson}</script>
</body>
</html>
`
}

/** The line of the head of a report that tells it from any other file: `report --html` replaces only a file that holds it. */
export const REPORT_GENERATOR = '<meta name="generator" content="vitest-rubric">'

/**
 * Whether the start of a file is a report this package wrote: a page that opens with the doctype and
 * names this package as its generator, or (a report of a version before the generator line) holds
 * the report's root element, which follows the inline style.
 */
export function isReportPage(start: string): boolean {
  return start.startsWith('<!doctype html>') && (start.includes(REPORT_GENERATOR) || start.includes('<div id="app" data-mode="report">'))
}
