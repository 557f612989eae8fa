import { join, resolve } from 'node:path'
import { displayPath } from '../../core/common/display-path.js'
import { FixtureError, type SerializedRubricError } from '../../core/common/errors.js'
import { shownOrigin } from '../../core/common/origin.js'
import { plural } from '../../core/common/primitives.js'
import { evaluateFixture } from '../../core/engine/evaluate.js'
import { evaluationJson } from '../../core/engine/evaluation-json.js'
import type { EvaluationJson } from '../../core/contract/results.js'
import { kinds, loadFixture } from '../../core/registry.js'
import { rateText } from '../../core/common/rate-percent.js'
import type { CoverageCounts } from '../../core/contract/results.js'
import type { OutcomeWords } from '../../core/contract/kind.js'
import { judgeFile } from '../../core/engine/calibration.js'
import { estimateHead, estimateWarnings, splitEstimateText } from '../../core/sample/estimate-text.js'
import { fixtureEstimate, type FixtureEstimate } from '../../core/sample/fixture-estimate.js'
import { minReviewsOption, needDirs, usage, stringOption, type Command, optionalJudge } from '../command.js'

/**
 * `vitest-rubric evaluate <dir…> [--json]`: decides every case of each fixture and prints the
 * decisions and coverage. Rejected and pending cases are results, not errors: only a fixture that
 * cannot be loaded makes the command fail.
 */
export const evaluate: Command = {
  name: 'evaluate',
  summary: 'decide every case of each fixture and print the decisions and coverage',
  help: `Usage: vitest-rubric evaluate <dir...> [--json] [--judge <name>]

Decides every case of each fixture directory and prints its review coverage and decisions.
Rejected and pending cases are results, not errors. A fixture with a review sample (sample.json,
drawn by \`vitest-rubric sample\`) and a judge's labels also gets each split's judge-assisted
acceptance rate over every case (PPI++, as \`vitest-rubric estimate\` gives it): with its only
judge, the one --judge names, or else the first of its judges by name.

Options:
  --json              print the evaluation as JSON (an array when several directories are given);
                      its shape is a stable interface, described in docs/cli.md
  --min-reviews <n>   keep a case pending until it has n independent reviews (reviews/<name>.json)
                      (default 0: the adopted review in annotations.json decides)
  --seed <s>          the seed of the bootstrap intervals (default "vitest-rubric")
  --margin-gate <g>   scored fixtures: "point" (the rubric's gate, the default) or "lower-bound"
                      (the paired interval's lower bound must clear the margin too)
  --judge <name>      the judge of the estimate, for a fixture with a sample and several judges;
                      a fixture without its labels is a usage error

Exit codes: 0 when every fixture loaded, whatever its decisions; 1 when a fixture is refused.`,
  options: {
    json: { type: 'boolean', default: false },
    'min-reviews': { type: 'string' },
    seed: { type: 'string' },
    'margin-gate': { type: 'string' },
    judge: { type: 'string' },
  },
  async run({ values, positionals }, io) {
    // Each with its annotations document as shown (in the records layout <dir>/records/annotations.json), which names its origin.
    const documents: { readonly json: EvaluationDocument; readonly annotations: string }[] = []
    const panel = { minReviews: minReviewsOption('evaluate', values['min-reviews']) }
    const gate = stringOption(values, 'margin-gate')
    if (gate !== undefined && !isMarginGate(gate)) throw usage('evaluate', `--margin-gate takes "point" or "lower-bound", not ${JSON.stringify(gate)}.`)
    const seed = stringOption(values, 'seed')
    const options = { panel, ...(seed === undefined ? {} : { seed }), ...(gate === undefined ? {} : { marginGate: gate }) }
    const judge = optionalJudge(stringOption(values, 'judge'))
    const dirs = needDirs('evaluate', positionals)
    // Of several fixtures, a refused one does not hide the others: each is printed, its refusal on stderr (and in the JSON array).
    const refusals: FixtureError[] = []
    const entries: (EvaluationDocument | { readonly dir: string; readonly refused: SerializedRubricError })[] = []
    for (const dir of dirs) {
      let evaluation: ReturnType<typeof evaluateFixture>
      try {
        evaluation = evaluateFixture(await loadFixture(dir, { cwd: io.cwd }), options)
      } catch (error) {
        if (!(error instanceof FixtureError) || dirs.length === 1) throw error
        refusals.push(error)
        entries.push({ dir: displayPath(io.cwd, resolve(io.cwd, dir)), refused: error.toJSON() })
        continue
      }
      if (judge !== undefined) judgeFile(evaluation.fixture, judge)
      const estimate = await fixtureEstimate(evaluation, { cwd: io.cwd, judge })
      const document = { ...evaluationJson(evaluation), ...(estimate === null ? {} : { estimate }) }
      documents.push({ json: document, annotations: evaluation.fixture.files.annotations.display })
      entries.push(document)
    }
    if (values['json'] === true) io.stdout(JSON.stringify(entries.length === 1 ? entries[0] : entries, null, 2))
    else if (documents.length > 0) io.stdout(documents.map(({ json, annotations }) => formatEvaluation(json, annotations)).join('\n\n'))
    for (const refusal of refusals) io.stderr(refusal.message)
    return refusals.length === 0 ? 0 : 1
  },
}

/** `evaluate --json`'s document: the evaluation, and the estimate of a fixture with a sample and a judge. */
export type EvaluationDocument = EvaluationJson & { readonly estimate?: FixtureEstimate }

/**
 * The human-readable report of one evaluated fixture: its name, origin and coverage, then what its
 * kind shows. `annotations` is the document that holds the origin, as shown.
 */
export function formatEvaluation(json: EvaluationDocument, annotations: string = join(json.fixture.dir, 'annotations.json')): string {
  const { fixture } = json
  // The kind's words, as the reporter and docs/scored.md say them: a scored case is passed or failed, not accepted or rejected.
  const words = kinds.get(fixture.kind)?.present.words ?? CRITERIA_WORDS
  const lines = [
    `${fixture.name} (${fixture.dir}; rubric ${fixture.rubric})`,
    `  origin: ${shownOrigin(fixture.origin, annotations, fixture.dir)}`,
    `  ${formatReviewCoverage(json.coverage, words)}`,
  ]
  const splits = Object.entries(json.coverage.splits).filter(([, counts]) => counts.candidates > 0)
  if (splits.length > 1) for (const [split, counts] of splits) lines.push(`    ${split}: ${formatReviewCoverage(counts, words)}`)
  if (json.estimate !== undefined) lines.push(...estimateLines(json.estimate))
  // One line per case: a loop, since a spread of a large fixture's lines would overflow the call stack.
  for (const line of kinds.get(fixture.kind)?.present.evaluationLines(json) ?? []) lines.push(line)
  for (const note of json.notes ?? []) lines.push(`  note on ${note.file}: ${note.text}`)
  return lines.join('\n')
}

/** The words of a criteria fixture's coverage, for a kind the registry does not know. */
const CRITERIA_WORDS: Pick<OutcomeWords, 'positive' | 'negative' | 'graded'> = { positive: 'accepted', negative: 'rejected', graded: 'graded' }

/**
 * `review coverage: 6 graded of 8 candidates; 2 pending; 0 refused — accepted 3, rejected 3`, in
 * the kind's words (`9 scored of 10 candidates; … — passed 6, failed 3; 67% passed`).
 */
export function formatReviewCoverage(counts: CoverageCounts, words: Pick<OutcomeWords, 'positive' | 'negative' | 'graded'>): string {
  const head = `review coverage: ${counts.graded} ${words.graded} of ${plural(counts.candidates, 'candidate')}; ${counts.pending} pending; ${counts.refused} refused`
  return counts.outcomes === null
    ? `${head} — no completed reviews, so no quality figure`
    : `${head} — ${words.positive} ${counts.outcomes.accepted}, ${words.negative} ${counts.outcomes.rejected}; ${rateText(counts.outcomes, words.positive)}`
}

/** The estimate under the coverage: what it rests on, then a line per split. */
function estimateLines(estimate: FixtureEstimate): string[] {
  const lines = [`  estimate (acceptance rate over every case, 95% intervals): ${estimateHead(estimate)}`]
  for (const split of estimate.splits) lines.push(`    ${split.split}: ${splitEstimateText(split)}`)
  for (const warning of estimateWarnings(estimate)) lines.push(`    ${warning}`)
  return lines
}

function isMarginGate(value: string): value is 'point' | 'lower-bound' {
  return value === 'point' || value === 'lower-bound'
}
