import type { Colors } from '../../common/colors.js'
import { isObject, plural } from '../../common/primitives.js'
import { valueAt } from '../../common/json-path.js'
import type { CaseShown, KindContext } from '../../contract/kind.js'
import type { ScoredRubric } from './rubric.js'

/**
 * A benchmark case for a reader: its input, ideal resolution and planted issues, then each
 * system's review: the claims with their validity and credit, the resolution and the final
 * verdict. The scores are in the decision `show` prints beside it.
 */
export function showScoredCase(_context: KindContext<ScoredRubric>, caseValue: unknown, reviews: Readonly<Record<string, unknown>>, colors: Colors): CaseShown {
  const spec = valueAt(caseValue, ['spec'])
  const planted = valueAt(spec, ['ground_truth', 'planted_issues'])
  const lines = [
    `  input: ${firstLine(String(valueAt(spec, ['input']) ?? ''))}`,
    `  ideal resolution: ${String(valueAt(spec, ['ideal_debate_resolution']) ?? '?')} within ${rounds(valueAt(spec, ['max_rounds']))}`,
    `  planted issues: ${Array.isArray(planted) && planted.length > 0 ? planted.map((issue) => String(valueAt(issue, ['id']) ?? '?')).join(', ') : 'none'}`,
    `  ground-truth verdict: ${JSON.stringify(valueAt(spec, ['ground_truth', 'final_verdict']) ?? null)}`,
  ]
  const systems: Record<string, unknown> = {}
  for (const system of ['debate', 'baseline']) {
    const review = reviews[system]
    if (!isObject(review)) {
      lines.push(`  ${colors.bold(system)}: ${colors.yellow('no review')}`)
      systems[system] = null
      continue
    }
    const claims = Array.isArray(review['claims']) ? review['claims'] : []
    lines.push(`  ${colors.bold(system)}: ${plural(claims.length, 'claim')}, final verdict ${JSON.stringify(review['final_verdict'] ?? null)}`)
    for (const claim of claims) {
      if (!isObject(claim)) continue
      const credit = typeof claim['credit'] === 'string' ? ` (${claim['credit']})` : ''
      const planted = typeof claim['planted_issue'] === 'string' ? ` ${claim['planted_issue']}` : ''
      lines.push(`    ${String(claim['id'])}: ${String(claim['validity'])}${planted}${credit} — ${JSON.stringify(claim['span'])}`)
    }
    systems[system] = { claims: claims.length, final_verdict: review['final_verdict'] ?? null, resolution: review['resolution'] ?? null }
  }
  return { json: { spec: spec ?? null, systems }, lines }
}

function firstLine(text: string): string {
  const [line = ''] = text.split('\n')
  return line.length > 120 ? `${line.slice(0, 119)}…` : line
}

/** `3 rounds`, or `? rounds` when the spec does not say. */
function rounds(value: unknown): string {
  return typeof value === 'number' ? plural(value, 'round') : `${String(value ?? '?')} rounds`
}
