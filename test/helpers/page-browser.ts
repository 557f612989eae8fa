import { cp } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, onTestFinished } from 'vitest'
import { startServer, type RunningServer, type ServeOptions } from '../../src/web/server.js'
import { launchBrowser } from './browser.js'
import { scratchDir } from './scratch.js'

/** Who views the review page, as the page keeps it in `localStorage`. */
export interface PageViewer {
  readonly role: 'reviewer' | 'adjudicator' | 'reader'
  readonly name: string
}

/** A browser page of one test, and the uncaught errors it has thrown so far. */
export interface OpenPage {
  readonly page: Page
  readonly errors: string[]
}

export interface OpenOptions {
  /** Who views the page: stored as the page stores it, before the page at `hash` is loaded. */
  readonly viewer?: PageViewer
  /** A selector the page shows once drawn: waited for before the page is handed over. */
  readonly waitFor?: string
}

/** The Chromium of a test file, and the pages of its tests. */
export interface PageBrowser {
  /** The browser itself: launched before the file's first test, closed after its last. */
  readonly browser: Browser
  /**
   * A new page, in a context of its own when `context` is given, closed when the test ends. Its
   * uncaught errors are collected in `errors`, and any left when the test ends fail it.
   */
  newPage(context?: BrowserContext): Promise<OpenPage>
  /** The review page `server` serves, at `hash` (`#/f/0/c/<id>`), as {@link newPage} opens a page. */
  open(server: RunningServer, hash?: string, options?: OpenOptions): Promise<OpenPage>
}

/**
 * One Chromium for the test file that calls it (at its top level), driven by playwright-core:
 * launched before the first test and closed after the last. `enabled: false` launches none, for a
 * file whose tests are all skipped.
 */
export function pageBrowser(options: { readonly enabled?: boolean } = {}): PageBrowser {
  let launched: Browser | undefined
  beforeAll(async () => {
    if (options.enabled !== false) launched = await launchBrowser()
  }, 60_000)
  afterAll(async () => {
    await launched?.close()
  })
  const newPage = async (context?: BrowserContext): Promise<OpenPage> => {
    if (launched === undefined) throw new Error('the browser is not launched: call pageBrowser() at the top of the test file, and open pages in its tests')
    const page = await (context ?? launched).newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    onTestFinished(async () => {
      await page.close()
      expect(errors, 'uncaught errors of the page').toEqual([])
    })
    return { page, errors }
  }
  return {
    get browser() {
      if (launched === undefined) throw new Error('the browser is not launched: call pageBrowser() at the top of the test file')
      return launched
    },
    newPage,
    async open(server, hash = '', { viewer, waitFor } = {}) {
      const opened = await newPage()
      const { page } = opened
      if (viewer !== undefined) {
        await page.goto(server.url)
        // A string, run in the page: the helpers compile without the DOM's types.
        await page.evaluate(`localStorage.setItem('vitest-rubric.viewer', ${JSON.stringify(JSON.stringify(viewer))})`)
        await page.goto(`${server.url}${hash}`)
        await page.reload()
      } else await page.goto(`${server.url}${hash}`)
      if (waitFor !== undefined) await page.waitForSelector(waitFor)
      return opened
    },
  }
}

/**
 * A scratch root, removed when the test ends, holding a copy of each fixture directory named:
 * `{ 'fixtures/lab': DOCUCTL }` copies the bundled fixture to `<root>/fixtures/lab`.
 */
export async function fixtureRoot(name: string, copies: Readonly<Record<string, string>>, filter?: (source: string) => boolean): Promise<string> {
  const root = await scratchDir(name)
  for (const [to, from] of Object.entries(copies)) await cp(from, join(root, to), { recursive: true, ...(filter === undefined ? {} : { filter }) })
  return root
}

/** `dirs` of `root` served on a free port until the test ends. */
export async function serve(root: string, dirs: readonly string[], options: Partial<ServeOptions> = {}): Promise<RunningServer> {
  const server = await startServer({ dirs, cwd: root, port: 0, ...options })
  onTestFinished(() => server.close())
  return server
}
