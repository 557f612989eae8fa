import { adjudicateCase, adjudicateConsensus, openAdjudication, type AdjudicationResult } from '../../core/engine/adjudicate.js'
import { fileSource, type DraftSource } from '../../core/engine/authoring/draft.js'
import { kinds } from '../../core/registry.js'
import { parseJsonFile } from '../../core/json/read.js'
import {
  keyedValues,
  minReviewsOption,
  oneDir,
  readOptionFile,
  requiredOption,
  usage,
  stringOption,
  stringOptions,
  stringsOption,
  type Command,
} from '../command.js'
import { slotGiven, slotOptions } from '../kinds.js'
import { keepDraft } from '../drafts.js'
import type { AdjudicationChoice } from '../../core/contract/terminal.js'
import { RevisionError } from '../../core/common/errors.js'
import { slotOptionOf } from '../../core/engine/slot-option.js'

const JUDGEMENT_OPTIONS = { rating: 'rating', reason: 'reason', span: 'answer_span' } as const
const JUDGEMENT_OPTION_NAMES = ['rating', 'reason', 'span'] as const satisfies readonly (keyof typeof JUDGEMENT_OPTIONS)[]

/** `vitest-rubric adjudicate <dir> --case <id> | --consensus`: independent reviews made one adopted review, explicitly. */
export const adjudicate: Command = {
  name: 'adjudicate',
  summary: 'adopt a review of a case from its independent reviews, or every case its reviewers agree on',
  help: `Usage: vitest-rubric adjudicate <dir> --case <id> --adjudicator <name>
                                [--take <reviewer>] [--pick <criterion>=<reviewer>]...
                                [--rating <criterion>=<rating> --reason <criterion>=<text> [--span <criterion>=<text>]]...
                                [--from <review.json>] [--system debate|baseline] [--dry-run]
       vitest-rubric adjudicate <dir> --consensus --adjudicator <name> [--min-reviews <n>] [--dry-run]

Makes the adopted review of a case (in annotations.json, the review that decides it) from its
independent reviews (reviews/<reviewer>.json). On a terminal, with --case alone, it shows the
reviewers' judgements side by side, criterion by criterion, and asks which to adopt or lets you
write your own; for a scored case, it shows each reviewer's dimension scores and review side by
side and asks whose review to adopt (a scored review is adopted whole). Without a terminal:
--take starts from one reviewer's whole review, --pick takes a criterion from a reviewer, and
--rating/--reason/--span (or --from) write judgements over those.

--consensus adopts, in one run, every case whose reviewers (at least two, and at least
--min-reviews) all agree on every criterion with no uncertainty, and lists what it adopted and
what it left for you.

Each adoption is recorded in adjudications.json with the fingerprint of every independent review
it resolved and who adjudicated: if one of those reviews changes later, the adoption is stale and
the case is refused until it is adjudicated again.

Options:
  --case <id>                     the case to adjudicate
  --consensus                     adopt every case whose reviewers agree
  --adjudicator <name>            who adjudicates (required; letters, digits, ".", "_", "-")
  --take <reviewer>               start from this reviewer's review
  --pick <criterion>=<reviewer>   adopt this reviewer's judgement of the criterion (repeatable)
  --rating, --reason, --span      write a judgement yourself, as vitest-rubric review takes them
  --from <file>                   judgements you write, as a JSON file
  --system <system>               scored fixtures: debate or baseline
  --min-reviews <n>               with --consensus: the reviews a case needs
  --dry-run                       check and print, write nothing

Exit codes: 0 when adopted (or, with --consensus, nothing to adopt); 1 when refused, with nothing
written; 2 on a usage error.`,
  options: {
    ...stringOptions('case', 'adjudicator', 'take', 'from', 'min-reviews'),
    consensus: { type: 'boolean', default: false },
    pick: { type: 'string', multiple: true },
    rating: { type: 'string', multiple: true },
    reason: { type: 'string', multiple: true },
    span: { type: 'string', multiple: true },
    ...slotOptions(),
    'dry-run': { type: 'boolean', default: false },
  },
  async run({ values, positionals }, io) {
    const dir = oneDir('adjudicate', positionals)
    const adjudicator = requiredOption('adjudicate', values, 'adjudicator', 'name who adjudicates with --adjudicator <name>: the adoption records it.')
    const dryRun = values['dry-run'] === true
    const caseId = stringOption(values, 'case')
    if (values['consensus'] === true) {
      if (caseId !== undefined) throw usage('adjudicate', 'give --case or --consensus, not both.')
      const minReviews = minReviewsOption('adjudicate', values['min-reviews'])
      io.stdout(
        formatAdjudication(
          await adjudicateConsensus(dir, { adjudicator, minReviews, cwd: io.cwd, dryRun, kinds }, { label: 'the consensus', locate: () => 'the consensus' }),
          dryRun,
        ),
      )
      return 0
    }
    if (caseId === undefined) throw usage('adjudicate', 'name the case with --case <id>, or pass --consensus.')
    const picks = Object.fromEntries(keyedValues('adjudicate', 'pick', stringsOption(values, 'pick')))
    const keyed = {
      rating: keyedValues('adjudicate', 'rating', stringsOption(values, 'rating')),
      reason: keyedValues('adjudicate', 'reason', stringsOption(values, 'reason')),
      span: keyedValues('adjudicate', 'span', stringsOption(values, 'span')),
    } satisfies Record<keyof typeof JUDGEMENT_OPTIONS, Map<string, string>>
    const from = stringOption(values, 'from')
    let written: Record<string, unknown> | undefined
    let source: DraftSource = {
      label: 'the options',
      locate: (path) => `--${String(path[1] === 'answer_span' ? 'span' : (path[1] ?? 'rating'))} ${String(path[0] ?? '')}`.trim(),
    }
    if (from !== undefined) {
      const file = await readOptionFile(io.cwd, 'from', from)
      const document = parseJsonFile(file)
      if (typeof document !== 'object' || document === null || Array.isArray(document))
        throw usage('adjudicate', `${file.display} must hold a JSON object of judgements.`)
      written = { ...document }
      source = fileSource(file.display)
    } else if (Object.values(keyed).some((map) => map.size > 0)) {
      const judgements: Record<string, Record<string, string>> = {}
      for (const option of JUDGEMENT_OPTION_NAMES) {
        const field = JUDGEMENT_OPTIONS[option]
        for (const [criterion, value] of keyed[option]) {
          if (!Object.hasOwn(judgements, criterion))
            Object.defineProperty(judgements, criterion, { value: {}, enumerable: true, writable: true, configurable: true })
          const judgement = judgements[criterion]
          if (judgement !== undefined) judgement[field] = value
        }
      }
      written = judgements
    }
    const take = stringOption(values, 'take')
    const slot = await slotGiven(values, dir, io.cwd)
    const options = { caseId, slot, adjudicator, cwd: io.cwd, dryRun, kinds }
    if (take !== undefined || Object.keys(picks).length > 0 || written !== undefined) {
      io.stdout(formatAdjudication(await adjudicateCase(dir, { ...options, take, picks, ...(written === undefined ? {} : { written }) }, source), dryRun))
      return 0
    }
    if (io.terminal === undefined)
      throw usage('adjudicate', 'there is no terminal to ask on: say what to adopt with --take, --pick or --rating/--reason/--span, or pass --from <file>.')
    const view = await openAdjudication(kinds, dir, caseId, slot, io.cwd)
    const prompts = view.target.definition.terminal
    if (prompts?.adjudicate === undefined) throw usage('adjudicate', `a ${view.target.fixture.kind} review is adopted whole: pass --take <reviewer>.`)
    let chosen: AdjudicationChoice | undefined
    const outcome = await prompts
      .adjudicate(view, io.terminal, (choice, preview) => {
        chosen = choice
        return adjudicateCase(
          dir,
          { ...options, expected: view.versions, dryRun: preview || dryRun, ...choice },
          { label: 'the adjudication', locate: (path) => `the adjudication of ${path.map(String).join(' › ')}` },
        )
      })
      .catch(async (error: unknown) => {
        // The case changed while the adjudicator chose: on a terminal, what was chosen and typed would be lost with the refusal.
        if (!(error instanceof RevisionError) || error.code !== 'CASE_CHANGED_MEANWHILE' || chosen === undefined) throw error
        const slotWords = slot === undefined ? [] : [`--${slotOptionOf(view.target.fixture.definition)}`, slot]
        const command = [
          'vitest-rubric',
          'adjudicate',
          dir,
          '--case',
          caseId,
          '--adjudicator',
          adjudicator,
          ...slotWords,
          ...(chosen.take === undefined ? [] : ['--take', chosen.take]),
          ...Object.entries(chosen.picks ?? {}).flatMap(([item, reviewer]) => ['--pick', `${item}=${reviewer}`]),
        ]
        throw await keepDraft(error, { dir, caseId, names: ['adjudication', ...(slot === undefined ? [] : [slot])], command, draft: chosen.written }, io.cwd)
      })
    if (outcome === 'cancelled') {
      io.stderr('adjudication cancelled: nothing was written')
      return 1
    }
    io.stdout(formatAdjudication(outcome, dryRun))
    return 0
  },
}

/** What an adjudication adopted (and, for a consensus, what it left), then the files written. */
export function formatAdjudication(result: AdjudicationResult, dryRun: boolean): string {
  const lines: string[] = []
  for (const each of result.adopted) {
    const slot = each.slot === 'review' ? '' : ` (${each.slot})`
    const decided = each.decides
      ? `${dryRun ? 'then the case would be decided' : 'then decided'} ${each.decision}`
      : `which decides nothing by itself; the case is ${each.decision}`
    lines.push(`${each.caseId}${slot}: ${dryRun ? 'would adopt' : 'adopted'} a review resolving ${each.resolved.join(', ')}, ${decided}`)
    for (const [item, value] of Object.entries(each.after)) lines.push(`  ${item}: ${value}`)
  }
  for (const each of result.left) lines.push(`left ${each.id}: ${each.reason}`)
  if (result.adopted.length === 0) lines.push('nothing to adopt: no case has independent reviews that all agree and wait for an adoption')
  lines.push(dryRun ? 'dry run: nothing was written' : result.written.length === 0 ? 'no file was written' : `wrote ${result.written.join(', ')}`)
  return `${result.dir}\n${lines.map((line) => `  ${line}`).join('\n')}`
}
