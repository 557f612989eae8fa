import { describe, expect, test } from 'vitest'
import { agreementJson, formatAgreement } from '../../../src/cli/commands/agreement.js'
import { agreementFigures, panelAgreement, type AgreementReport, type ItemUnits } from '../../../src/core/engine/agreement.js'
import { loadFixture } from '../../../src/core/registry.js'
import { alphaBootstrap, cohenKappa, createRandom, krippendorffAlpha, type ReliabilityData } from '../../../src/core/stats/index.js'
import { runCli } from '../../helpers/cli.js'
import { copyFixture } from '../../helpers/fixture-copy.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

/** The bundled fixture with independent reviews: each reviewer rates each listed case, support as given, the rest meets. */
async function panel(ratings: Record<string, Record<string, string | null>>): Promise<string> {
  const fixture = await copyFixture()
  for (const [reviewer, byCase] of Object.entries(ratings)) {
    for (const [id, support] of Object.entries(byCase)) {
      const args = CRITERIA.flatMap((criterion) => {
        const rating = criterion === 'support' ? support : 'meets'
        return rating === null ? [] : ['--rating', `${criterion}=${rating}`, '--reason', `${criterion}=Judged by ${reviewer}.`]
      })
      const result = await runCli(['review', '.', '--case', id, '--reviewer', reviewer, ...args], fixture.dir)
      expect(result.stderr).toBe('')
    }
  }
  return fixture.dir
}

describe('panelAgreement', () => {
  test("per criterion, the figures of the reviewers' ratings as units × coders, uncertain and unjudged as missing", async () => {
    const dir = await panel({
      alice: { complete: 'meets', paraphrase: 'meets', negation: 'does_not_meet', 'wrong-command': 'does_not_meet' },
      bob: { complete: 'meets', paraphrase: 'does_not_meet', negation: 'does_not_meet', 'wrong-command': 'uncertain' },
      carol: { complete: 'meets', paraphrase: 'meets', 'wrong-command': null },
    })
    const report = panelAgreement(await loadFixture(dir, { cwd: dir }), { seed: 7 })
    expect(report.reviewers).toEqual(['alice', 'bob', 'carol'])
    expect(report.cases).toBe(4)
    // The same units, built by hand from the ratings above: a case a reviewer left, or rated uncertain, is null.
    const units = [
      ['meets', 'meets', 'meets'],
      ['meets', 'does_not_meet', 'meets'],
      ['does_not_meet', 'does_not_meet', null],
      ['does_not_meet', null, null],
    ]
    const direct = krippendorffAlpha(units, 'nominal')
    expect(report.items['support']!.alpha).toBe(direct.alpha)
    expect(report.items['support']!.units).toBe(3)
    expect(report.items['support']!.pairs).toBe(8)
    // Three cases are too few to resample: no interval, and the reason (the intervals are tested below, over 12 and 30 cases).
    expect(report.items['support']).toMatchObject({
      alpha_ci: null,
      alpha_bootstrap: null,
      alpha_ci_reason: 'cases to resample: 3, fewer than the 10 a bootstrap interval needs',
    })
    // Disagreements count an uncertain or left-out judgement among the case's reviewers: it needs adjudication too.
    expect(report.items['support']!.disagreements).toEqual(['paraphrase', 'wrong-command'])
    // Kappa of a pair: the cases both rated (uncertain is no rating).
    expect(report.items['support']!.kappa['alice|bob']).toBe(
      cohenKappa(
        [
          ['meets', 'meets'],
          ['meets', 'does_not_meet'],
          ['does_not_meet', 'does_not_meet'],
        ],
        ['meets', 'does_not_meet'],
      ).kappa,
    )
    expect(report.items['support']!.kappa['alice|carol']).toBeNull()
  })

  test('no figure where every rating is the same or fewer than two reviewers judged: null with the reason, never 1 or 0', async () => {
    const single = await panel({ alice: { complete: 'meets', paraphrase: 'does_not_meet' } })
    const alone = panelAgreement(await loadFixture(single, { cwd: single }))
    expect(alone.items['support']).toMatchObject({
      alpha: null,
      alpha_ci: null,
      reason: 'fewer than two coders judged any unit',
      percent_agreement: null,
      units: 0,
    })
    const same = await panel({ alice: { complete: 'meets', paraphrase: 'meets' }, bob: { complete: 'meets', paraphrase: 'meets' } })
    const uniform = panelAgreement(await loadFixture(same, { cwd: same }))
    expect(uniform.items['support']).toMatchObject({ alpha: null, reason: 'no variation: every pairable value is "meets"', percent_agreement: 1, units: 2 })
    expect(uniform.items['support']!.kappa['alice|bob']).toBeNull()
    // AC1 stays defined there, as its definition says.
    expect(uniform.items['support']!.ac1).toBe(1)
  })

  test('intervals and samples are reproducible for a seed', async () => {
    const dir = await panel({
      alice: { complete: 'meets', paraphrase: 'meets', negation: 'does_not_meet', 'wrong-command': 'does_not_meet', 'unsupported-guarantee': 'meets' },
      bob: {
        complete: 'does_not_meet',
        paraphrase: 'does_not_meet',
        negation: 'meets',
        'wrong-command': 'does_not_meet',
        'unsupported-guarantee': 'does_not_meet',
      },
    })
    const fixture = await loadFixture(dir, { cwd: dir })
    const a = panelAgreement(fixture, { seed: 'x', sample: 2 })
    const b = panelAgreement(fixture, { seed: 'x', sample: 2 })
    expect(a).toEqual(b)
    expect(a.sample!['support']).toHaveLength(2)
    expect(a.items['support']!.disagreements).toEqual(expect.arrayContaining([...a.sample!['support']!]))
    expect(new Set(a.sample!['support']).size).toBe(2)
    expect(panelAgreement(fixture, { seed: 'y' }).items['support']!.alpha).toBe(a.items['support']!.alpha)
  })
})

/** The bundled fixture with independent reviews, each rating the criteria given (a criterion left out is not judged). */
async function reviewed(reviews: readonly { reviewer: string; id: string; ratings: Readonly<Record<string, string>> }[]): Promise<string> {
  const fixture = await copyFixture()
  for (const { reviewer, id, ratings } of reviews) {
    const args = Object.entries(ratings).flatMap(([criterion, rating]) => [
      '--rating',
      `${criterion}=${rating}`,
      '--reason',
      `${criterion}=Judged by ${reviewer}.`,
    ])
    const result = await runCli(['review', '.', '--case', id, '--reviewer', reviewer, ...args], fixture.dir)
    expect(result.stderr).toBe('')
  }
  return fixture.dir
}

const all = (rating: string, except: Readonly<Record<string, string>> = {}) => ({
  ...Object.fromEntries(CRITERIA.map((criterion) => [criterion, rating])),
  ...except,
})

describe('agreement figures a methodologist would accept (issue 26, item 8)', () => {
  test("criteria are listed in the rubric's order, not in the order they first appear in the reviews", async () => {
    // The first case in cases.json is judged on verification and support only; the others on every criterion.
    const dir = await reviewed([
      { reviewer: 'alice', id: 'complete', ratings: { verification: 'meets', support: 'meets' } },
      { reviewer: 'bob', id: 'complete', ratings: { verification: 'meets', support: 'does_not_meet' } },
      { reviewer: 'alice', id: 'paraphrase', ratings: all('meets') },
      { reviewer: 'bob', id: 'paraphrase', ratings: all('meets', { command: 'does_not_meet' }) },
    ])
    const report = panelAgreement(await loadFixture(dir, { cwd: dir }))
    expect(Object.keys(report.items)).toEqual(CRITERIA)
    const json = JSON.parse((await runCli(['agreement', '.', '--json'], dir)).stdout)
    expect(Object.keys(json.criteria)).toEqual(CRITERIA)
  })

  test('no overall figure from criteria that do not vary on their own: c1 all meets and c2 all does_not_meet is not alpha 1', async () => {
    const ratings = all('meets', { preconditions: 'does_not_meet' })
    const dir = await reviewed(['complete', 'paraphrase', 'negation'].flatMap((id) => ['alice', 'bob'].map((reviewer) => ({ reviewer, id, ratings }))))
    const report = panelAgreement(await loadFixture(dir, { cwd: dir }))
    for (const criterion of CRITERIA) expect(report.items[criterion]!.alpha).toBeNull()
    expect(report.pooled).toEqual([])
    expect(report.overall).toMatchObject({ alpha: null, alpha_ci: null, percent_agreement: null, units: 0 })
    expect(report.overall.reason).toBe(
      "no item varies on its own (each item's alpha is null), so a pooled figure would rest only on how the items' ratings differ from each other",
    )
    expect(formatAgreement(report)).toContain('  overall         —       no figure: no item varies on its own')
  })

  test('overall pools only the criteria that vary: with support the only one, overall is its figure', async () => {
    const dir = await reviewed([
      ...['complete', 'paraphrase', 'negation'].map((id) => ({
        reviewer: 'alice',
        id,
        ratings: all('meets', { preconditions: 'does_not_meet', support: id === 'negation' ? 'does_not_meet' : 'meets' }),
      })),
      ...['complete', 'paraphrase', 'negation'].map((id) => ({
        reviewer: 'bob',
        id,
        ratings: all('meets', { preconditions: 'does_not_meet', support: id === 'complete' ? 'meets' : 'does_not_meet' }),
      })),
    ])
    const report = panelAgreement(await loadFixture(dir, { cwd: dir }))
    expect(report.pooled).toEqual(['support'])
    expect(report.overall.alpha).toBe(report.items['support']!.alpha)
    expect(report.overall.units).toBe(3)
  })

  test('each pair of reviewers is shown with the cases it has in common, what its kappas are over', async () => {
    const dir = await panel({
      alice: { complete: 'meets', paraphrase: 'meets', negation: 'does_not_meet' },
      bob: { complete: 'meets', paraphrase: 'does_not_meet', negation: 'does_not_meet' },
      carol: { negation: 'does_not_meet' },
    })
    const report = panelAgreement(await loadFixture(dir, { cwd: dir }))
    expect(report.shared_cases).toEqual({ 'alice|bob': 3, 'alice|carol': 1, 'bob|carol': 1 })
    const text = formatAgreement(report)
    expect(text).toContain('    alice & bob (3 cases in common): overall ')
    expect(text).toContain('    alice & carol (1 case in common): overall ')
    expect(agreementJson(report)['shared_cases']).toEqual(report.shared_cases)
  })

  test('one disagreeing case: alpha 0, and no interval (never [0, 0]), with the reason', async () => {
    const dir = await reviewed([
      { reviewer: 'alice', id: 'complete', ratings: all('meets') },
      { reviewer: 'bob', id: 'complete', ratings: all('meets', { support: 'does_not_meet' }) },
    ])
    const report = panelAgreement(await loadFixture(dir, { cwd: dir }))
    expect(report.items['support']).toMatchObject({
      alpha: 0,
      alpha_ci: null,
      alpha_bootstrap: null,
      alpha_ci_reason: 'cases to resample: 1, fewer than the 10 a bootstrap interval needs',
    })
    const text = formatAgreement(report)
    expect(text).toContain('  support: no interval: cases to resample: 1, fewer than the 10 a bootstrap interval needs')
    expect(text).not.toContain('[0.000, 0.000]')
  })
})

/** `cases` cases × `criteria` criteria × 3 reviewers, with a per-case effect shared by the criteria of a case. */
function correlatedPanel(seed: string, cases: number, criteria: number): ItemUnits[] {
  const random = createRandom(seed)
  const byCase = Array.from({ length: cases }, () => {
    const hard = random() < 0.3
    return Array.from({ length: criteria }, () => {
      const truth = random() < 0.6 ? 'meets' : 'does_not_meet'
      return ['alice', 'bob', 'carol'].map(() => (random() < (hard ? 0.4 : 0.05) ? (truth === 'meets' ? 'does_not_meet' : 'meets') : truth))
    })
  })
  return Array.from({ length: criteria }, (_unused, j) => ({ item: `c${j + 1}`, units: byCase.map((ratings) => ratings[j]!), disagreements: [] }))
}

const OPTIONS = { reviewers: ['alice', 'bob', 'carol'], level: 'nominal' as const, categories: ['meets', 'does_not_meet'], seed: 's', samples: 500 }

/** A report of the figures of `cases` cases, as panelAgreement would make it. */
function reportOf(figures: ReturnType<typeof agreementFigures>, cases: number): AgreementReport {
  return {
    kind: 'criteria',
    dir: 'x',
    name: 'x',
    level: 'nominal',
    reviewers: OPTIONS.reviewers,
    cases,
    refused_cases: [],
    ...figures,
    shared_cases: {},
    seed: 's',
  }
}

describe('agreementFigures: how the intervals are drawn (issue 26, item 8)', () => {
  test('the overall interval resamples cases, each bringing all its criteria, not case × criterion units', () => {
    const items = correlatedPanel('clustered', 30, 4)
    const cases = Array.from({ length: 30 }, (_unused, index) => `case-${index}`)
    const { overall, pooled } = agreementFigures(items, { ...OPTIONS, cases })
    expect(pooled).toEqual(['c1', 'c2', 'c3', 'c4'])
    const units: ReliabilityData = items.flatMap(({ units }) => units)
    const clusters = items.flatMap(({ units }) => units.map((_unit, index) => index))
    const byCase = alphaBootstrap(units, 'nominal', { seed: 's', samples: 500, clusters })!
    expect(overall.alpha_ci).toEqual([byCase.low, byCase.high])
    expect(overall.alpha_bootstrap).toMatchObject({ resampled: 'cases', cases: 30, replicates: 500 })
    const byUnit = alphaBootstrap(units, 'nominal', { seed: 's', samples: 500 })!
    expect(overall.alpha_ci).not.toEqual([byUnit.low, byUnit.high])
    // Per criterion a case is one unit, so resampling units is resampling cases.
    expect(agreementFigures(items, { ...OPTIONS, cases }).items['c1']!.alpha_bootstrap).toMatchObject({ resampled: 'cases', cases: 30 })
  })

  test('the share of skipped replicates is reported, and above 20% the interval is marked unreliable', () => {
    // 12 cases, one disagreement: a replicate that misses case 0 (probability (11/12)^12 ≈ 0.35) has no variation.
    const units = Array.from({ length: 12 }, (_unused, index) => (index === 0 ? ['meets', 'does_not_meet', 'meets'] : ['meets', 'meets', 'meets']))
    const varied = Array.from({ length: 12 }, (_unused, index) => (index % 2 === 0 ? ['meets', 'meets', 'meets'] : ['does_not_meet', 'does_not_meet', 'meets']))
    const cases = Array.from({ length: 12 }, (_unused, index) => `case-${index}`)
    const figures = agreementFigures(
      [
        { item: 'rare', units, disagreements: ['case-0'] },
        { item: 'varied', units: varied, disagreements: [] },
      ],
      { ...OPTIONS, cases, samples: 2000 },
    )
    const rare = figures.items['rare']!
    expect(rare.alpha_bootstrap!.skipped_share).toBeGreaterThan(0.3)
    expect(rare.alpha_bootstrap!.skipped_share).toBeLessThan(0.4)
    expect(rare.alpha_bootstrap!.unreliable).toBe(true)
    expect(rare.alpha_bootstrap!.skipped + Math.round((1 - rare.alpha_bootstrap!.skipped_share) * 2000)).toBe(2000)
    expect(figures.items['varied']!.alpha_bootstrap).toMatchObject({ skipped: 0, skipped_share: 0, unreliable: false })
    const report = reportOf(figures, 12)
    const text = formatAgreement(report)
    const share = `${(100 * rare.alpha_bootstrap!.skipped_share).toFixed(1)}%`
    expect(text).toContain(`  rare: interval unreliable: ${share} of 2000 replicates had no variation and were skipped (more than 20.0%)`)
    expect(text).toMatch(new RegExp(`\\n  rare +-?\\d\\.\\d{3} +\\[-?\\d\\.\\d{3}, -?\\d\\.\\d{3}\\]\\? +${share.replace('.', '\\.')} `))
    expect(text).toContain(
      '  intervals: percentile bootstrap of 2000 replicates, seed "s", resampling cases; overall pools rare, varied, each drawn case bringing all of them; no interval below 10 cases, no overall one below 25',
    )
    expect((agreementJson(report)['criteria'] as Record<string, { alpha_bootstrap: unknown }>)['rare']!.alpha_bootstrap).toEqual(rare.alpha_bootstrap)
  })

  test('no interval where every case has the same judgements: each replicate is the sample again, never a zero-width interval', () => {
    const cases = Array.from({ length: 12 }, (_unused, index) => `case-${index}`)
    // alice rates support meets and bob does_not_meet on every case; verification varies.
    const support: ItemUnits = { item: 'support', units: cases.map(() => ['meets', 'does_not_meet', null]), disagreements: cases }
    const verification: ItemUnits = {
      item: 'verification',
      units: cases.map((_id, index) => (index % 3 === 0 ? ['does_not_meet', 'does_not_meet', null] : ['meets', 'meets', null])),
      disagreements: [],
    }
    const figures = agreementFigures([support, verification], { ...OPTIONS, cases })
    expect(figures.items['support']!.alpha).toBeLessThan(0)
    expect(figures.items['support']).toMatchObject({ alpha_ci: null, alpha_bootstrap: null })
    expect(figures.items['support']!.alpha_ci_reason).toBe(
      `every case has the same judgements: resampling its 12 cases gives alpha ${figures.items['support']!.alpha!.toFixed(3)} every time, an interval of no width that says nothing of other cases`,
    )
    // Cases that differ keep their interval.
    expect(figures.items['verification']!.alpha_ci).not.toBeNull()
  })

  test('no overall interval below 25 cases, where the pooled interval covered the true alpha in under 93% of simulated panels; each criterion keeps its own', () => {
    const at = (size: number) => {
      const cases = Array.from({ length: size }, (_unused, index) => `case-${index}`)
      const figures = agreementFigures(correlatedPanel(`pooled ${size}`, size, 4), { ...OPTIONS, cases })
      return { figures, report: reportOf(figures, size) }
    }
    const small = at(15)
    expect(small.figures.overall.alpha).not.toBeNull()
    expect(small.figures.overall).toMatchObject({
      alpha_ci: null,
      alpha_bootstrap: null,
      alpha_ci_reason:
        'cases to resample: 15, fewer than the 25 a pooled interval needs: below 25 cases its 95% interval covered the true alpha in under 93% of simulated panels (docs/statistics.md)',
    })
    expect(small.figures.items['c1']!.alpha_ci).not.toBeNull()
    expect(formatAgreement(small.report)).toContain(
      '  overall: no interval: cases to resample: 15, fewer than the 25 a pooled interval needs: below 25 cases its 95% interval covered the true alpha in under 93% of simulated panels (docs/statistics.md)',
    )
    expect(agreementJson(small.report)['overall']).toMatchObject({ alpha_ci: null })
    expect(at(25).figures.overall.alpha_ci).not.toBeNull()
  })
})
