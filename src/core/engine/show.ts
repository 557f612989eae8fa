import { formatLocation } from '../common/json-path.js'
import type { Colors } from '../common/colors.js'
import { isStale } from './bindings.js'
import { decisionJson } from './evaluation-json.js'
import type { DecisionJson } from '../contract/results.js'
import { evaluateWithStates } from './evaluate.js'
import { caseIndex } from './case-index.js'
import { kindContext, type SomeFixture } from './fixture.js'

/** One recorded hash of a case or its reviews, as `show` lists it. */
export interface ShownBinding {
  /** `annotations.json › reviews[0] › answer_sha256`. */
  readonly location: string
  readonly recorded: string | null
  readonly current: string
  readonly stale: boolean
  /** What a mismatch means: `the answer changed since it was reviewed: …`. */
  readonly meaning: string
}

/** Everything `show` tells about one case. */
export interface CaseView {
  readonly kind: string
  readonly dir: string
  readonly id: string
  readonly split: string
  /** As `evaluate --json` shows the decision: `status`, `reason`, then the kind's fields. */
  readonly decision: DecisionJson
  readonly bindings: readonly ShownBinding[]
  /** What the kind shows: for a criteria case, the answer and each judgement. */
  readonly detail: Readonly<Record<string, unknown>>
  /** The same for a terminal. */
  readonly lines: readonly string[]
}

/** One case of a loaded fixture as a reader wants it: what was judged, how it is bound, and the decision. */
export function caseView(fixture: SomeFixture, id: string, colors: Colors): CaseView {
  const definition = fixture.definition
  const index = caseIndex(fixture, id, { hint: 'pass the id of a case in cases.json.' })
  const { assessments } = evaluateWithStates(fixture, { allStates: true })
  const assessment = assessments[index]!
  const { decision } = assessment
  const entry = fixture.cases[index]!
  const reviews = Object.fromEntries(Object.entries(fixture.reviews.get(id) ?? {}).map(([slot, review]) => [slot, review.value]))
  const shown = definition.present.showCase(kindContext(fixture), entry.value, reviews, colors)
  return {
    kind: fixture.kind,
    dir: fixture.displayDir,
    id,
    split: entry.split,
    decision: decisionJson(definition, decision),
    bindings: assessment.states.map((state) => ({
      location: formatLocation(state.file, state.path),
      recorded: state.recorded ?? null,
      current: state.current,
      stale: isStale(state),
      meaning: state.row.meaning,
    })),
    detail: shown.json,
    lines: shown.lines,
  }
}
