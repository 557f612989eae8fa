import { DEFAULT_SEED, alphaBootstrap, cohenKappa, createRandom, gwetAc1, krippendorffAlpha, percentAgreement, randomIndex, type RatingPair, type ReliabilityData } from '../stats/index.js'
import { definitionOf, type FixtureKind } from '../kinds/index.js'
import { kindContext, type Fixture, type LoadedFixture } from './fixture.js'
import { reviewerViews, type ReviewerView } from './panel-rule.js'

/** The seed of the bootstrap intervals unless one is given: a report is the same on every run. */
export const DEFAULT_AGREEMENT_SEED = DEFAULT_SEED

/** The agreement of the independent reviews on one item (a criterion, a dimension), or on all of them pooled. */
export interface ItemAgreement {
  /** Krippendorff's alpha; `null` when there is no figure (see `reason`). */
  readonly alpha: number | null
  /** Its 95% percentile bootstrap interval, resampling cases; `null` with alpha. */
  readonly alpha_ci: readonly [number, number] | null
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
  readonly kind: FixtureKind
  readonly dir: string
  readonly name: string
  /** `nominal` over ratings (`uncertain` missing) or `interval` over scores (N/A missing). */
  readonly level: 'nominal' | 'interval'
  readonly reviewers: readonly string[]
  /** Cases with at least one independent review. */
  readonly cases: number
  /** Per item, in the rubric's order: `criteria` for a criteria fixture, `dimensions` for a scored one. */
  readonly items: Readonly<Record<string, ItemAgreement>>
  /** Every item's judgements pooled, a case and an item being one unit. */
  readonly overall: ItemAgreement
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
export function panelAgreement(fixture: Fixture, options: AgreementOptions = {}): AgreementReport {
  const definition = definitionOf(fixture.kind)
  const context = kindContext(fixture as LoadedFixture<FixtureKind>)
  const seed = options.seed ?? DEFAULT_AGREEMENT_SEED
  const { reviewers } = fixture.panel
  const cases: { id: string; views: ReviewerView[] }[] = []
  for (const entry of fixture.cases) {
    if (!fixture.panel.reviews.has(entry.id)) continue
    cases.push({ id: entry.id, views: reviewerViews(definition, context, entry, fixture.panel, fixture.files.cases!.display) })
  }
  const items: string[] = []
  for (const { views } of cases) for (const view of views) for (const item of Object.keys(view.items)) if (!items.includes(item)) items.push(item)
  const { level, categories } = definition.panel

  const perItem: Record<string, ItemAgreement> = {}
  const pooled: (string | number | null)[][] = []
  const pooledDisagreements = new Set<string>()
  for (const item of items) {
    const units = cases.map(({ views }) => reviewers.map((reviewer) => valueOf(views, reviewer, item)))
    const disagreements = cases.filter(({ views }) => disagree(views, item)).map(({ id }) => id)
    for (const id of disagreements) pooledDisagreements.add(id)
    pooled.push(...units)
    perItem[item] = figures(units, reviewers, level, categories, disagreements, seed, options.samples)
  }
  const order = cases.map(({ id }) => id)
  const overall = figures(pooled, reviewers, level, categories, order.filter((id) => pooledDisagreements.has(id)), seed, options.samples)
  const report: AgreementReport = { kind: fixture.kind, dir: fixture.displayDir, name: fixture.name, level, reviewers, cases: cases.length, items: perItem, overall, seed }
  if (options.sample === undefined) return report
  const sample: Record<string, string[]> = {}
  for (const item of items) sample[item] = draw(perItem[item]!.disagreements, options.sample, `${String(seed)}\u0000${item}`)
  return { ...report, sample }
}

function valueOf(views: readonly ReviewerView[], reviewer: string, item: string): string | number | null {
  const view = views.find((each) => each.reviewer === reviewer)
  if (view === undefined || !Object.hasOwn(view.items, item)) return null
  return view.items[item]!.value
}

function disagree(views: readonly ReviewerView[], item: string): boolean {
  if (views.length < 2) return false
  return new Set(views.map((view) => (Object.hasOwn(view.items, item) ? view.items[item]!.shown : '\u0000not judged'))).size > 1
}

function figures(
  units: ReliabilityData,
  reviewers: readonly string[],
  level: 'nominal' | 'interval',
  categories: readonly string[],
  disagreements: readonly string[],
  seed: number | string,
  samples: number | undefined,
): ItemAgreement {
  const alpha = krippendorffAlpha(units, level)
  const interval = alpha.alpha === null ? null : alphaBootstrap(units, level, { seed, ...(samples === undefined ? {} : { samples }) })
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
    alpha_ci: interval === null ? null : [interval.low, interval.high],
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
