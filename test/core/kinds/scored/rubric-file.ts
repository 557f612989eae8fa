import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { bindScoredRubric, type ScoredRubric } from '../../../../src/core/kinds/scored/rubric.js'
import { ROOT } from '../../../helpers/fixture-copy.js'

export const DEBATE = join(ROOT, 'fixtures/debate-benchmark')

/** The bundled rubric's raw bytes. */
export const RUBRIC_BYTES = readFileSync(join(DEBATE, 'evaluation_rubric.json'))

/** The bundled rubric as text, to edit in a test. */
export const RUBRIC_TEXT = RUBRIC_BYTES.toString('utf8')

/** Binds rubric text as if read from `evaluation_rubric.json`. */
export function bindText(text: string): ScoredRubric {
  return bindScoredRubric({ rubric: { display: 'evaluation_rubric.json', bytes: new TextEncoder().encode(text) } })
}

/** Binds the rubric JSON after an edit of its parsed value. */
export function bindEdited(
  edit: (rubric: Record<string, unknown> & { score_thresholds: Record<string, unknown>; scoring_dimensions: Record<string, unknown> }) => void,
): ScoredRubric {
  const rubric = JSON.parse(RUBRIC_TEXT) as Parameters<typeof edit>[0]
  edit(rubric)
  return bindText(JSON.stringify(rubric, null, 2))
}
