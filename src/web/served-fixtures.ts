import type { ServerResponse } from 'node:http'
import { RubricError } from '../core/common/errors.js'
import type { Decision } from '../core/contract/decision.js'
import type { EvaluateOptions } from '../core/engine/evaluate.js'
import type { KindRegistry } from '../core/engine/registry.js'
import { refusalFor } from './blind.js'
import { LoadedFixtures, type LoadedEntry, type OverviewView } from './loaded-fixtures.js'
import { pageFixture, shownDecisions } from './page-data.js'
import { PageRows } from './page-rows.js'
import type { EstimateJudge } from './page-estimate.js'
import type { CaseRow, ChangedEvent, PageFixture, RefusedFixture } from './protocol.js'
import { RequestError } from './request.js'
import type { Viewer } from './viewer.js'

/** A served fixture that loaded: its files read and decided. */
export type LoadedFixture = Extract<LoadedEntry, { fixture: unknown }>

export interface ServedFixturesOptions {
  readonly kinds: KindRegistry
  /** The served directories, absolute. */
  readonly dirs: readonly string[]
  /** The same directories as they were given, as the page shows them. */
  readonly named: readonly string[]
  readonly cwd: string
  readonly evaluate: EvaluateOptions
  /** The judge `serve --judge` named, which the overview's estimate must use. */
  readonly judge?: string | undefined
}

/** How many viewers' overviews of one fixture are kept before they are all made again. */
const KEPT_VIEWS = 16

/**
 * The fixtures a server serves, as its routes read them: each kept loaded until one of its files
 * changes ({@link LoadedFixtures}), each viewer's overview of it kept as served, and every open
 * change stream told of each change (which fixture, nothing of what changed).
 */
export class ServedFixtures {
  readonly #streams = new Set<ServerResponse>()
  /** What the overviews made of each case, by fixture: an overview made again after a save makes again only the cases it changed. */
  readonly #rows = new Map<number, PageRows>()
  readonly #fixtures: LoadedFixtures

  constructor(readonly options: ServedFixturesOptions) {
    const { kinds, dirs, cwd, evaluate } = options
    this.#fixtures = new LoadedFixtures({
      kinds,
      dirs,
      cwd,
      evaluate,
      onChange: (index) => {
        const event: ChangedEvent = { fixture: index }
        for (const stream of this.#streams) stream.write(`event: changed\ndata: ${JSON.stringify(event)}\n\n`)
      },
    })
  }

  /** The overview's judge: the one named, required to have labels, else the fixture's only or first judge. */
  get estimateJudge(): EstimateJudge | undefined {
    return this.options.judge === undefined ? undefined : { required: this.options.judge }
  }

  /** How many fixtures are served. */
  get count(): number {
    return this.options.dirs.length
  }

  /** The fixture at `index` as its files are now, or the error that refused it. */
  current(index: number): Promise<LoadedEntry> {
    return this.#fixtures.current(index)
  }

  /** The fixture at `index`, loaded: `NOT_FOUND` for a position not served, the fixture's own error for one refused. */
  async loaded(index: number): Promise<LoadedFixture> {
    if (this.options.dirs[index] === undefined) throw new RequestError('NOT_FOUND', `there is no fixture ${index}: the page serves ${this.count}.`)
    const entry = await this.#fixtures.current(index)
    if (entry.error !== undefined) throw entry.error
    return entry
  }

  /** The fixture at `index` as last read and loaded, its files not checked again: `undefined` before its first read, and while it is refused. */
  lastLoaded(index: number): LoadedFixture | undefined {
    const entry = this.#fixtures.last(index)
    return entry?.error === undefined ? entry : undefined
  }

  /** The overview of a loaded fixture as `viewer` may see it. A reader's and an adjudicator's are the same; a blind reviewer's is their own. */
  async viewOf(entry: LoadedFixture, index: number, viewer: Viewer): Promise<OverviewView> {
    const key = viewer.role === 'reviewer' ? `reviewer:${viewer.name}` : 'all'
    const kept = entry.views.get(key)
    if (kept !== undefined) return kept
    const rows = this.#rows.get(index) ?? new PageRows()
    this.#rows.set(index, rows)
    const page = await pageFixture(entry.fixture, index, this.options.evaluate, viewer, entry.decided, this.estimateJudge, rows)
    // Its JSON is made when an overview is first served, not for a save's answer, which reads a few figures and one row.
    let json: Buffer | undefined
    const view: OverviewView = {
      page,
      get json() {
        json ??= Buffer.from(JSON.stringify(page))
        return json
      },
    }
    if (entry.views.size >= KEPT_VIEWS) entry.views.clear()
    entry.views.set(key, view)
    return view
  }

  /** The decision of each case of a loaded fixture as `viewer` is shown it: a blind reviewer's own, as their overview shows them. */
  shownDecisions(entry: LoadedFixture, index: number, viewer: Viewer): readonly Decision[] {
    const rows = this.#rows.get(index) ?? new PageRows()
    this.#rows.set(index, rows)
    return shownDecisions(entry.fixture, viewer, entry.decided, rows)
  }

  /** A blind reviewer's figures of a fixture, counted over what they may see (their overview's), and the row of one case. */
  async reviewerFigures(entry: LoadedFixture, index: number, viewer: Viewer, caseId: string): Promise<PageFixture & { readonly row: CaseRow | null }> {
    const { page } = await this.viewOf(entry, index, viewer)
    return { ...page, row: page.cases.find((each) => each.id === caseId) ?? null }
  }

  /** The overview of every served fixture as `viewer` may see it, as pieces of one JSON answer: each fixture's as kept, never joined into one copy. */
  async overview(viewer: Viewer): Promise<Buffer[]> {
    const parts = await Promise.all(
      this.options.dirs.map(async (_dir, index) => {
        try {
          return (await this.viewOf(await this.loaded(index), index, viewer)).json
        } catch (error) {
          if (error instanceof RubricError)
            return Buffer.from(
              JSON.stringify({ index, dir: this.options.named[index]!, refused: refusalFor(error, viewer), version: null } satisfies RefusedFixture),
            )
          throw error
        }
      }),
    )
    return [Buffer.from('{"fixtures":['), ...parts.flatMap((part, at) => (at === 0 ? [part] : [Buffer.from(','), part])), Buffer.from(']}')]
  }

  /** Each served fixture's version, `null` for one refused. */
  versions(): Promise<(string | null)[]> {
    return Promise.all(
      this.options.dirs.map(async (_dir, index) =>
        this.#fixtures.current(index).then(
          (entry) => entry.version,
          () => null,
        ),
      ),
    )
  }

  /** Tells `stream` of each change from now until it closes. */
  tell(stream: ServerResponse): void {
    this.#streams.add(stream)
    stream.on('close', () => this.#streams.delete(stream))
  }

  /** Watches the served directories, and loads each fixture ahead of the first request, so that the page's first overview need not wait for it. */
  watch(): void {
    this.#fixtures.watch()
    for (const index of this.options.dirs.keys()) this.#fixtures.current(index).catch(() => undefined)
  }

  /** Stops watching and ends every open change stream. */
  close(): void {
    this.#fixtures.close()
    for (const stream of this.#streams) stream.end()
    this.#streams.clear()
  }
}
