import { showCriteriaCase } from './show.js'
import type { Colors } from '../../common/colors.js'
import { isObject, SPLITS } from '../../common/primitives.js'
import type { EvaluationJson } from '../../contract/results.js'
import type { EarlierRevision, KindPresentation, StaleChange } from '../../contract/kind.js'
import type { PlannedCase } from '../../contract/results.js'
import { RATINGS } from './schemas.js'
import type { CriteriaDecision, JudgedCriterion } from './decision.js'
import type { CriteriaRubric } from './rubric.js'
import { describeRubricChanges, rubricChanges, type RubricChanges } from './rubric-changes.js'

/**
 * The message of a rejected case: each failed criterion with its rule, the reviewer's reason, the
 * criterion's reference quote and the answer span (or that the failure is an omission).
 */
export function formatRejection(failed: readonly JudgedCriterion[]): string {
  const lines = [`rejected: ${failed.length} ${failed.length === 1 ? 'criterion does' : 'criteria do'} not meet the rubric`]
  for (const item of failed) lines.push(...formatJudged(item))
  return lines.join('\n')
}

/** One judged criterion, as a failure message lists it. */
export function formatJudged(item: JudgedCriterion): string[] {
  return [
    `  ✗ ${item.criterion}: ${item.rule}`,
    `      reason: ${item.reason}`,
    `      quote:  ${JSON.stringify(item.referenceQuote)}`,
    `      span:   ${item.answerSpan === '' ? 'no span: omission' : JSON.stringify(item.answerSpan)}`,
  ]
}

/** The ratings that count against a criterion in reports: every rating but the passing one. */
const COUNTED_RATINGS = RATINGS.filter((rating) => rating !== 'meets')

/** How a criteria fixture's decisions are shown: in tests, as JSON, in `status` and in reports. */
export const criteriaPresentation: KindPresentation<CriteriaRubric, CriteriaDecision, null> = {
  rubricName: ({ rubric }) => `${rubric.document.id}@${rubric.document.version}`,
  plannedCase(decision) {
    switch (decision.status) {
      case 'accepted':
      case 'pending':
        return { detail: { ratings: decision.ratings } }
      case 'rejected':
        return { detail: { ratings: decision.ratings }, message: formatRejection(decision.failed) }
      case 'refused':
        return { detail: {}, message: decision.error.message }
    }
  },
  checks: () => [],
  decisionJson(decision) {
    switch (decision.status) {
      case 'accepted':
        return { ratings: decision.ratings }
      case 'rejected':
        return { ratings: decision.ratings, failed: decision.failed }
      case 'pending':
        return { ratings: decision.ratings, missing: decision.missing, uncertain: decision.uncertain, failed: decision.failed }
      case 'refused':
        return { ratings: {}, error: decision.error }
    }
  },
  summaryJson: () => undefined,
  pendingFindings(decision) {
    if (decision.status !== 'pending') return []
    const uncertain = decision.uncertain.map((item) => item.criterion).join(', ')
    if (!decision.reviewed) return [{ group: 'unreviewed', detail: 'no review' }]
    if (decision.missing.length === 0) return [{ group: 'uncertain', detail: `uncertain on ${uncertain}` }]
    return [{ group: 'incomplete', detail: `no judgement for ${decision.missing.join(', ')}${uncertain === '' ? '' : `; uncertain on ${uncertain}`}` }]
  },
  refusals: (decision) => (decision.status === 'refused' ? [decision.error.message] : []),
  extraFindings: () => [],
  staleDetail: (target, context, review, earlier) =>
    target === 'rubric' && review !== undefined ? rubricStaleChange(context.rubric, review, earlier) : undefined,
  pendingGroups: {
    unreviewed: {
      title: 'unreviewed',
      action:
        'review the answer: `vitest-rubric review {dir} --case <id>` (on a terminal it asks for each criterion; from a script, give --rating, --reason and --span, or --from)',
    },
    incomplete: { title: 'incomplete review', action: 'judge the missing criteria (the case stays pending until then)' },
    uncertain: { title: 'uncertain', action: 'settle the uncertain ratings as meets or does_not_meet (the case stays pending until then)' },
  },
  words: { positive: 'accepted', negative: 'rejected', graded: 'graded', pending: 'pending' },
  evaluationLines: criteriaEvaluationLines,
  reportLines: (cases, _summary, _colors) => criterionLines(cases),
  markdownLines: () => [],
  showCase: showCriteriaCase,
}

function criteriaEvaluationLines(json: EvaluationJson): string[] {
  const { coverage } = json
  const lines: string[] = []
  const usedSplits = SPLITS.filter((split) => coverage.splits[split].candidates > 0)
  lines.push(coverage.candidates === 0 ? '  decisions: none yet (no cases)' : '  decisions:')
  for (const [id, decision] of Object.entries(json.decisions)) {
    const split = usedSplits.length > 1 ? ` [${decision.split}]` : ''
    const reason = decision.reason === '' ? '' : ` (${decision.reason})`
    lines.push(`    ${id}${split}: ${decision.status}${reason}`)
  }
  if (coverage.pending > 0) lines.push('  Pending cases stay outside the graded figures: they are neither passes nor failures.')
  for (const refused of coverage.refusedCases) {
    lines.push(`  refused ${refused.id}:`, ...refused.message.split('\n').map((line) => `    ${line}`))
  }
  return lines
}

/** `criteria   command: 1 does_not_meet · support: 2 does_not_meet, 1 uncertain`, from the ratings of every case. */
function criterionLines(cases: readonly PlannedCase[], _colors?: Colors): string[] {
  // Criteria in the order first rated; only the ratings shown are counted (most are `meets`).
  const counts = new Map<string, Map<string, number>>()
  for (const planned of cases) {
    const ratings = planned.detail['ratings']
    if (typeof ratings !== 'object' || ratings === null || Array.isArray(ratings)) continue
    for (const criterion of Object.keys(ratings)) {
      const rating: unknown = Object.getOwnPropertyDescriptor(ratings, criterion)?.value
      let row = counts.get(criterion)
      if (row === undefined) counts.set(criterion, (row = new Map<string, number>()))
      if (typeof rating === 'string' && rating !== 'meets') row.set(rating, (row.get(rating) ?? 0) + 1)
    }
  }
  if (counts.size === 0) return []
  const flagged = [...counts]
    .map(([criterion, row]) => {
      const parts = COUNTED_RATINGS.flatMap((rating) => {
        const count = row.get(rating) ?? 0
        return count === 0 ? [] : [`${count} ${rating === 'does_not_meet' ? 'failed' : rating}`]
      })
      return parts.length === 0 ? undefined : `${criterion}: ${parts.join(', ')}`
    })
    .filter((line) => line !== undefined)
  return [`    criteria   ${flagged.length === 0 ? 'no failed or uncertain ratings' : flagged.join(' · ')}`]
}

/**
 * What a rubric revision means for one review. When the revision the review was bound to is found
 * in git, the two rubrics are compared criterion by criterion (`since 1a2b3c4: rule of support
 * reworded; command, … unchanged`), and the criteria the review judged whose rule and reference
 * quote are unchanged are named as such; otherwise only what the review itself tells is said, and
 * every criterion is to be read again.
 */
export function rubricStaleChange(rubric: CriteriaRubric, review: unknown, earlier: readonly EarlierRevision[]): StaleChange | undefined {
  const revision = earlier.find((each) => each.role === 'rubric')
  const found = revision?.found
  const recorded = revision?.sha256 ?? null
  if (found === undefined) {
    const text = describeCriteriaChange(rubric, review)
    if (text === undefined) return undefined
    const everything = revision === undefined ? 'the review records the rubric as it is' : 'the rubric the review was bound to is not in the git history'
    return { text, unchanged: [], json: { rubric_sha256: recorded, commit: null, everything, changed: [], added: [], removed: [], unchanged: [] } }
  }
  const changes = changesOf(found.bytes, found.current)
  const judgements = isObject(review) && isObject(review['judgements']) ? review['judgements'] : {}
  return {
    text: `since ${found.commit.slice(0, 7)}: ${describeRubricChanges(changes)}`,
    unchanged: changes.unchanged.filter((id) => Object.hasOwn(judgements, id)),
    json: {
      rubric_sha256: recorded,
      commit: found.commit,
      everything: changes.everything ?? null,
      changed: changes.changed,
      added: changes.added,
      removed: changes.removed,
      unchanged: changes.unchanged,
    },
  }
}

// Every review bound to one earlier rubric is handed the same bytes: compare the two rubrics once.
const compared = new WeakMap<Uint8Array, { readonly current: Uint8Array; readonly changes: RubricChanges }>()

function changesOf(earlier: Uint8Array, current: Uint8Array): RubricChanges {
  const known = compared.get(earlier)
  if (known !== undefined && known.current === current) return known.changes
  const changes = rubricChanges(earlier, current)
  compared.set(earlier, { current, changes })
  return changes
}

/**
 * The criteria a rubric revision affects for one review, as far as the review itself tells: its
 * judgements carry their criterion ids and reference quotes. A change to a rule's wording, the
 * task or the acceptance text leaves no trace there, so every list can be empty.
 */
export function describeCriteriaChange(rubric: CriteriaRubric, review: unknown): string | undefined {
  const judgements = isObject(review) ? review['judgements'] : undefined
  if (!isObject(judgements)) return undefined
  const { criteria } = rubric
  const quoteOf = (id: string) => {
    const judgement = judgements[id]
    return isObject(judgement) ? judgement['reference_quote'] : undefined
  }
  const parts = [
    ...Object.keys(judgements)
      .filter((id) => criteria.has(id) && criteria.get(id)!.reference_quote !== quoteOf(id))
      .map((id) => `${id} (reference quote changed)`),
    ...[...criteria.keys()].filter((id) => !Object.hasOwn(judgements, id)).map((id) => `${id} (new: not judged)`),
    // The keys as written: zod leaves "__proto__" out of what it returns.
    ...Object.keys(judgements)
      .filter((id) => !criteria.has(id))
      .map((id) => `${id} (judged, no longer in the rubric)`),
  ]
  return parts.length === 0
    ? 'no criterion was added, removed or re-quoted: the change is in a rule, the task or the acceptance text, so re-read every criterion'
    : `criteria affected: ${parts.join(', ')}`
}
