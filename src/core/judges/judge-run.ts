import { UsageError } from '../common/errors.js'
import { checkReviewer, refuseCaseTwin } from '../engine/authoring/authors.js'
import { kindContext } from '../engine/fixture.js'
import { carriedLabels, carriedOrigin } from './judge-carry.js'
import { isCurrentLabel, judgeableCase, openForLabels } from './judge-labels.js'
import { judgeFileDisplay, JUDGES_DIR } from '../engine/panel.js'
import { inShard } from './judge-shard.js'
import { Run, type Task } from './judge-calls.js'
import type { JudgeRunResult, SomeRunJudgeOptions } from './judge-types.js'
import { own } from '../common/primitives.js'

export { MAX_REASON_CHARACTERS, MAX_VERDICT_CHARACTERS } from './verdict-limits.js'
export { DEFAULT_JUDGE_TIMEOUT_MS } from './judge-calls.js'

/**
 * Runs an automated judge over a fixture of a kind that defines judging (criteria) and records its
 * labels in `judges/<judge>.json`. The judge is called only for the case × criterion pairs without
 * a current label (one bound to
 * the answer, the source and the rubric as they are): a second run calls nothing, and after an
 * answer is edited only that case is judged again. Finished labels are written in batches through
 * the same locked, compare-and-swap revision as `review --judge`, so a run stopped midway keeps
 * them and the next run resumes. A call that throws or returns an invalid verdict is retried with
 * backoff; in the end it is reported as a failure, never written as a label.
 */
export async function runJudge(dir: string, options: SomeRunJudgeOptions): Promise<JudgeRunResult> {
  const fixture = await openForLabels(options.kinds, dir, options.cwd)
  const definition = fixture.definition
  const judging = definition.judging
  if (judging === undefined) {
    const judged = options.kinds.kinds.filter((kind) => kind.judging !== undefined).map((kind) => kind.name)
    const slot = definition.reviews.slotOption === undefined ? '' : ` --${definition.reviews.slotOption} <${definition.reviews.slotOption}>`
    throw new UsageError({
      code: 'USAGE',
      file: fixture.displayDir,
      summary: `a judge runs on a ${judged.join(' or ')} fixture; this one is ${fixture.kind}, and its judges' labels are not calibrated yet. Nothing was judged.`,
      hint: `run a judge on a ${judged.join(' or ')} fixture; record a ${fixture.kind} case's label with \`vitest-rubric review <dir> --case <id>${slot} --judge <name> --from <file>\`.`,
    })
  }
  const judge = checkReviewer(options.judge, '--judge')
  refuseCaseTwin(fixture, judge, JUDGES_DIR, '--judge')
  const context = kindContext(fixture)
  const items = judging.items(context)
  const tasks: Task[] = []
  const skipped: { caseId: string; reason: string }[] = []
  const file = judgeFileDisplay(fixture, judge)
  // A per-case judge saw every criterion at once, so after a rubric revision its case is judged again whole.
  const { shard } = options
  const covered = (caseId: string) => shard === undefined || inShard(caseId, shard)
  const carried =
    'perCriterion' in options.run
      ? await carriedLabels(fixture, context, judging, judge, file, covered)
      : { judgements: new Map(), from: new Set<string>(), count: 0, shallow: 0 }
  let current = 0
  let cases = 0
  fixture.cases.forEach((entry, index) => {
    if (!covered(entry.id)) return
    cases++
    const judgeable = judgeableCase(fixture, context, index)
    if (!judgeable.ok) {
      skipped.push({ caseId: entry.id, reason: judgeable.reason })
      return
    }
    const parsedCase = judgeable.value
    const label = fixture.judges.reviews.get(entry.id)?.get(judge)?.['review']?.value
    const labelled = label !== undefined && isCurrentLabel(definition.bindings, context, entry.value, label, 'review') ? judging.judgementsOf(label) : {}
    const carriedHere = carried.judgements.get(entry.id) ?? {}
    const criteria = items.filter((item) => !Object.hasOwn(labelled, item.id) && !Object.hasOwn(carriedHere, item.id))
    current += items.length - criteria.length - Object.keys(carriedHere).length
    if (criteria.length === 0) return
    const input = judging.input(context, parsedCase)
    if ('perCase' in options.run) tasks.push({ caseId: entry.id, input, criteria, parsedCase })
    else for (const criterion of criteria) tasks.push({ caseId: entry.id, input, criteria: [criterion], parsedCase })
  })
  const total = tasks.reduce((sum, task) => sum + task.criteria.length, 0)
  const carriedCount = carried.count
  const casesToJudge = new Set(tasks.map((task) => task.caseId)).size
  const base = {
    dir: fixture.displayDir,
    judge,
    file,
    cases,
    ...(shard === undefined ? {} : { shard: { ...shard, fixtureCases: fixture.cases.length } }),
    current,
    total,
    casesToJudge,
    skipped,
    dryRun: options.dryRun === true,
    carried: carriedCount,
    shallowHistory: carried.shallow,
  }
  if (options.dryRun === true || (total === 0 && carriedCount === 0)) return { ...base, written: 0, files: [], failures: [], interrupted: false }

  // Shards carry over different counts: noted in the origin, they would fork the judge file's origin when merged.
  const origin =
    carriedCount === 0 || shard !== undefined
      ? options.origin
      : carriedOrigin(options.origin ?? own(fixture.judges.files, judge)?.origin, carried, fixture, context)
  const run = new Run(dir, judge, { context, definition, judging, items }, { ...options, origin }, total)
  // A case's carried judgements are written with its first verdict, so that its label is rewritten once; those left (no call
  // to make, a call that failed, a run stopped midway) with the last write.
  for (const [caseId, judgements] of carried.judgements) run.carry(caseId, judgements)
  await run.judgeAll(tasks)
  return { ...base, written: run.written, files: [...run.files], failures: run.failures, interrupted: run.interrupted }
}
