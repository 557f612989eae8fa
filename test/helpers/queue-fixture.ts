import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from 'vitest'
import { NULL_FINGERPRINT } from '../../src/core/json/canonical-json.js'
import { runCli } from './cli.js'
import { copyFixture, type FixtureCopy } from './fixture-copy.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

/** Records an independent review of every criterion through the CLI, `meets` unless `ratings` says otherwise. */
export async function reviewAs(dir: string, caseId: string, reviewer: string, ratings: Record<string, string> = {}): Promise<void> {
  const judgements = Object.fromEntries(
    CRITERIA.map((criterion) => [criterion, { rating: ratings[criterion] ?? 'meets', reason: `${reviewer} on ${criterion}.`, answer_span: '' }]),
  )
  await writeFile(join(dir, `${reviewer}-labels.json`), JSON.stringify(judgements))
  const result = await runCli(['review', '.', '--case', caseId, '--reviewer', reviewer, '--from', `${reviewer}-labels.json`], dir)
  expect(result.stderr).toBe('')
}

/**
 * A copy of docuctl-rollback with one case for each reason of the queue: alice and bob disagree on
 * `support` for not-reviewed and agree on complete; alice reviewed paraphrase, whose answer changed
 * since; negation's answer changed since its review in the annotations; wrong-command lost its
 * review; uncertain-wording keeps its uncertain review.
 */
export async function queueFixture(): Promise<FixtureCopy> {
  const fixture = await copyFixture()
  await fixture.editAnnotations((annotations) => {
    annotations.reviews = annotations.reviews.filter((review) => review.answer_id !== 'wrong-command')
  })
  await fixture.editCases((cases) => {
    for (const entry of cases.cases) if (entry.id === 'wrong-command') entry.expected.review_sha256 = NULL_FINGERPRINT
  })
  await reviewAs(fixture.dir, 'not-reviewed', 'alice')
  await reviewAs(fixture.dir, 'not-reviewed', 'bob', { support: 'does_not_meet' })
  await reviewAs(fixture.dir, 'complete', 'alice')
  await reviewAs(fixture.dir, 'complete', 'bob')
  await reviewAs(fixture.dir, 'paraphrase', 'alice')
  await fixture.editCases((cases) => {
    for (const entry of cases.cases) if (entry.id === 'paraphrase' || entry.id === 'negation') entry.input.answer.text += ' Then check the logs.'
  })
  return fixture
}
