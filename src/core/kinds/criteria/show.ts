import type { Colors } from '../../common/colors.js'
import { isObject } from '../../common/primitives.js'
import { valueAt } from '../../common/json-path.js'
import type { CaseShown, KindContext } from '../../contract/kind.js'
import type { CriteriaRubric } from './rubric.js'

/** One criterion of a case as `show` lists it: the rubric's rule and quote, and the judgement if there is one. */
export interface ShownJudgement {
  readonly criterion: string
  readonly marker: number
  readonly rule: string
  readonly rating: string | null
  readonly reason: string | null
  readonly referenceQuote: string
  readonly answerSpan: string | null
  /** Where the span first occurs in the answer, in UTF-16 units `[start, end)`; `null` for an omission or a span not found. */
  readonly spanAt: readonly [number, number] | null
}

/**
 * A criteria case for a reader: the question, the answer with each judgement's span marked where
 * it first occurs (`[1›…‹1]`, numbered as the criteria are), the citation, and each criterion
 * with its rating, reason, reference quote and span.
 */
export function showCriteriaCase(
  context: KindContext<CriteriaRubric>,
  caseValue: unknown,
  reviews: Readonly<Record<string, unknown>>,
  colors: Colors,
): CaseShown {
  const text = stringAt(caseValue, ['input', 'answer', 'text']) ?? ''
  const judgements = valueAt(reviews['review'], ['judgements'])
  const shown: ShownJudgement[] = [...context.rubric.criteria].map(([criterion, definition], index) => {
    const judgement = isObject(judgements) && Object.hasOwn(judgements, criterion) ? judgements[criterion] : undefined
    const span = stringAt(judgement, ['answer_span'])
    const start = span === undefined || span === '' ? -1 : text.indexOf(span)
    return {
      criterion,
      marker: index + 1,
      rule: definition.rule,
      rating: stringAt(judgement, ['rating']) ?? null,
      reason: stringAt(judgement, ['reason']) ?? null,
      referenceQuote: definition.reference_quote,
      answerSpan: span ?? null,
      spanAt: start === -1 ? null : [start, start + span!.length],
    }
  })
  const lines = [
    `  question: ${stringAt(caseValue, ['input', 'question']) ?? ''}`,
    "  answer (each judgement's span marked [n›…‹n]):",
    ...indentBlock(markSpans(text, shown, colors), '    '),
    `  citation: ${stringAt(caseValue, ['input', 'answer', 'citation']) ?? ''}`,
    '  criteria:',
  ]
  for (const item of shown) {
    const rating =
      item.rating === null
        ? colors.yellow('not judged')
        : item.rating === 'meets'
          ? colors.green(item.rating)
          : item.rating === 'does_not_meet'
            ? colors.red(item.rating)
            : colors.yellow(item.rating)
    lines.push(`    [${item.marker}] ${colors.bold(item.criterion)}: ${rating}`, `        rule:   ${item.rule}`)
    if (item.reason !== null) lines.push(`        reason: ${item.reason}`)
    lines.push(`        quote:  ${JSON.stringify(item.referenceQuote)}`)
    if (item.answerSpan !== null)
      lines.push(
        `        span:   ${item.answerSpan === '' ? 'none (an omission)' : `${JSON.stringify(item.answerSpan)}${item.spanAt === null ? colors.red(' (not in the answer)') : ''}`}`,
      )
  }
  return {
    json: {
      question: stringAt(caseValue, ['input', 'question']) ?? null,
      answer: { text, citation: stringAt(caseValue, ['input', 'answer', 'citation']) ?? null },
      criteria: shown,
    },
    lines,
  }
}

/** The answer with `[n›` before and `‹n]` after each located span; overlapping spans nest by position. */
function markSpans(text: string, judgements: readonly ShownJudgement[], colors: Colors): string {
  const marks: { at: number; order: number; text: string }[] = []
  for (const item of judgements) {
    if (item.spanAt === null) continue
    marks.push({ at: item.spanAt[0], order: 1, text: colors.bold(`[${item.marker}›`) }, { at: item.spanAt[1], order: 0, text: colors.bold(`‹${item.marker}]`) })
  }
  marks.sort((a, b) => a.at - b.at || a.order - b.order)
  let out = ''
  let from = 0
  for (const mark of marks) {
    out += text.slice(from, mark.at) + mark.text
    from = mark.at
  }
  return out + text.slice(from)
}

function stringAt(value: unknown, path: readonly string[]): string | undefined {
  const found = valueAt(value, path)
  return typeof found === 'string' ? found : undefined
}

function indentBlock(text: string, prefix: string): string[] {
  return text.split('\n').map((line) => `${prefix}${line}`)
}
