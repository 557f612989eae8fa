import { confirm, isCancel } from '@clack/prompts'
import type { SomeFixture } from '../../core/engine/fixture.js'
import { reviewQueue, type QueueEntry, type QueueReason } from '../../core/engine/review-queue.js'
import { loadFixture } from '../../core/registry.js'
import { readSampleFile } from '../../core/sample/sample-file.js'
import { samplePlace } from '../../core/sample/sample.js'
import type { CliIo } from '../command.js'
import { REASON_WORDS } from './next.js'

/** The queue's reasons a review answers; a review that replaces one (stale, not settled) only with `--replace`. */
const REVIEWED: ReadonlySet<QueueReason> = new Set(['sampled', 'unreviewed'])
const REPLACED: ReadonlySet<QueueReason> = new Set(['stale', 'unsettled'])

/**
 * `review <dir>` on a terminal without `--case`: the cases of the review queue (`vitest-rubric next`'s
 * order, sampled cases first), each said with why it is next, reviewed one after the other. After each
 * review it offers the next; a case cancelled or declined ends the run. Disagreements and reviews
 * waiting for adoption are `adjudicate`'s, and left out. A case of a kind with several reviews (a
 * scored case's debate and baseline) has each reviewed in turn that the reviewer has not reviewed
 * yet (each, with `--replace`), or only the one `slot` names.
 */
export async function reviewQueued(
  dir: string,
  options: { readonly slot: string | undefined; readonly reviewer: string | undefined; readonly replace: boolean; readonly cwd: string },
  io: CliIo,
  reviewOne: (caseId: string, slot: string | undefined) => Promise<number>,
): Promise<number> {
  const terminal = { input: io.terminal!.input, output: io.terminal!.output }
  const done = new Set<string>()
  for (let round = 0; ; round++) {
    // Read again before each case: the last review, and anyone else's meanwhile, changed the queue.
    const fixture = await loadFixture(dir, { cwd: options.cwd })
    const { sample } = await readSampleFile(samplePlace(fixture, options.cwd))
    const queue = reviewQueue(fixture, { sample, for: options.reviewer === undefined ? undefined : { reviewer: options.reviewer } })
    const open = queue.entries.filter((entry) => (REVIEWED.has(entry.reason) || (options.replace && REPLACED.has(entry.reason))) && !done.has(entry.caseId))
    const entry = open[0]
    const slots = entry === undefined ? [] : slotsToReview(fixture, entry.caseId, options)
    if (entry !== undefined && slots.length === 0) {
      // The slot named is reviewed already: nothing of this case is this run's.
      done.add(entry.caseId)
      continue
    }
    const whose = options.reviewer === undefined ? '' : ` for ${options.reviewer}`
    if (entry === undefined) {
      io.stdout(
        `${queue.name} (${queue.fixture}): nothing left to review in the queue${whose}${options.replace ? '' : ' (--replace takes stale and unsettled reviews too)'}`,
      )
      return 0
    }
    if (round > 0) {
      const more = await confirm({
        ...terminal,
        message: `Review the next case in the queue, ${entry.caseId} (${why(entry)})?`,
        active: 'yes',
        inactive: 'no, stop here',
      })
      if (isCancel(more) || !more) return 0
    }
    const which = slots.length > 1 ? `; its reviews of ${slots.join(', then ')}` : slots[0] === undefined ? '' : `; its review of ${slots[0]}`
    io.stdout(`next in the queue${whose} (${open.length === 1 ? 'the last' : `1 of ${open.length}`}): ${entry.caseId}, ${why(entry)}${which}`)
    for (const slot of slots) {
      const code = await reviewOne(entry.caseId, slot)
      if (code !== 0) return code
    }
    done.add(entry.caseId)
  }
}

/**
 * The reviews of a case to make: for a kind with one review, that one (`undefined`: the kind's);
 * otherwise the one `slot` names, or each of the kind's, leaving out those the reviewer (or, without
 * one, the fixture) has already unless `replace`.
 */
function slotsToReview(
  fixture: SomeFixture,
  caseId: string,
  options: { readonly slot: string | undefined; readonly reviewer: string | undefined; readonly replace: boolean },
): (string | undefined)[] {
  const kindSlots = fixture.definition.reviews.slots
  if (kindSlots.length === 1) return [options.slot]
  const existing = options.reviewer === undefined ? fixture.reviews.get(caseId) : fixture.panel.reviews.get(caseId)?.get(options.reviewer)
  const wanted = options.slot === undefined ? kindSlots : [options.slot]
  return wanted.filter((slot) => options.replace || existing?.[slot] === undefined)
}

function why(entry: QueueEntry): string {
  return `${REASON_WORDS[entry.reason]}: ${entry.detail}`
}
