import { plural } from '../../core/common/primitives.js'
import type { PathSegment } from '../../core/common/json-path.js'
import { fileSource, type DraftSource } from '../../core/engine/authoring/draft.js'
import type { RecordedReview } from '../../core/engine/authoring/review.js'
import { readJudgeLabelFile } from '../../core/judges/judge-label-file.js'
import { recordJudgeLabels, type RecordedJudgeLabels } from '../../core/judges/judge-labels.js'
import { kinds, recordReview } from '../../core/registry.js'
import { parseJsonFile } from '../../core/json/read.js'
import {
  keyedValues,
  oneDir,
  readOptionFile,
  usage,
  stringOption,
  stringOptions,
  stringsOption,
  type CliIo,
  type Command,
  type ParsedArgs,
} from '../command.js'
import { slotGiven, slotOptions } from '../kinds.js'
import { reviewOnTerminal } from './review-terminal.js'
import { reviewQueued } from './review-queued.js'

/** The judgement fields the options fill, by option. */
const JUDGEMENT_OPTIONS = { rating: 'rating', reason: 'reason', span: 'answer_span' } as const
const JUDGEMENT_OPTION_NAMES = ['rating', 'reason', 'span'] as const satisfies readonly (keyof typeof JUDGEMENT_OPTIONS)[]

/** `vitest-rubric review <dir> --case <id>`: a review recorded without typing a hash. */
export const review: Command = {
  name: 'review',
  summary: 'record a review of a case: interactively on a terminal, or from options or a file',
  help: `Usage: vitest-rubric review <dir> [--reviewer <name>] [--replace]     (on a terminal: the review queue)
       vitest-rubric review <dir> --case <id> [--replace] [--dry-run]
       vitest-rubric review <dir> --case <id> --rating <criterion>=<rating> --reason <criterion>=<text>
                            [--span <criterion>=<text>] ... [--replace] [--dry-run]
       vitest-rubric review <dir> --case <id> [--system debate|baseline] --from <review.json> [--replace]
       vitest-rubric review <dir> --case <id> --judge <name> [--origin <text>] (--from <file> | --rating ...)
       vitest-rubric review <dir> --judge <name> [--origin <text>] --from <labels.json|labels.jsonl> [--replace]

Records a review of one case. On a terminal, without --rating or --from, it asks: it shows the
question, the answer and its citation, and for each criterion its rule and reference quote, then
asks for the rating, the reason and the answer span (which must occur in the answer; empty for an
omission). For a scored case it shows the spec and the output of --system, and asks claim by
claim (the excerpt, the validity, the planted issue and credit, the reason, and the defense's
response or the answer's handling, each where it applies), then for the resolution, the empirical
test and the final verdict; an excerpt must occur where the review quotes it from. It shows the
decision the review would give and asks before writing.

On a terminal without --case, it reviews the cases of the review queue in turn (\`vitest-rubric
next\`'s order: sampled cases first; with --reviewer, that reviewer's queue), saying of each why it
is next, and offers the next after each review; a scored case's reviews not made yet are asked in
turn (debate, then baseline; only --system's when given). Disagreements and reviews waiting for
adoption are adjudicate's; a stale or unsettled review is offered only with --replace.

Without a terminal, the review comes from options (each repeatable, one per criterion) or from a
JSON file: { "<criterion>": { "rating", "reason", "answer_span" } } for a criteria fixture; for a
scored one, the review of --system without case_id, system or hashes. A criterion left out stays
unjudged, and the case pending.

The command fills in the case's id, every binding hash and each criterion's reference quote, adds
the review to annotations.json (or, with --replace, replaces the case's review and prints the old
and new ratings), and acknowledges the new revision in cases.json. With --reviewer, the review is
an independent one, kept in reviews/<name>.json: it decides nothing until \`vitest-rubric
adjudicate\` adopts it, and the case stays pending meanwhile; once a case has independent reviews,
a review without --reviewer is refused, as only an adjudication adopts its review. A reviewer's
--replace is taken on a case bound to older files, starting (on a terminal) from their earlier
review; when that review is bound to an earlier rubric.json committed in git, each criterion whose
rule and reference quote are unchanged is offered as carried over, and kept only when confirmed
(--from and --rating never carry anything over). With --judge, the review is an automated judge's label, kept in judges/<name>.json: it
never decides a case and is never counted as graded; \`vitest-rubric calibrate\` compares it with
the adopted reviews. The rubric and the
source are never written, and nothing is written when the review would be refused.

With --judge and --from but no --case, the file holds many cases' labels: JSON keyed by case id,
{ "<case id>": { "<criterion>": { "rating", "reason", "answer_span" } } }, or JSON Lines (a name
ending .jsonl or .ndjson), one { "case": "<case id>", "judgements": { ... } } per line. Every
label is checked first; one that does not fit refuses the whole import, naming its line or key,
and nothing is written. A case the judge has labelled already needs --replace.

Options:
  --case <id>                    the case to review
  --rating <criterion>=<rating>  meets, does_not_meet or uncertain (repeatable)
  --reason <criterion>=<text>    why (repeatable; required with each rating)
  --span <criterion>=<text>      an exact excerpt of the answer; empty or left out for an omission
  --from <file>                  the review's judgements as a JSON file; with --judge and no --case,
                                 many cases' labels (JSON keyed by case id, or JSON Lines)
  --system <system>              scored fixtures: debate or baseline
  --reviewer <name>              record an independent review in reviews/<name>.json (blind: it shows
                                 no other review, and decides nothing until it is adjudicated)
  --judge <name>                 record an automated judge's label in judges/<name>.json (from
                                 --from or --rating only; it never decides a case)
  --origin <text>                with --judge: the file's origin, naming the model and prompt revision
  --replace                      replace the case's review (a revision: old and new ratings are printed)
  --dry-run                      check and print the decision, write nothing

Exit codes: 0 when recorded; 1 when refused, with nothing written; 2 on a usage error (also
when there is no terminal to ask on and neither --rating nor --from is given).`,
  options: {
    ...stringOptions('case', 'from', 'reviewer', 'judge', 'origin'),
    rating: { type: 'string', multiple: true },
    reason: { type: 'string', multiple: true },
    span: { type: 'string', multiple: true },
    ...slotOptions(),
    replace: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
  },
  async run({ values, positionals }, io) {
    const dir = oneDir('review', positionals)
    const caseId = stringOption(values, 'case')
    if (caseId === undefined && values['judge'] !== undefined && values['from'] !== undefined) return importLabels(dir, values, io)
    if (caseId === undefined && io.terminal !== undefined && !['from', 'rating', 'reason', 'span', 'judge'].some((name) => values[name] !== undefined)) {
      const each = { slot: await slotGiven(values, dir, io.cwd), reviewer: stringOption(values, 'reviewer'), replace: values['replace'] === true, cwd: io.cwd }
      return reviewQueued(dir, each, io, (id, slot) => reviewCase(dir, { ...each, slot, caseId: id, dryRun: values['dry-run'] === true }, io))
    }
    if (caseId === undefined) throw usage('review', 'name the case to review with --case <id> (on a terminal, without it: the review queue’s cases in turn).')
    const options = {
      caseId,
      slot: await slotGiven(values, dir, io.cwd),
      reviewer: stringOption(values, 'reviewer'),
      judge: stringOption(values, 'judge'),
      origin: stringOption(values, 'origin'),
      replace: values['replace'] === true,
      cwd: io.cwd,
      dryRun: values['dry-run'] === true,
    }
    const from = stringOption(values, 'from')
    const keyed = {
      rating: keyedValues('review', 'rating', stringsOption(values, 'rating')),
      reason: keyedValues('review', 'reason', stringsOption(values, 'reason')),
      span: keyedValues('review', 'span', stringsOption(values, 'span')),
    } satisfies Record<keyof typeof JUDGEMENT_OPTIONS, Map<string, string>>
    const flagged = Object.values(keyed).some((map) => map.size > 0)
    if (from !== undefined && flagged) throw usage('review', '--from holds the judgements: leave out --rating, --reason and --span.')

    if (from !== undefined) {
      const file = await readOptionFile(io.cwd, 'from', from)
      io.stdout(formatReview(await recordReview(dir, parseJsonFile(file), fileSource(file.display), options), options.dryRun))
      return 0
    }
    if (flagged) {
      io.stdout(formatReview(await recordReview(dir, draftOfOptions(keyed), optionSource, options), options.dryRun))
      return 0
    }
    if (options.judge !== undefined)
      throw usage('review', "a judge's labels come from its own run: give them with --from <file> or with --rating, --reason and --span.")
    return reviewCase(dir, options, io)
  },
}

/** One case reviewed on the terminal: the questions, the decision, and the review written after confirmation. */
async function reviewCase(
  dir: string,
  options: { caseId: string; slot: string | undefined; reviewer: string | undefined; replace: boolean; cwd: string; dryRun: boolean },
  io: CliIo,
): Promise<number> {
  if (io.terminal === undefined) {
    throw usage('review', 'there is no terminal to ask on: give the judgements with --rating, --reason and --span, or with --from <file>.')
  }
  const outcome = await reviewOnTerminal(dir, { ...options, kinds }, io.terminal)
  if (outcome === 'cancelled') {
    io.stderr('review cancelled: nothing was written')
    return 1
  }
  io.stdout(formatReview(outcome, options.dryRun))
  return 0
}

/** `review <dir> --judge <name> --from <file>` without `--case`: many cases' labels in one revision of the judge's file. */
async function importLabels(dir: string, values: ParsedArgs['values'], io: CliIo): Promise<number> {
  for (const option of ['rating', 'reason', 'span', 'system', 'reviewer'] as const) {
    if (values[option] !== undefined)
      throw usage('review', `--${option} does not go with a bulk import (--judge and --from without --case): the file holds every label.`)
  }
  const from = stringOption(values, 'from') ?? ''
  const file = await readOptionFile(io.cwd, 'from', from)
  const dryRun = values['dry-run'] === true
  const result = await recordJudgeLabels(dir, readJudgeLabelFile(file), {
    kinds,
    judge: stringOption(values, 'judge') ?? '',
    origin: stringOption(values, 'origin'),
    existing: values['replace'] === true ? 'replace' : 'refuse',
    cwd: io.cwd,
    dryRun,
  })
  io.stdout(formatImport(result, dryRun))
  return 0
}

/** What a bulk import did: the counts, then the file written. */
export function formatImport(result: RecordedJudgeLabels, dryRun: boolean): string {
  const counts = `${result.added} new, ${result.replaced} replaced, ${result.unchanged} already so`
  const last = dryRun ? 'dry run: nothing was written' : result.written.length === 0 ? 'nothing to write' : `wrote ${result.written.join(' and ')}`
  return `${result.dir}\n  judge ${result.judge}: ${dryRun ? 'would record' : 'recorded'} labels of ${plural(result.added + result.replaced + result.unchanged, 'case')} (${counts})\n  ${last}`
}

/** `--rating c=r --reason c=t --span c=t` as the draft the kind takes: one judgement per criterion named. */
function draftOfOptions(keyed: Record<keyof typeof JUDGEMENT_OPTIONS, Map<string, string>>): Record<string, Record<string, string>> {
  const draft: Record<string, Record<string, string>> = {}
  for (const option of JUDGEMENT_OPTION_NAMES) {
    const field = JUDGEMENT_OPTIONS[option]
    for (const [criterion, value] of keyed[option]) {
      // Own keys only, as JSON.parse sets them: "__proto__" must reach the kind as a criterion id, and be refused there.
      if (!Object.hasOwn(draft, criterion)) Object.defineProperty(draft, criterion, { value: {}, enumerable: true, writable: true, configurable: true })
      draft[criterion]![field] = value
    }
  }
  return draft
}

const OPTION_OF: Record<string, string> = { rating: '--rating', reason: '--reason', answer_span: '--span' }

const optionSource: DraftSource = {
  label: 'the options',
  locate(path: readonly PathSegment[]) {
    const [criterion, field] = path
    if (criterion === undefined) return 'the options'
    return `${field === undefined ? '--rating' : (OPTION_OF[String(field)] ?? `--${String(field)}`)} ${String(criterion)}`
  },
}

/** What `review` did: the case, the old and new ratings of a replaced review, the decision, the files. */
export function formatReview(result: RecordedReview, dryRun: boolean): string {
  const lines: string[] = []
  const by = result.judge === undefined ? result.reviewer : `judge ${result.judge}`
  const slot = `${result.slot === 'review' ? '' : ` (${result.slot})`}${by === undefined ? '' : ` by ${by}`}`
  const decided =
    result.judge !== undefined
      ? `which predicts ${result.decision} (a judge's label decides nothing)`
      : result.reviewer !== undefined
        ? `which alone would decide ${result.decision}`
        : result.decides
          ? `${dryRun ? 'then the case would be decided' : 'then decided'} ${result.decision}`
          : `which decides nothing by itself; the case is ${result.decision}`
  const what = result.judge === undefined ? 'review' : 'label'
  if (result.before === null) lines.push(`${result.caseId}${slot}: ${dryRun ? 'would record' : 'recorded'} a ${what}, ${decided}`)
  else {
    lines.push(`${result.caseId}${slot}: ${dryRun ? 'would replace' : 'replaced'} the ${what}, ${decided}`)
    const keys = [...new Set([...Object.keys(result.before), ...Object.keys(result.after)])]
    for (const key of keys) {
      const before = result.before[key] ?? '(none)'
      const after = result.after[key] ?? '(none)'
      lines.push(before === after ? `  ${key}: ${after}` : `  ${key}: ${before} → ${after}`)
    }
  }
  lines.push(
    dryRun
      ? 'dry run: nothing was written'
      : result.written.length === 0
        ? `the ${what} was already so: nothing was written`
        : `wrote ${result.written.join(' and ')}`,
  )
  return `${result.dir}\n${lines.map((line) => `  ${line}`).join('\n')}`
}
