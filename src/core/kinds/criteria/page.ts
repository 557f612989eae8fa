import { valueAt } from '../../common/json-path.js'
import { isForkReason } from '../../common/fork-reason.js'
import type { KindPage, PageCriterion, PageJudgement } from '../../../web/kind-page.js'
import type { CriteriaDecision } from './decision.js'
import type { CriteriaRubric } from './rubric.js'
import { RATINGS } from './schemas.js'

/**
 * A criteria case on the review page: its question, answer and citation, the source with each
 * criterion's reference quote, and a card per criterion, which the page reviews and adjudicates.
 */
export const criteriaPage: KindPage<CriteriaRubric, CriteriaDecision> = {
  view: 'form',
  ratings: RATINGS,
  row(context, caseValue, decision) {
    const ratings: Readonly<Record<string, string>> = decision.status === 'refused' ? {} : decision.ratings
    const criteria = [...context.rubric.criteria.keys()]
    return {
      failed: criteria.filter((criterion) => ratings[criterion] === 'does_not_meet'),
      uncertain: criteria.filter((criterion) => ratings[criterion] === 'uncertain'),
      missing: decision.status === 'refused' ? [] : criteria.filter((criterion) => !Object.hasOwn(ratings, criterion)),
      text: textAt(caseValue, ['input', 'answer', 'text']) ?? '',
    }
  },
  waiting(decision) {
    if (decision.status !== 'pending') return 'other'
    if (isForkReason(decision.reason)) return 'forked'
    if (!decision.reviewed || decision.reason === 'no review') return 'no review'
    if (decision.uncertain.length > 0) return 'uncertain'
    if (decision.missing.length > 0) return 'missing criteria'
    return decision.reason.startsWith('manual review') ? 'manual review' : 'other'
  },
  caseView(context, caseValue, review) {
    const { source } = context.rubric
    const answer = textAt(caseValue, ['input', 'answer', 'text']) ?? null
    const judgements = valueAt(review, ['judgements'])
    const criteria = [...context.rubric.criteria].map(([criterion, item], at): PageCriterion => {
      const judgement = isRecord(judgements) && Object.hasOwn(judgements, criterion) ? judgements[criterion] : undefined
      const field = (name: string) => {
        const value = isRecord(judgement) ? judgement[name] : undefined
        return typeof value === 'string' ? value : null
      }
      const span = field('answer_span')
      const spanStart = span === null || span === '' || answer === null ? -1 : answer.indexOf(span)
      const quoteStart = source.indexOf(item.reference_quote)
      return {
        criterion,
        marker: at + 1,
        rule: item.rule,
        referenceQuote: item.reference_quote,
        quoteAt: quoteStart === -1 ? null : [quoteStart, quoteStart + item.reference_quote.length],
        rating: field('rating'),
        reason: field('reason'),
        answerSpan: span,
        spanAt: span === null || spanStart === -1 ? null : [spanStart, spanStart + span.length],
      }
    })
    return {
      question: textAt(caseValue, ['input', 'question']) ?? null,
      answer,
      citation: textAt(caseValue, ['input', 'answer', 'citation']) ?? null,
      source,
      criteria,
    }
  },
  judgements(review) {
    const given = valueAt(review, ['judgements'])
    const judgements: Record<string, PageJudgement> = {}
    if (typeof given !== 'object' || given === null) return judgements
    for (const [criterion, judgement] of Object.entries(given)) {
      const field = (name: string) => (isRecord(judgement) ? judgement[name] : undefined)
      judgements[criterion] = { rating: String(field('rating')), reason: String(field('reason')), answer_span: String(field('answer_span') ?? '') }
    }
    return judgements
  },
  table: () => null,
}

function textAt(value: unknown, path: readonly string[]): string | undefined {
  const found = valueAt(value, path)
  return typeof found === 'string' ? found : undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
