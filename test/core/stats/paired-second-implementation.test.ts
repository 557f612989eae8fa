// McNemar's exact test against statsmodels' mcnemar(exact=True). Its p-values for hundreds of fixed
// tables are committed in test/reference/paired-second-implementation.json, so the test needs no
// Python; test/reference/generate.py computes them again (see CONTRIBUTING.md).
import { expect, test } from 'vitest'
import { mcnemarExact, type PairedCounts } from '../../../src/core/stats/paired.js'
import { generatorSha256, readReference, type ReferenceHeader } from '../../helpers/reference.js'

interface PairedSecondImplementation extends ReferenceHeader {
  readonly mcnemar: { counts: PairedCounts; pValue: number }[]
}

const reference = readReference<PairedSecondImplementation>('paired-second-implementation.json')

test('the reference p-values are those test/reference/generate.py computes, for hundreds of tables', () => {
  expect(reference.scriptSha256, 'test/reference/generate.py changed: run it again (CONTRIBUTING.md)').toBe(generatorSha256())
  expect(reference.mcnemar.length).toBeGreaterThanOrEqual(300)
})

test("McNemar's exact p-value equals statsmodels' mcnemar(exact=True)", () => {
  for (const [i, { counts, pValue: want }] of reference.mcnemar.entries()) {
    const actual = mcnemarExact(counts).pValue
    // Relative agreement: a p-value of 1e-300 is compared to its own digits, not to 0.
    if (want === 0) expect(actual).toBeLessThan(1e-300)
    else expect(Math.abs(actual - want) / want, `table ${i}: ${JSON.stringify(counts)}`).toBeLessThan(1e-9)
  }
})
