import type { Decision } from '../contract/decision.js'
import type { CaseAssessment } from './assess.js'
import { caseDecider, type DecidedWithStates, type EvaluateOptions } from './evaluate.js'
import type { CaseEntry, SomeFixture } from './fixture.js'
import { decidesEverything } from './incremental-patch.js'
import type { IncrementalEvaluation } from './incremental.js'
import type { PanelPolicy } from './panel-rule.js'

/**
 * A kept fixture decided under another several-reviewer policy than its own: a team's assignment
 * asks each case for more reviews than the served decision does. Each case's assessment under it
 * is kept by the case's state in the {@link IncrementalEvaluation} (the same object until the case
 * is decided again there), so a case is decided again under the policy only when it was decided
 * again there, or when the whole fixture was.
 */
export class DecidedUnder {
  private fixture: SomeFixture | undefined
  private decide: ((entry: CaseEntry) => { readonly assessment: CaseAssessment<Decision> }) | undefined
  private byState = new WeakMap<object, CaseAssessment<Decision>>()
  private readonly options: EvaluateOptions

  constructor(options: EvaluateOptions, panel: PanelPolicy) {
    this.options = { ...options, panel }
  }

  /** The evaluation of `kept` as last read, each case's assessment (with its stale binding states) under this policy. */
  of(kept: IncrementalEvaluation): DecidedWithStates {
    const fixture = kept.fixture
    if (fixture !== this.fixture) {
      // What decides every case again under this policy (the rubric, the reviewers, whether the panel rule applies) forgets every case.
      if (this.fixture === undefined || decidesEverything(this.fixture, fixture, this.options)) this.byState = new WeakMap()
      this.fixture = fixture
      this.decide = caseDecider(fixture, this.options)
    }
    const decide = this.decide!
    const assessments = fixture.cases.map((entry) => {
      const state = kept.caseState(entry.id)
      const known = state === undefined ? undefined : this.byState.get(state)
      if (known !== undefined) return known
      const { assessment } = decide(entry)
      if (state !== undefined) this.byState.set(state, assessment)
      return assessment
    })
    return { evaluation: kept.evaluation, assessments }
  }
}
