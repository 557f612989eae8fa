// How two criteria fixtures are compared: beside the paired acceptance every kind gets, the same
// figures per criterion (meeting it), with the cases B fixed and broke.
import { valueAt } from '../../common/json-path.js'
import type { ComparisonBase } from '../../compare/comparison.js'
import { figures, idList, points, pointsInterval, pValue, type PairedFigures, type PairedSplitFigures } from '../../compare/compare-figures.js'
import type { KindComparison } from '../../contract/kind.js'
import type { CriteriaDecision } from './decision.js'
import type { CriteriaRubric } from './rubric.js'

/** The figures of one criterion: the share of pairs meeting it, and the cases B fixed and broke. */
export interface CriterionComparison extends PairedFigures {
  /** Cases that failed the criterion in A and meet it in B. */
  readonly fixed_by_b: readonly string[]
  /** Cases that meet the criterion in A and fail it in B. */
  readonly broken_by_b: readonly string[]
}

/** What a criteria comparison says of the two fixtures beside what every comparison says. */
export interface CriteriaSharedFigures {
  /** SHA-256 of the `source.txt` both fixtures share, byte for byte. */
  readonly source_sha256: string
}

/** What a criteria comparison says of a split beside what every comparison says. */
export interface CriteriaSplitFigures {
  /** Per criterion, in the rubric's order: meeting it, paired. */
  readonly criteria: Readonly<Record<string, CriterionComparison>>
}

/** The comparison of one split of two criteria fixtures. */
export interface SplitComparison extends PairedSplitFigures, CriteriaSplitFigures {}

/** The comparison of two criteria fixtures on one rubric (`vitest-rubric compare`). */
export interface CriteriaFixtureComparison extends ComparisonBase, CriteriaSharedFigures {
  readonly kind: 'criteria'
  /** The splits compared, held-out first. */
  readonly splits: readonly SplitComparison[]
}

/** The head of a split's per-criterion table. */
const CRITERION_HEAD = ['criterion', 'A meets', 'B meets', 'B − A', '95% interval', 'McNemar p', 'fixed by B', 'broken by B'] as const

/** The question and answer text of a case, as written; `undefined` when the case does not have them (it is refused). */
function criteriaText(value: unknown): string | undefined {
  const question = valueAt(value, ['input', 'question'])
  const text = valueAt(value, ['input', 'answer', 'text'])
  if (typeof question !== 'string' || typeof text !== 'string') return undefined
  return JSON.stringify([question, text])
}

function perCriterion(decided: readonly (readonly [CriteriaDecision, CriteriaDecision])[], criteria: readonly string[], level: number): CriteriaSplitFigures {
  const compared: Record<string, CriterionComparison> = {}
  for (const criterion of criteria) {
    const meets = (decision: CriteriaDecision) => decision.status !== 'refused' && decision.ratings[criterion] === 'meets'
    const fixed = decided.filter(([x, y]) => !meets(x) && meets(y)).map(([x]) => x.id)
    const broken = decided.filter(([x, y]) => meets(x) && !meets(y)).map(([x]) => x.id)
    const both = decided.filter(([x, y]) => meets(x) && meets(y)).length
    compared[criterion] = {
      ...figures({ both, aOnly: broken.length, bOnly: fixed.length, neither: decided.length - both - fixed.length - broken.length }, level),
      fixed_by_b: fixed,
      broken_by_b: broken,
    }
  }
  return { criteria: compared }
}

/** Two criteria fixtures compared: they share `rubric.json` and `source.txt`, and each criterion is compared as the case is. */
export const criteriaComparison: KindComparison<CriteriaRubric, CriteriaDecision, CriteriaSharedFigures, CriteriaSplitFigures> = {
  leakText: criteriaText,
  // Both fixtures answer the same task: every case in both is a pair.
  shared: (a) => ({ figures: { source_sha256: a.context.files.source!.sha256 }, notPaired: new Set() }),
  split: (decided, context, { level }) =>
    perCriterion(
      decided,
      context.rubric.document.criteria.map((criterion) => criterion.id),
      level,
    ),
  text: {
    nouns: { accepted: 'accepted', rejected: 'rejected' },
    leaked: 'the question and answer text',
    same: (shared) => `same rubric.json (SHA-256 ${shared.rubric_sha256}) and source.txt (SHA-256 ${shared.source_sha256})`,
    notes: () => [],
    items: { head: CRITERION_HEAD, widths: [9, 9, 8, 17, 11] },
    rows: (split) =>
      Object.entries(split.criteria).map(([criterion, item]) => ({
        item: criterion,
        cells: [
          `${item.a.passed}/${item.n}`,
          `${item.b.passed}/${item.n}`,
          item.difference === null ? '—' : points(item.difference),
          pointsInterval(item.difference_interval),
          pValue(item.mcnemar.p_value),
          idList(item.fixed_by_b),
          idList(item.broken_by_b),
        ],
      })),
    line: () => null,
  },
}
