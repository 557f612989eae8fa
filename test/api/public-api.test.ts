import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { apiReport, unexportedTypeNames } from '../helpers/api-report.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

// The report is read from the built declarations of every `exports` entry (`npm test` builds
// first), so a change of the public API is a change of this committed file, seen in review.
let report = ''
beforeAll(() => {
  report = apiReport(ROOT)
}, 60_000)

test('the public API is the one api/vitest-rubric.api.md records', async () => {
  await expect(report, 'the public API changed: run `npm run api` and commit the report').toMatchFileSnapshot('../../api/vitest-rubric.api.md')
})

/** Public types whose modules are being reworked elsewhere: their JSDoc comes with that work. */
const AWAITING_JSDOC = [
  'Adjudicated',
  'AdjudicationResult',
  'AgreementOptions',
  'AgreementReport',
  'BindResult',
  'BoundCase',
  'CalibrationOptions',
  'CalibrationReport',
  'CaseStatus',
  'FixtureStatus',
]

test("no public declaration names the package's internal seams: the kinds registry, the writer, the caches, the record store, the run's state", () => {
  // The public entries work among the shipped kinds, and write and cache as the package does: a
  // test's injected writer, the review server's parse cache, the record store behind a loaded
  // fixture's records, the evaluation the review queue hands status and the plugin's project
  // context stay on the engine's and the run's own paths.
  const seams = [
    'KindRegistry',
    'WriteIo',
    'ParseMemo',
    'BucketCache',
    'RecordStore',
    'FixtureRecords',
    'CaseAssessment',
    'DecidedWithStates',
    'ProjectContext',
  ]
  const named = seams.filter((name) => new RegExp(`\\b${name}\\b`).test(report))
  expect(named).toEqual([])
})

test('every public export has JSDoc', () => {
  const undocumented = [...report.matchAll(/^\/\/ \(undocumented\)\n(?:abstract )?(?:class|interface|type|const|function) (\w+)/gm)].map((match) => match[1]!)
  expect([...new Set(undocumented)].filter((name) => !AWAITING_JSDOC.includes(name))).toEqual([])
})

test('every type a public declaration names is exported: a user can name what a signature gives or takes', () => {
  // Export it (the kind contract is exported as types), or keep it out of the signature (a cache, the engine's own structure).
  expect(unexportedTypeNames(report)).toEqual([])
})

test('the report names a type a public declaration names that no entry exports', async () => {
  const root = await scratchDir('api-report')
  await mkdir(join(root, 'dist'))
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'scratch', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } }))
  await writeFile(
    join(root, 'dist/index.d.ts'),
    "import type { Memo, Shown } from './memo.js'\nexport type { Shown } from './memo.js'\n/** Reads. */\nexport declare function read(memo: Memo): Shown\n",
  )
  await writeFile(join(root, 'dist/memo.d.ts'), 'export interface Memo { readonly size: number }\nexport interface Shown { readonly text: string }\n')
  expect(unexportedTypeNames(apiReport(root))).toEqual(['Memo'])
})
