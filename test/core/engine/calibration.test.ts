import { describe, expect, test } from 'vitest'
import { criterionFigures } from '../../../src/core/engine/calibration.js'
import { criteriaPanel } from '../../../src/core/kinds/criteria/panel.js'
import type { CalibrationRatings } from '../../../src/core/contract/kind.js'

const RATINGS = criteriaPanel.calibration as CalibrationRatings

type Pair = { id: string; reviewers: string; judge: string }

/** `count` pairs of one cell, with ids `prefix-0`, `prefix-1`, … */
function cell(prefix: string, reviewers: string, judge: string, count: number): Pair[] {
  return Array.from({ length: count }, (_unused, index) => ({ id: `${prefix}-${index}`, reviewers, judge }))
}

describe('criterionFigures: one criterion, reviewers against a judge', () => {
  test('a known matrix: recalls, agreement, kappa by hand, the false accepts and the base rate', () => {
    // 20 meets (16 → meets, 2 → does_not_meet, 2 → uncertain), 10 does_not_meet (3 → meets, 6 → does_not_meet, 1 → uncertain).
    const pairs = [
      ...cell('mm', 'meets', 'meets', 16),
      ...cell('md', 'meets', 'does_not_meet', 2),
      ...cell('mu', 'meets', 'uncertain', 2),
      ...cell('dm', 'does_not_meet', 'meets', 3),
      ...cell('dd', 'does_not_meet', 'does_not_meet', 6),
      ...cell('du', 'does_not_meet', 'uncertain', 1),
    ]
    const figures = criterionFigures(RATINGS, pairs, 'test')
    expect(figures.n).toBe(30)
    expect(figures.matrix).toEqual({ meets: { meets: 16, does_not_meet: 2, uncertain: 2 }, does_not_meet: { meets: 3, does_not_meet: 6, uncertain: 1 } })
    expect(figures.failure_recall).toBeCloseTo(6 / 10, 12)
    expect(figures.pass_recall).toBeCloseTo(16 / 20, 12)
    expect(figures.percent_agreement).toBeCloseTo(22 / 30, 12)
    expect(figures.base_rate).toBeCloseTo(20 / 30, 12)
    // p_o = 22/30; the judge's margins are 19, 8, 3 and the reviewers' 20, 10, 0:
    // p_e = (20·19 + 10·8 + 0·3) / 900 = 460/900; kappa = (660 − 460) / (900 − 460) = 200/440.
    expect(figures.kappa).toBeCloseTo(200 / 440, 12)
    expect(figures.false_accepts).toEqual(['dm-0', 'dm-1', 'dm-2'])
    const [low, high] = figures.kappa_ci!
    expect(low).toBeLessThan(figures.kappa!)
    expect(high).toBeGreaterThan(figures.kappa!)
    // Seeded: the same interval for the same seed, another for another seed.
    expect(criterionFigures(RATINGS, pairs, 'test').kappa_ci).toEqual(figures.kappa_ci)
    expect(criterionFigures(RATINGS, pairs, 'other').kappa_ci).not.toEqual(figures.kappa_ci)
  })

  test("the judge's uncertain never agrees: a judge that abstains everywhere has kappa 0, not a perfect score", () => {
    const figures = criterionFigures(RATINGS, [...cell('m', 'meets', 'uncertain', 5), ...cell('d', 'does_not_meet', 'uncertain', 5)], 'test')
    expect(figures.percent_agreement).toBe(0)
    expect(figures.kappa).toBe(0)
    expect(figures.failure_recall).toBe(0)
    expect(figures.false_accepts).toEqual([])
  })

  test('no case is no figure: null with the reason, never 1 or 0', () => {
    const figures = criterionFigures(RATINGS, [], 'test')
    expect(figures).toMatchObject({ n: 0, failure_recall: null, pass_recall: null, percent_agreement: null, kappa: null, kappa_ci: null, base_rate: null })
    expect(figures.kappa_reason).toBe('no case has both a current adopted review and a current label')
  })

  test('no variation is no kappa; a recall without its row is null', () => {
    const figures = criterionFigures(RATINGS, cell('m', 'meets', 'meets', 8), 'test')
    expect(figures.kappa).toBeNull()
    expect(figures.kappa_reason).toBe('no variation: the reviewers and the judge rated every case "meets"')
    expect(figures.pass_recall).toBe(1)
    expect(figures.failure_recall).toBeNull()
  })
})

describe('criterionFigures: what the kappa interval can claim (issue 26, item 8)', () => {
  test('a judge of one case: no kappa and no interval (never [0, 0]), with the reason', () => {
    const figures = criterionFigures(RATINGS, cell('one', 'meets', 'does_not_meet', 1), 'test')
    expect(figures).toMatchObject({ kappa: null, kappa_ci: null, kappa_bootstrap: null })
    expect(figures.kappa_ci_reason).toBe(figures.kappa_reason)
  })

  test('reviewers who gave one rating throughout: no kappa, whatever the judge did, so a judge wrong on every case scores no 0', () => {
    const wrong = criterionFigures(RATINGS, cell('m', 'meets', 'does_not_meet', 12), 'test')
    expect(wrong).toMatchObject({ kappa: null, kappa_ci: null, percent_agreement: 0 })
    expect(wrong.kappa_reason).toBe(
      'no variation in the reference: the reviewers rated every case "meets", so kappa, agreement beyond chance, has nothing to measure (the judge agreed on 0 of 12)',
    )
    // The judge varies, the reviewers do not: p_o = p_e, kappa 0 by construction before, no figure now.
    const mixed = criterionFigures(RATINGS, [...cell('a', 'meets', 'meets', 9), ...cell('b', 'meets', 'does_not_meet', 3)], 'test')
    expect(mixed.kappa).toBeNull()
    expect(mixed.kappa_reason).toContain('(the judge agreed on 9 of 12)')
    // Reviewers who vary keep their kappa, 0 for a judge that said one rating throughout.
    expect(criterionFigures(RATINGS, [...cell('a', 'meets', 'meets', 6), ...cell('b', 'does_not_meet', 'meets', 6)], 'test').kappa).toBe(0)
  })

  test('the interval says what it resampled and the share of replicates skipped; above 20% it is unreliable', () => {
    // One failure among 12 cases: a replicate that misses it (probability (11/12)^12 ≈ 0.35) has p_e = 1 and is skipped.
    const rare = criterionFigures(RATINGS, [...cell('m', 'meets', 'meets', 11), ...cell('d', 'does_not_meet', 'does_not_meet', 1)], 'test')
    expect(rare.kappa).toBe(1)
    expect(rare.kappa_bootstrap).toMatchObject({ resampled: 'cases', cases: 12, replicates: 2000, unreliable: true })
    expect(rare.kappa_bootstrap!.skipped_share).toBeCloseTo(rare.kappa_bootstrap!.skipped / 2000, 12)
    expect(rare.kappa_bootstrap!.skipped_share).toBeGreaterThan(0.3)
    const balanced = criterionFigures(
      RATINGS,
      [...cell('m', 'meets', 'meets', 8), ...cell('d', 'does_not_meet', 'does_not_meet', 6), ...cell('x', 'meets', 'does_not_meet', 2)],
      'test',
    )
    expect(balanced.kappa_bootstrap).toMatchObject({ cases: 16, skipped: 0, skipped_share: 0, unreliable: false })
  })
})
