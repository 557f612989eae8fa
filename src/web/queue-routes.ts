import type { DecidedWithStates } from '../core/engine/evaluate.js'
import type { SomeFixture } from '../core/engine/fixture.js'
import type { PanelPolicy } from '../core/engine/panel-rule.js'
import { reviewQueue, type QueueFor } from '../core/engine/review-queue.js'
import { readSampleFile } from '../core/sample/sample-file.js'
import { samplePlace } from '../core/sample/sample.js'
import type { NextAnswer } from './assignment-protocol.js'
import type { Viewer } from './viewer.js'

// `GET /api/next` on the page of one person (`serve` without `--team`): the viewer's review queue,
// as `vitest-rubric next` orders it and says why, read from the fixture as the server keeps it
// decided. Nothing is reserved: one person walks the queue, and `after` steps past the case shown.

export interface QueueContext {
  /** Who views the page: a reviewer's queue is their own (blind), an adjudicator's their adjudications. */
  readonly viewer: Viewer
  /** The rule the server decides the fixtures by: the queue's reasons are read from that decision. */
  readonly panel: PanelPolicy | undefined
  readonly cwd: string
  /** The fixture served at a position, and its evaluation as the server holds it. */
  readonly loaded: (index: number) => Promise<{ readonly fixture: SomeFixture; readonly decided: DecidedWithStates }>
}

/**
 * The first case of the viewer's queue of fixture `index`, or with `after` (the case shown) the one
 * that follows it in the queue, from the start again after the last; `null` when the queue holds
 * nothing else. `queued` counts the whole queue.
 */
export async function queuedCase(context: QueueContext, index: number, after: string | null): Promise<NextAnswer> {
  const { fixture, decided } = await context.loaded(index)
  const { sample } = await readSampleFile(samplePlace(fixture, context.cwd))
  const queue = reviewQueue(fixture, { sample, for: queueFor(context.viewer), panel: context.panel, decided })
  const at = after === null ? -1 : queue.entries.findIndex((entry) => entry.caseId === after)
  const entry = at === -1 ? queue.entries[0] : [...queue.entries.slice(at + 1), ...queue.entries.slice(0, at)][0]
  if (entry === undefined) return { next: null }
  return { next: { fixture: index, id: entry.caseId, reason: entry.reason, detail: entry.detail, expires: null, queued: queue.entries.length } }
}

function queueFor(viewer: Viewer): QueueFor {
  if (viewer.role === 'reviewer') return { reviewer: viewer.name }
  if (viewer.role === 'adjudicator' && viewer.name !== undefined) return { adjudicator: viewer.name }
  return undefined
}
