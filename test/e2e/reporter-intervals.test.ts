import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import { runCli } from '../helpers/cli.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { runVitest } from '../helpers/run-vitest.js'
import { scratchDir } from '../helpers/scratch.js'

type Rating = 'meets' | 'does_not_meet'

/**
 * The bundled rubric and source with `count` cases, none adopted, and a review by each reviewer
 * of every case: `rate(index, criterion)` of that reviewer.
 */
async function panelFixture(dir: string, count: number, reviewers: Record<string, (index: number, criterion: string) => Rating>): Promise<void> {
  const bundled = join(ROOT, 'fixtures/docuctl-rollback')
  const rubricBytes = await readFile(join(bundled, 'rubric.json'))
  const sourceBytes = await readFile(join(bundled, 'source.txt'))
  const rubric = JSON.parse(rubricBytes.toString('utf8')) as { task: string; criteria: { id: string; reference_quote: string }[] }
  const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
  const bindings = { source_sha256: sha(sourceBytes), rubric_sha256: sha(rubricBytes) }
  const answers = Array.from({ length: count }, (_unused, index) => ({
    text: `Answer ${index}: obtain release approval, run \`docuctl releases rollback r41 --environment staging\`, then check service health.`,
    citation: 'runbook',
  }))
  const cases = answers.map((answer, index) => ({
    id: `case-${String(index).padStart(2, '0')}`,
    input: { question: rubric.task, answer },
    expected: { acceptable: true, ...bindings, review_sha256: fingerprint(null) },
  }))
  await mkdir(join(dir, 'reviews'), { recursive: true })
  await writeFile(join(dir, 'rubric.json'), rubricBytes)
  await writeFile(join(dir, 'source.txt'), sourceBytes)
  await writeFile(join(dir, 'cases.json'), JSON.stringify({ name: 'intervals', task: rubric.task, cases }, null, 2))
  await writeFile(join(dir, 'annotations.json'), JSON.stringify({ origin: 'the review team', reviews: [] }, null, 2))
  for (const [reviewer, rate] of Object.entries(reviewers)) {
    const reviews = cases.map((entry, index) => ({
      answer_id: entry.id,
      answer_sha256: fingerprint(answers[index]),
      ...bindings,
      judgements: Object.fromEntries(
        rubric.criteria.map((criterion) => {
          const rating = rate(index, criterion.id)
          return [
            criterion.id,
            {
              rating,
              reason: `Judged by ${reviewer}.`,
              reference_quote: criterion.reference_quote,
              answer_span: rating === 'meets' ? 'check service health' : '',
            },
          ]
        }),
      ),
    }))
    await writeFile(join(dir, 'reviews', `${reviewer}.json`), JSON.stringify({ origin: reviewer, reviews }, null, 2))
  }
}

test('the reporter and the JSON report mark an agreement interval resting on few varying replicates as agreement does', { timeout: 120_000 }, async () => {
  const root = await scratchDir('reporter-intervals')
  // One disagreement in 12 cases: a replicate that misses case 3 has no variation and is skipped, about a third of them.
  await panelFixture(join(root, 'fixtures/panel'), 12, {
    alice: () => 'meets',
    bob: (index, criterion) => (criterion === 'support' && index === 3 ? 'does_not_meet' : 'meets'),
  })
  const cli = JSON.parse((await runCli(['agreement', 'fixtures/panel', '--json'], root)).stdout)
  const support = cli.criteria.support
  expect(support.alpha_bootstrap.unreliable).toBe(true)
  const share = `${(100 * support.alpha_bootstrap.skipped_share).toFixed(1)}%`

  const run = await runVitest({ root, plugin: { reporter: { outputFile: join(root, 'report.json') } } })
  const interval = `[${support.alpha_ci[0].toFixed(3)}, ${support.alpha_ci[1].toFixed(3)}]`
  expect(run.stdout).toContain(`α ${support.alpha.toFixed(3)} ${interval}? (${share} of replicates skipped) · 12 cases · 1 disagreeing`)
  expect(run.stdout).toContain(`support: interval unreliable: ${share} of 2000 replicates had no variation and were skipped (more than 20.0%)`)
  const report = JSON.parse(await readFile(join(root, 'report.json'), 'utf8'))
  const fixture = report.fixtures.find((entry: { fixture: string }) => entry.fixture.endsWith('panel'))
  expect(fixture.agreement.items.support.alpha_bootstrap).toEqual(support.alpha_bootstrap)
})
