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
 * is kept by the case's assessment in the {@link IncrementalEvaluation}, which hands the same object
 * until what the case is decided from changes (the case, its reviews, the reviewers' reviews and
 * adoptions of it, or what every case is bound to): a case is decided again under the policy only
 * when it was decided again there.
 */
export class DecidedUnder {
  private fixture: SomeFixture | undefined
  private decide: ((entry: CaseEntry) => { readonly assessment: CaseAssessment<Decision> }) | undefined
  private byServed = new WeakMap<CaseAssessment<Decision>, CaseAssessment<Decision>>()
  private readonly options: EvaluateOptions

  constructor(options: EvaluateOptions, panel: PanelPolicy) {
    this.options = { ...options, panel }
  }

  /** The evaluation of `kept` as last read, each case's assessment (with its stale binding states) under this policy. */
  of(kept: IncrementalEvaluation): DecidedWithStates {
    const assessments = kept.fixture.cases.map((_, position) => this.at(kept, position))
    return { evaluation: kept.evaluation, assessments }
  }

  /** The assessment of the case at `position` of `kept` as last read, under this policy: decided again only when it was there. */
  at(kept: IncrementalEvaluation, position: number): CaseAssessment<Decision> {
    const fixture = kept.fixture
    if (fixture !== this.fixture) {
      // What decides every case again under this policy (the rubric, the reviewers, whether the panel rule applies) forgets every case.
      if (this.fixture === undefined || decidesEverything(this.fixture, fixture, this.options)) this.byServed = new WeakMap()
      this.fixture = fixture
      this.decide = caseDecider(fixture, this.options)
    }
    const served = kept.assessmentAt(position)
    const known = this.byServed.get(served)
    if (known !== undefined) return known
    const { assessment } = this.decide!(fixture.cases[position]!)
    this.byServed.set(served, assessment)
    return assessment
  }
}
