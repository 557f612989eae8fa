import {
  DEFAULT_SEED,
  alphaBootstrap,
  cohenKappa,
  createRandom,
  gwetAc1,
  krippendorffAlpha,
  MIN_BOOTSTRAP_CASES,
  MIN_POOLED_INTERVAL_CASES,
  percentAgreement,
  POOLED_INTERVAL_MINIMUM,
  randomIndex,
  reportInterval,
  type IntervalReport,
  type RatingPair,
  type ReliabilityData,
} from '../stats/index.js'
import { kindContext, type SomeFixture } from './fixture.js'
import { reviewerViews, type ReviewerView } from './panel-rule.js'

/** The seed of the bootstrap intervals unless one is given: a report is the same on every run. */
export const DEFAULT_AGREEMENT_SEED = DEFAULT_SEED

/** The agreement of the independent reviews on one item (a criterion, a dimension), or on all of them pooled. */
export interface ItemAgreement {
  /** Krippendorff's alpha; `null` when there is no figure (see `reason`). */
  readonly alpha: number | null
  /**
   * Its 95% percentile bootstrap interval, resampling cases (for `overall`, each drawn case brings
   * all its pooled items); `null` with `alpha_ci_reason`: below 10 cases, and for `overall` below
   * 25 (MIN_POOLED_INTERVAL_CASES), where the pooled interval covers the true alpha too rarely.
   */
  readonly alpha_ci: readonly [number, number] | null
  /** Why there is no interval: no alpha, or fewer cases than a bootstrap needs (MIN_BOOTSTRAP_CASES). */
  readonly alpha_ci_reason: string | null
  /** What the interval resampled and how many of its replicates were skipped (no variation); `null` without an interval. */
  readonly alpha_bootstrap: IntervalReport['bootstrap']
  /** Why alpha is `null`: fewer than two reviewers judged the item, or every judgement is the same. */
  readonly reason: string | null
  /** Observed agreement: the share of pairs of judgements of a case that agree. */
  readonly percent_agreement: number | null
  /** Gwet's AC1 (nominal items only): stays honest where one rating dominates. */
  readonly ac1: number | null
  /** Cohen's kappa of each pair of reviewers, keyed `alice|bob` (nominal items only). */
  readonly kappa: Readonly<Record<string, number | null>>
  /** Cases judged by at least two reviewers. */
  readonly units: number
  /** Judgements in those cases: what alpha is computed from. */
  readonly pairs: number
  /** The cases whose reviewers judged the item differently (a missing or uncertain judgement included). */
  readonly disagreements: readonly string[]
}

export interface AgreementReport {
  readonly kind: string
  readonly dir: string
  readonly name: string
  /** `nominal` over ratings (`uncertain` missing) or `interval` over scores (N/A missing). */
  readonly level: 'nominal' | 'interval'
  readonly reviewers: readonly string[]
  /** Cases with at least one independent review that is not refused: the cases the figures are of. */
  readonly cases: number
  /** Cases left out because every independent review of them is refused (stale after an edit, or malformed), with the first one's code. */
  readonly refused_cases: readonly { readonly id: string; readonly code: string }[]
  /** Per item, in the rubric's order: `criteria` for a criteria fixture, `dimensions` for a scored one. */
  readonly items: Readonly<Record<string, ItemAgreement>>
  /**
   * The judgements of the items in `pooled` pooled, a case and an item being one unit of alpha; its
   * interval resamples cases, each with all its pooled units. `null` figures, with the reason,
   * when no item varies.
   */
  readonly overall: ItemAgreement
  /** Each pair of reviewers (keyed `alice|bob`): the cases both judged, what the pair's kappas are computed over. */
  readonly shared_cases: Readonly<Record<string, number>>
  /** The items pooled into `overall`: those whose own alpha is defined, in the rubric's order. `disagreements` covers every item. */
  readonly pooled: readonly string[]
  /** With a sample asked for: n disagreeing cases per item, drawn with the seed, to adjudicate first. */
  readonly sample?: Readonly<Record<string, readonly string[]>>
  readonly seed: number | string
}

export interface AgreementOptions {
  readonly seed?: number | string
  /** Bootstrap replicates. @default 2000 */
  readonly samples?: number
  /** Draw this many disagreeing cases per item. */
  readonly sample?: number
}

/**
 * How far the independent reviews of a fixture agree, item by item and overall. Units are cases,
 * coders are reviewers; a case a reviewer did not review, an item they left out, `uncertain` and
 * N/A are missing values. Figures that cannot be computed are `null` with the reason, never 1 or 0.
 * Definitions and references: docs/statistics.md.
 */
export function panelAgreement(fixture: SomeFixture, options: AgreementOptions = {}): AgreementReport {
  const definition = fixture.definition
  const context = kindContext(fixture)
  const seed = options.seed ?? DEFAULT_AGREEMENT_SEED
  const { reviewers } = fixture.panel
  const cases: { id: string; views: ReviewerView[] }[] = []
  const refused: { id: string; code: string }[] = []
  for (const entry of fixture.cases) {
    if (!fixture.panel.reviews.has(entry.id)) continue
    const views = reviewerViews(definition, context, entry, fixture.panel, fixture.files.cases.display)
    // A case every independent review of which is refused (stale after an edit, or malformed) gives no judgement to compare: named, not counted.
    const first = views[0]?.decision
    if (first?.status === 'refused' && views.every((view) => view.decision.status === 'refused')) {
      refused.push({ id: entry.id, code: first.error.code })
      continue
    }
    cases.push({ id: entry.id, views })
  }
  // The rubric's order, not the order items first appear in the reviews: a report, and the draws of
  // the overall interval, must not depend on which case was reviewed first.
  const judged = new Set(cases.flatMap(({ views }) => views.flatMap((view) => Object.keys(view.items))))
  const items = definition.panel.order(context).filter((item) => judged.has(item))
  const { level, categories } = definition.panel
  const figures = agreementFigures(
    items.map((item) => ({
      item,
      units: cases.map(({ views }) => reviewers.map((reviewer) => ratingOf(views, reviewer, item))),
      disagreements: cases.filter(({ views }) => disagree(views, item)).map(({ id }) => id),
    })),
    { reviewers, level, categories, cases: cases.map(({ id }) => id), seed, ...(options.samples === undefined ? {} : { samples: options.samples }) },
  )
  const perItem = figures.items
  const { overall, pooled } = figures
  const report: AgreementReport = {
    kind: fixture.kind,
    dir: fixture.displayDir,
    name: fixture.name,
    level,
    reviewers,
    cases: cases.length,
    refused_cases: refused,
    items: perItem,
    overall,
    shared_cases: sharedCases(reviewers, cases),
    pooled,
    seed,
  }
  if (options.sample === undefined) return report
  const sample: Record<string, string[]> = {}
  for (const item of items) sample[item] = draw(perItem[item]!.disagreements, options.sample, `${String(seed)}\u0000${item}`)
  return { ...report, sample }
}

/** One item's reliability data: a unit per case (in the order of `cases`), a value per reviewer. */
export interface ItemUnits {
  readonly item: string
  readonly units: ReliabilityData
  /** The cases whose reviewers judged the item differently. */
  readonly disagreements: readonly string[]
}

export interface AgreementFiguresOptions {
  readonly reviewers: readonly string[]
  readonly level: 'nominal' | 'interval'
  readonly categories: readonly string[]
  /** The case of each unit, the same for every item. */
  readonly cases: readonly string[]
  readonly seed: number | string
  readonly samples?: number
}

/**
 * The figures of each item, and of the items that vary pooled. The overall interval resamples
 * cases, each drawn case bringing its unit of every pooled item.
 */
export function agreementFigures(
  items: readonly ItemUnits[],
  options: AgreementFiguresOptions,
): { items: Record<string, ItemAgreement>; overall: ItemAgreement; pooled: string[] } {
  const { reviewers, level, categories } = options
  const resampling = { seed: options.seed, ...(options.samples === undefined ? {} : { samples: options.samples }) }
  const perItem: Record<string, ItemAgreement> = {}
  const pooledUnits: ReliabilityData[number][] = []
  const clusters: number[] = []
  const pooled: string[] = []
  const pooledDisagreements = new Set<string>()
  for (const { item, units, disagreements } of items) {
    const figures = itemFigures(units, null, reviewers, level, categories, disagreements, resampling)
    perItem[item] = figures
    for (const id of disagreements) pooledDisagreements.add(id)
    // An item without variation of its own adds only its difference from the other items' ratings:
    // c1 all meets and c2 all does_not_meet would pool to alpha 1 from no agreement at all.
    if (figures.alpha === null) continue
    pooled.push(item)
    pooledUnits.push(...units)
    clusters.push(...units.map((_unit, index) => index))
  }
  const overallDisagreements = options.cases.filter((id) => pooledDisagreements.has(id))
  const unpaired = items.every(({ item }) => perItem[item]!.units === 0)
  const overall =
    pooled.length > 0
      ? itemFigures(pooledUnits, clusters, reviewers, level, categories, overallDisagreements, resampling)
      : noOverall(
          unpaired
            ? 'fewer than two coders judged any unit'
            : "no item varies on its own (each item's alpha is null), so a pooled figure would rest only on how the items' ratings differ from each other",
          overallDisagreements,
          reviewers,
          level,
        )
  return { items: perItem, overall, pooled }
}

/** Whether every case (a cluster of units, or each pairable unit) holds the same judgements: then every replicate of a bootstrap is the sample again. */
function casesAlike(units: ReliabilityData, clusters: readonly number[] | null, pairable: readonly boolean[]): boolean {
  const byCase = new Map<number, string[]>()
  units.forEach((unit, u) => {
    if (!pairable[u]) return
    const key = clusters === null ? u : clusters[u]!
    let list = byCase.get(key)
    if (list === undefined) byCase.set(key, (list = []))
    list.push(JSON.stringify(unit))
  })
  return new Set([...byCase.values()].map((list) => list.join('\n'))).size <= 1
}

function sharedCases(reviewers: readonly string[], cases: readonly { readonly views: readonly ReviewerView[] }[]): Record<string, number> {
  const judged = (views: readonly ReviewerView[], reviewer: string) => views.some((view) => view.reviewer === reviewer && Object.keys(view.items).length > 0)
  const shared: Record<string, number> = {}
  for (let a = 0; a < reviewers.length; a++) {
    for (let b = a + 1; b < reviewers.length; b++) {
      shared[`${reviewers[a]}|${reviewers[b]}`] = cases.filter(({ views }) => judged(views, reviewers[a]!) && judged(views, reviewers[b]!)).length
    }
  }
  return shared
}

function ratingOf(views: readonly ReviewerView[], reviewer: string, item: string): string | number | null {
  const view = views.find((each) => each.reviewer === reviewer)
  if (view === undefined || !Object.hasOwn(view.items, item)) return null
  return view.items[item]!.value
}

function disagree(views: readonly ReviewerView[], item: string): boolean {
  if (views.length < 2) return false
  return new Set(views.map((view) => (Object.hasOwn(view.items, item) ? view.items[item]!.shown : '\u0000not judged'))).size > 1
}

/** The overall figures when nothing can be pooled: every figure `null`, with the reason. */
function noOverall(reason: string, disagreements: readonly string[], reviewers: readonly string[], level: 'nominal' | 'interval'): ItemAgreement {
  const kappa: Record<string, null> = {}
  if (level === 'nominal')
    for (let a = 0; a < reviewers.length; a++) for (let b = a + 1; b < reviewers.length; b++) kappa[`${reviewers[a]}|${reviewers[b]}`] = null
  return {
    alpha: null,
    alpha_ci: null,
    alpha_ci_reason: reason,
    alpha_bootstrap: null,
    reason,
    percent_agreement: null,
    ac1: null,
    kappa,
    units: 0,
    pairs: 0,
    disagreements,
  }
}

/**
 * The figures of units × reviewers. `clusters` (the case of each unit, for pooled items) makes the
 * interval resample cases with all their units; without it each unit is a case.
 */
function itemFigures(
  units: ReliabilityData,
  clusters: readonly number[] | null,
  reviewers: readonly string[],
  level: 'nominal' | 'interval',
  categories: readonly string[],
  disagreements: readonly string[],
  resampling: { readonly seed: number | string; readonly samples?: number },
): ItemAgreement {
  const alpha = krippendorffAlpha(units, level)
  let interval: IntervalReport = { ci: null, reason: alpha.reason, bootstrap: null }
  if (alpha.alpha !== null) {
    const pairable = units.map((unit) => unit.filter((value) => value !== null).length >= 2)
    const cases = clusters === null ? alpha.units : new Set(clusters.filter((_cluster, u) => pairable[u])).size
    // A pooled interval needs more cases than one item's: below them it covers the true alpha too rarely (docs/statistics.md).
    // Below the minimum the count is the reason; above it, cases all alike leave nothing to resample.
    const minimum = clusters === null ? MIN_BOOTSTRAP_CASES : MIN_POOLED_INTERVAL_CASES
    interval =
      cases >= minimum && casesAlike(units, clusters, pairable)
        ? {
            ci: null,
            reason: `every case has the same judgements: resampling its ${cases} cases gives alpha ${alpha.alpha.toFixed(3)} every time, an interval of no width that says nothing of other cases`,
            bootstrap: null,
          }
        : clusters === null
          ? reportInterval(cases, 'cases', () => alphaBootstrap(units, level, resampling))
          : reportInterval(cases, 'cases', () => alphaBootstrap(units, level, { ...resampling, clusters }), POOLED_INTERVAL_MINIMUM)
  }
  const percent = percentAgreement(units)
  const kappa: Record<string, number | null> = {}
  let ac1: number | null = null
  if (level === 'nominal') {
    ac1 = gwetAc1(units, categories).ac1
    for (let a = 0; a < reviewers.length; a++) {
      for (let b = a + 1; b < reviewers.length; b++) {
        const pairs: RatingPair[] = []
        for (const unit of units) if (unit[a] !== null && unit[b] !== null) pairs.push([unit[a]!, unit[b]!])
        kappa[`${reviewers[a]}|${reviewers[b]}`] = cohenKappa(pairs, categories).kappa
      }
    }
  }
  return {
    alpha: alpha.alpha,
    alpha_ci: interval.ci,
    alpha_ci_reason: interval.reason,
    alpha_bootstrap: interval.bootstrap,
    reason: alpha.reason,
    percent_agreement: percent.agreement,
    ac1,
    kappa,
    units: alpha.units,
    pairs: alpha.pairable,
    disagreements,
  }
}

/** Up to `n` of `ids`, drawn without replacement with a seeded generator, in the order drawn. */
function draw(ids: readonly string[], n: number, seed: string): string[] {
  const pool = [...ids]
  const random = createRandom(seed)
  const drawn: string[] = []
  while (drawn.length < n && pool.length > 0) drawn.push(pool.splice(randomIndex(random, pool.length), 1)[0]!)
  return drawn
}
