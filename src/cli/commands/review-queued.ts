import { confirm, isCancel } from '@clack/prompts'
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
 * waiting for adoption are `adjudicate`'s, and left out.
 */
export async function reviewQueued(
  dir: string,
  options: { readonly reviewer: string | undefined; readonly replace: boolean; readonly cwd: string },
  io: CliIo,
  reviewOne: (caseId: string) => Promise<number>,
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
    io.stdout(`next in the queue${whose} (${open.length === 1 ? 'the last' : `1 of ${open.length}`}): ${entry.caseId}, ${why(entry)}`)
    const code = await reviewOne(entry.caseId)
    if (code !== 0) return code
    done.add(entry.caseId)
  }
}

function why(entry: QueueEntry): string {
  return `${REASON_WORDS[entry.reason]}: ${entry.detail}`
}
