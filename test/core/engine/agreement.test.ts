import { describe, expect, test } from 'vitest'
import { panelAgreement } from '../../../src/core/engine/agreement.js'
import { loadFixture } from '../../../src/core/engine/fixture.js'
import { alphaBootstrap, cohenKappa, krippendorffAlpha } from '../../../src/core/stats/index.js'
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
  test('per criterion, the figures of the reviewers\' ratings as units × coders, uncertain and unjudged as missing', async () => {
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
    const interval = alphaBootstrap(units, 'nominal', { seed: 7 })!
    expect(report.items['support']!.alpha_ci).toEqual([interval.low, interval.high])
    expect(report.items['support']!.alpha_ci![0]).toBeLessThanOrEqual(direct.alpha!)
    expect(report.items['support']!.alpha_ci![1]).toBeGreaterThanOrEqual(direct.alpha!)
    // Disagreements count an uncertain or left-out judgement among the case's reviewers: it needs adjudication too.
    expect(report.items['support']!.disagreements).toEqual(['paraphrase', 'wrong-command'])
    // Kappa of a pair: the cases both rated (uncertain is no rating).
    expect(report.items['support']!.kappa['alice|bob']).toBe(cohenKappa([['meets', 'meets'], ['meets', 'does_not_meet'], ['does_not_meet', 'does_not_meet']], ['meets', 'does_not_meet']).kappa)
    expect(report.items['support']!.kappa['alice|carol']).toBeNull()
  })

  test('no figure where every rating is the same or fewer than two reviewers judged: null with the reason, never 1 or 0', async () => {
    const single = await panel({ alice: { complete: 'meets', paraphrase: 'does_not_meet' } })
    const alone = panelAgreement(await loadFixture(single, { cwd: single }))
    expect(alone.items['support']).toMatchObject({ alpha: null, alpha_ci: null, reason: 'fewer than two coders judged any unit', percent_agreement: null, units: 0 })
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
      bob: { complete: 'does_not_meet', paraphrase: 'does_not_meet', negation: 'meets', 'wrong-command': 'does_not_meet', 'unsupported-guarantee': 'does_not_meet' },
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
