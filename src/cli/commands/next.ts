import { plural } from '../../core/common/primitives.js'
import { REVIEWER_NAME, reviewerName } from '../../core/engine/panel.js'
import { QUEUE_REASONS, reviewQueue, type QueueFor, type QueueReason, type ReviewQueue } from '../../core/engine/review-queue.js'
import { loadFixture } from '../../core/registry.js'
import { readSampleFile } from '../../core/sample/sample-file.js'
import { samplePlace } from '../../core/sample/sample.js'
import { minReviewsOption, oneDir, stringOption, stringOptions, usage, type Command } from '../command.js'

/** How many entries are listed unless `--limit` says otherwise. */
const DEFAULT_LIMIT = 20

/** How each reason reads in the header and on each line. */
export const REASON_WORDS: Record<QueueReason, string> = {
  sampled: 'sampled, not reviewed',
  disagreement: 'reviewers disagree',
  adjudication: 'waiting for adjudication',
  stale: 'stale review',
  unreviewed: 'not reviewed',
  unsettled: 'review not settled',
}

/** `vitest-rubric next <dir> [--reviewer <name> | --adjudicator <name>] [--limit <n>] [--json]`: the ordered review queue. */
export const next: Command = {
  name: 'next',
  summary: 'the cases to review next, in one order, each with why: sampled, disputed, to adjudicate, stale, unreviewed',
  help: `Usage: vitest-rubric next <dir> [--reviewer <name> | --adjudicator <name>] [--limit <n>] [--json]

Lists the cases a person should look at next, in one order, each once, for the first reason that applies:
  1. sampled        drawn for review (sample.json) and pending for lack of a review
  2. disagreement   independent reviewers (reviews/<name>.json) rate the named criteria differently
  3. adjudication   independent reviews wait for an adoption (\`vitest-rubric adjudicate\`)
  4. stale          a review is refused because the answer, source or rubric changed since (its code
                    is named: REVIEW_ANSWER_STALE, REVIEW_SOURCE_STALE, REVIEW_RUBRIC_STALE)
  5. unreviewed     pending with no review, or fewer independent reviews than --min-reviews asks
  6. unsettled      pending on an incomplete or uncertain review
Within a reason, cases keep the order of the fixture. No rating is ever shown.

With --reviewer, the queue of one reviewer, blind: the cases they have not reviewed that are still
pending (sampled first, then disagreements, named by criterion only), and their own reviews that
are stale; a case they reviewed and whose review is current is done, and adjudication is left out.
With --adjudicator, the cases an adjudication decides: disagreements, then agreed reviews waiting.

Options:
  --reviewer <name>     the queue of this reviewer (blind)
  --adjudicator <name>  the queue of this adjudicator
  --limit <n>           list at most n entries (default ${DEFAULT_LIMIT}; 0 lists every one); the counts cover all
  --min-reviews <n>     a case needs n independent reviews before it is decided (default 0)
  --json                print { fixture, name, reviewer, adjudicator, total, counts, entries: [{ caseId,
                        reason, detail, criteria, codes }] } (see docs/cli.md)

Exit codes: 0 when listed, also when the queue is empty ("nothing to review"); 1 when the fixture or
its sample.json is refused; 2 on a usage error.`,
  options: {
    ...stringOptions('reviewer', 'adjudicator', 'limit', 'min-reviews'),
    json: { type: 'boolean', default: false },
  },
  async run({ values, positionals }, io) {
    const dir = oneDir('next', positionals)
    const reviewer = nameOption(values, 'reviewer')
    const adjudicator = nameOption(values, 'adjudicator')
    if (reviewer !== undefined && adjudicator !== undefined) throw usage('next', 'give --reviewer or --adjudicator, not both: a queue is one person’s.')
    const limit = limitOption(stringOption(values, 'limit'))
    const minReviews = minReviewsOption('next', values['min-reviews'])
    const fixture = await loadFixture(dir, { cwd: io.cwd })
    const { sample } = await readSampleFile(samplePlace(fixture, io.cwd))
    const who: QueueFor = reviewer !== undefined ? { reviewer } : adjudicator !== undefined ? { adjudicator } : undefined
    const queue = reviewQueue(fixture, { sample, for: who, panel: { minReviews } })
    const shown = limit === 0 ? queue.entries : queue.entries.slice(0, limit)
    if (values['json'] === true) {
      io.stdout(
        JSON.stringify(
          {
            fixture: queue.fixture,
            name: queue.name,
            reviewer: reviewer ?? null,
            adjudicator: adjudicator ?? null,
            total: queue.entries.length,
            counts: queue.counts,
            entries: shown,
          },
          null,
          2,
        ),
      )
    } else io.stdout(formatQueue(queue, shown, reviewer ?? adjudicator))
    return 0
  },
}

function nameOption(values: Parameters<typeof stringOption>[0], option: 'reviewer' | 'adjudicator'): string | undefined {
  const value = stringOption(values, option)
  if (value === undefined) return undefined
  if (!REVIEWER_NAME.test(value)) throw usage('next', `--${option} takes a name of letters, digits, ".", "_" and "-", not ${JSON.stringify(value)}.`)
  return reviewerName(value)
}

function limitOption(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT
  const count = Number(value)
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(count))
    throw usage('next', `--limit takes a whole number (0 for every entry), not ${JSON.stringify(value)}.`)
  return count
}

/** The queue as text: a header with the counts per reason, then one line per entry shown. */
export function formatQueue(queue: ReviewQueue, shown: ReviewQueue['entries'], person: string | undefined): string {
  const whose = person === undefined ? '' : ` for ${person}`
  if (queue.entries.length === 0) return `${queue.name} (${queue.fixture}): nothing to review${whose}`
  const counts = QUEUE_REASONS.filter((reason) => queue.counts[reason] > 0).map((reason) => `${REASON_WORDS[reason]} ${queue.counts[reason]}`)
  const lines = [`${queue.name} (${queue.fixture}): ${plural(queue.entries.length, 'case')} to review${whose} (${counts.join(', ')})`]
  const width = Math.max(...shown.map((entry) => entry.caseId.length))
  for (const entry of shown) lines.push(`  ${entry.caseId.padEnd(width)}  ${REASON_WORDS[entry.reason]}: ${entry.detail}`)
  const more = queue.entries.length - shown.length
  if (more > 0) lines.push(`  … and ${more} more (--limit 0 lists every one)`)
  return lines.join('\n')
}
