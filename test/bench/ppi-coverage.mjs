// Coverage and width of the prediction-powered interval against the human-only one, over a grid of
// designs and judges (the model is in test/bench/ppi-simulation.mjs), printed as the table in
// docs/statistics.md; with --paired, the same for the paired difference B − A (ppiDifference), whose
// table is the second one there.
//
//   npm run build && node test/bench/ppi-coverage.mjs [--replicates 1000] [--cases 10000] [--size 300]
//                                                     [--rate 0.7] [--estimand split|system] [--paired]
//                                                     [--table both,aOnly,bOnly,neither] [--dist dist]
//                                                     [--design uniform|stratified|active]   (one design's rows only)
//
// Runs against the built package (dist/ by default), seeded: each cell of the grid is its own seed,
// so a cell's figures do not depend on the others. Not part of `npm test`.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { coverage, DESIGNS, JUDGES, PAIRED_JUDGES, PAIRED_TABLE, pairedCoverage } from './ppi-simulation.mjs'

const { values } = parseArgs({
  options: {
    replicates: { type: 'string', default: '1000' },
    cases: { type: 'string', default: '10000' },
    size: { type: 'string', default: '300' },
    rate: { type: 'string', default: '0.7' },
    estimand: { type: 'string', default: 'split' },
    paired: { type: 'boolean', default: false },
    table: { type: 'string' },
    dist: { type: 'string', default: 'dist' },
    design: { type: 'string' },
  },
})
const stats = {
  ...(await import(pathToFileURL(resolve(values.dist, 'core/stats/index.js')).href)),
  // The active design as \`vitest-rubric sample --method active\` draws it.
  activeProbabilities: (await import(pathToFileURL(resolve(values.dist, 'core/sample/draw-judge.js')).href)).activeProbabilities,
}
const settings = {
  replicates: Number(values.replicates),
  cases: Number(values.cases),
  size: Number(values.size),
  rate: Number(values.rate),
  estimand: values.estimand,
}
const percent = (x) => `${(100 * x).toFixed(1)}%`
const started = performance.now()
const paired = values.paired
if (values.table !== undefined) {
  const [both, aOnly, bOnly, neither] = values.table.split(',').map(Number)
  settings.table = { both, aOnly, bOnly, neither }
}
const table = settings.table ?? PAIRED_TABLE
console.log(
  paired
    ? `${settings.replicates} paired splits a cell, N = ${settings.cases} tasks, n ≈ ${settings.size} tasks reviewed in both, rates A ${(table.both + table.aOnly).toFixed(2)} and B ${(table.both + table.bOnly).toFixed(2)}, ${(100 * (table.aOnly + table.bOnly)).toFixed(0)}% discordant, estimand ${settings.estimand}, 95% intervals of B − A\n`
    : `${settings.replicates} splits a cell, N = ${settings.cases}, n ≈ ${settings.size}, true rate ${settings.rate}, estimand ${settings.estimand}, 95% intervals\n`,
)
console.log(
  '| design | judge | κ | judge-only − truth | PPI coverage | human-only coverage | PPI width | human-only width | width ratio | n_eff / n | refused |',
)
console.log('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|')
let worst = 1
if (values.design !== undefined && !DESIGNS.includes(values.design)) throw new Error(`--design takes ${DESIGNS.join(', ')}, not ${values.design}`)
for (const design of DESIGNS.filter((name) => values.design === undefined || name === values.design)) {
  for (const judge of paired ? PAIRED_JUDGES : JUDGES) {
    const figures = paired
      ? pairedCoverage(stats, { ...settings, seed: `paired ${design} ${judge.name}`, judge, design })
      : coverage(stats, { ...settings, seed: `${design} ${judge.name}`, judge, design })
    worst = Math.min(worst, figures.ppiCoverage)
    console.log(
      `| ${design} | ${judge.name} | ${figures.kappa.toFixed(2)} | ${figures.judgeError >= 0 ? '+' : '−'}${Math.abs(figures.judgeError).toFixed(3)} | ${percent(figures.ppiCoverage)} | ${percent(figures.classicalCoverage)} | ${figures.ppiWidth.toFixed(4)} | ${figures.classicalWidth.toFixed(4)} | ${(figures.ppiWidth / figures.classicalWidth).toFixed(2)} | ${(figures.effectiveReviews / figures.reviews).toFixed(2)} | ${figures.refused} |`,
    )
  }
}
console.log(`\nlowest PPI coverage ${percent(worst)}; ${((performance.now() - started) / 1000).toFixed(1)} s`)
