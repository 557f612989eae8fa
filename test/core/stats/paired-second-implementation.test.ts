// McNemar's exact test against statsmodels' mcnemar(exact=True), run by Debian's /usr/bin/python3.
// Like second-implementation.test.ts, this fails, never skips, when statsmodels is missing: CI
// installs it with `apt-get install -y python3-statsmodels`.
import { spawnSync } from 'node:child_process'
import { expect, test } from 'vitest'
import { mcnemarExact, type PairedCounts } from '../../../src/core/stats/paired.js'
import { createRandom, randomIndex } from '../../../src/core/stats/random.js'

const PYTHON = '/usr/bin/python3'
const INSTALL = 'apt-get install -y python3-sklearn python3-statsmodels'

// stdin is read before the import, so that a missing module is reported as such, not as a broken pipe.
const SCRIPT = `
import json, sys
data = json.load(sys.stdin)
from statsmodels.stats.contingency_tables import mcnemar
json.dump([float(mcnemar([[t['both'], t['aOnly']], [t['bOnly'], t['neither']]], exact=True).pvalue) for t in data], sys.stdout)
`

function tables(): PairedCounts[] {
  const random = createRandom('paired-second-implementation')
  const out: PairedCounts[] = [
    { both: 0, aOnly: 0, bOnly: 0, neither: 1 },
    { both: 3, aOnly: 0, bOnly: 9, neither: 0 },
    { both: 0, aOnly: 1, bOnly: 0, neither: 0 },
    { both: 10, aOnly: 4, bOnly: 4, neither: 10 },
  ]
  for (let i = 0; i < 300; i++) {
    const scale = [5, 30, 200, 1500][randomIndex(random, 4)] as number
    out.push({ both: randomIndex(random, scale), aOnly: randomIndex(random, scale), bOnly: randomIndex(random, scale), neither: randomIndex(random, scale) })
  }
  return out
}

test("McNemar's exact p-value equals statsmodels' mcnemar(exact=True)", () => {
  const cases = tables()
  const result = spawnSync(PYTHON, ['-c', SCRIPT], { input: JSON.stringify(cases), encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
  if (result.status === null || result.error !== undefined) {
    throw new Error(
      `cannot run ${PYTHON} (${result.error?.message ?? `killed by ${String(result.signal)}`}); the cross-check needs it with statsmodels: ${INSTALL}\n${result.stderr ?? ''}`,
    )
  }
  if (result.status !== 0) {
    const missing = /ModuleNotFoundError|ImportError/.test(result.stderr) ? `statsmodels is missing for ${PYTHON}; install it with: ${INSTALL}\n` : ''
    throw new Error(`${missing}${PYTHON} exited with status ${String(result.status)}:\n${result.stderr}`)
  }
  const expected = JSON.parse(result.stdout) as number[]
  expect(expected).toHaveLength(cases.length)
  for (const [i, counts] of cases.entries()) {
    const actual = mcnemarExact(counts).pValue
    const want = expected[i] as number
    // Relative agreement: a p-value of 1e-300 is compared to its own digits, not to 0.
    if (want === 0) expect(actual).toBeLessThan(1e-300)
    else expect(Math.abs(actual - want) / want, `table ${i}: ${JSON.stringify(counts)}`).toBeLessThan(1e-9)
  }
})
