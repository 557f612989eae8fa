import type { Decision } from '../core/contract/decision.js'
import type { CaseAssessment } from '../core/engine/assess.js'
import { kindContext, type CaseEntry, type KindFixture } from '../core/engine/fixture.js'
import { reviewerViews, type ReviewerView } from '../core/engine/panel-rule.js'
import { isComplete } from './blind.js'
import type { CaseRow } from './protocol.js'

/** What an overview made of one case for one viewer: what it showed them, whether they completed their review, and its row. */
export interface KeptCase<D extends Decision> {
  /** The decision shown: the fixture's, or a blind reviewer's own where they have not completed a review. */
  readonly shown: D
  /** Whether the blind reviewer completed their review of it (always `true` for a viewer who sees every review). */
  readonly completed: boolean
  /** The case's row, and whether it was marked as a disagreement when made (the only thing of a row another case can change). */
  row?: { readonly disagreement: boolean; readonly value: CaseRow }
}

/**
 * What the overviews of one served fixture made of each case, for each viewer, kept by the case's
 * assessment in the fixture's kept evaluation. That evaluation hands the same assessment object
 * until what the case is decided from changes (the case, its reviews, the reviewers' reviews and
 * adoptions of it, or what every case is bound to), and what an overview shows of a case is read
 * from those alone: an overview made again after a save works out the cases that save changed, not
 * every case. Assessments made afresh (an evaluation not kept) are simply never found.
 */
export class PageRows {
  readonly #byViewer = new Map<string, WeakMap<object, KeptCase<Decision>>>()

  /** The cases kept for the viewer named `viewer` (`'all'` for every viewer who sees every review). */
  of<D extends Decision>(viewer: string): WeakMap<CaseAssessment<D>, KeptCase<D>> {
    let kept = this.#byViewer.get(viewer)
    if (kept === undefined) {
      kept = new WeakMap()
      this.#byViewer.set(viewer, kept)
    }
    // Cast: the map is only ever filled through this method, by the overviews of one fixture, whose kind decides every case as D.
    return kept as unknown as WeakMap<CaseAssessment<D>, KeptCase<D>>
  }
}

/**
 * What the overview shows `blindReviewer` (or, when `undefined`, every viewer who sees every review)
 * of each case of `fixture`: taken from `kept` for a case whose assessment it holds, else made and
 * put there. A blind reviewer sees a case they have not completed a review of as their own review
 * alone decides it.
 */
export function keptCasesOf<R, C, V, D extends Decision, S>(
  fixture: KindFixture<R, C, V, D, S>,
  casesFile: string,
  assessmentAt: (position: number) => CaseAssessment<D>,
  blindReviewer: string | undefined,
  kept: WeakMap<CaseAssessment<D>, KeptCase<D>>,
): KeptCase<D>[] {
  const { definition } = fixture
  const context = kindContext(fixture)
  const criteria = definition.panel.order(context)
  return fixture.cases.map((entry, position) => {
    const assessed = assessmentAt(position)
    const known = kept.get(assessed)
    if (known !== undefined) return known
    let made: KeptCase<D> = { shown: assessed.decision, completed: true }
    if (blindReviewer !== undefined) {
      const views = reviewerViews(definition, context, entry, fixture.panel, casesFile)
      const complete = isComplete(
        views.find((view) => view.reviewer === blindReviewer),
        criteria,
      )
      if (!complete) made = { shown: ownDecision(fixture, views, blindReviewer, entry), completed: false }
    }
    kept.set(assessed, made)
    return made
  })
}

/** The decision the reviewer's own review alone gives the case, or, when they have none, the kind's pending decision of a case they have not reviewed. */
export function ownDecision<R, C, V, D extends Decision, S>(
  fixture: KindFixture<R, C, V, D, S>,
  views: readonly ReviewerView<D>[],
  reviewer: string,
  entry: CaseEntry,
): D {
  const mine = views.find((view) => view.reviewer === reviewer)
  return mine?.decision ?? fixture.definition.panel.unreviewed(kindContext(fixture), entry, `no review by ${reviewer} yet`)
}
