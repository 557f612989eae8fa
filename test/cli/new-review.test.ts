import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { copyFixture, type FixtureCopy } from '../helpers/fixture-copy.js'

const PLACEHOLDER = '0'.repeat(64)

/** A reviewer's first draft of a review of "not-reviewed", copied from another review, with placeholder hashes. */
async function draftReview(fixture: FixtureCopy, edit: (judgements: Record<string, Record<string, string>>) => void = () => {}): Promise<void> {
  await fixture.editAnnotations((annotations) => {
    const draft = structuredClone(annotations.reviews[0]!)
    Object.assign(draft, { answer_id: 'not-reviewed', answer_sha256: PLACEHOLDER, source_sha256: PLACEHOLDER, rubric_sha256: PLACEHOLDER })
    for (const judgement of Object.values(draft.judgements)) judgement.answer_span = ''
    edit(draft.judgements as unknown as Record<string, Record<string, string>>)
    annotations.reviews.push(draft)
  })
}

describe('a new review with mistakes in it', () => {
  const typos = (judgements: Record<string, Record<string, string>>) => {
    judgements['command']!['raiting'] = judgements['command']!['rating']!
    delete judgements['command']!['rating']
    judgements['preconditions']!['rating'] = 'meet'
    judgements['verification']!['answer_span'] = 'words the answer never says'
  }

  test('evaluate names every mistake in one run, and that the review is not bound yet, with the command that binds it', async () => {
    const fixture = await copyFixture()
    await draftReview(fixture, typos)
    const { stdout } = await runCli(['evaluate', '.'], fixture.dir)
    const refusal = stdout.slice(stdout.indexOf('  refused not-reviewed:'))
    expect(refusal).toContain('reviews[7] › judgements › command › rating (case "not-reviewed"): a required value is missing.')
    expect(refusal).toContain('annotations.json › reviews[7] › judgements › command: unexpected key "raiting".')
    expect(refusal).toContain('annotations.json › reviews[7] › judgements › preconditions › rating: the value is not one of those allowed.')
    expect(refusal).toContain('annotations.json › reviews[7] › judgements › verification › answer_span: the answer span does not occur in the answer text')
    expect(refusal).toContain('is a new review, not bound yet. Fix: check it, then run `vitest-rubric bind . --case not-reviewed`')
    // Not an unacknowledged edit, and no hash to paste by hand.
    expect(stdout).not.toContain('still records that it has no review')
    expect(refusal).not.toMatch(/set \w+_sha256 to/)
    expect(refusal).not.toContain(PLACEHOLDER)
  })

  test('bind refuses it until it is fixed, naming the same mistakes, and writes nothing', async () => {
    const fixture = await copyFixture()
    await draftReview(fixture, typos)
    const before = await fixture.readJson('annotations.json')
    const { code, stderr } = await runCli(['bind', '.', '--case', 'not-reviewed'], fixture.dir)
    expect(code).toBe(1)
    expect(stderr).toContain('unexpected key "raiting"')
    expect(stderr).toContain('preconditions › rating: the value is not one of those allowed.')
    expect(stderr).toContain('verification › answer_span: the answer span does not occur in the answer text')
    expect(await fixture.readJson('annotations.json')).toEqual(before)
  })

  test('status lists it as a new review and as refused, never as stale against hashes it never had', async () => {
    const fixture = await copyFixture()
    await draftReview(fixture, typos)
    const { stdout } = await runCli(['status', '.'], fixture.dir)
    expect(stdout).toContain('  new review, not bound yet (1): check it, then `vitest-rubric bind . --case <id>`')
    expect(stdout).toContain('  refused (1): fix what the message names')
    expect(stdout).not.toMatch(/stale (answer|source|rubric)/)
    expect(stdout).not.toContain('edited review not acknowledged')
  })
})

describe('a new, well-formed review with placeholder hashes', () => {
  test('status shows it once, as "new review, not bound yet", with the command that binds it', async () => {
    const fixture = await copyFixture()
    await draftReview(fixture)
    const { code, stdout } = await runCli(['status', '.'], fixture.dir)
    expect(code).toBe(1)
    expect(stdout.match(/not-reviewed/g)).toHaveLength(1)
    expect(stdout).toContain(
      '  new review, not bound yet (1): check it, then `vitest-rubric bind . --case <id>` records the hashes of the files as they are now\n    not-reviewed: the review at annotations.json › reviews[7]\n',
    )
    expect(stdout).not.toContain('a rule, the task or the acceptance text')
  })

  test('binding it records every hash, and the case is decided', async () => {
    const fixture = await copyFixture()
    await draftReview(fixture)
    const bind = await runCli(['bind', '.', '--case', 'not-reviewed'], fixture.dir)
    expect(bind.stderr).toBe('')
    expect(bind.stdout).toContain('not-reviewed: bound, then decided ')
    const status = await runCli(['status', '.'], fixture.dir)
    expect(status.code).toBe(0)
  })
})

describe('an answer edited after its review', () => {
  test('the fix names the command that binds the revised review, never a hash to paste', async () => {
    const fixture = await copyFixture()
    await fixture.editCases((cases) => {
      cases.cases[0]!.input.answer.text = `Edited. ${cases.cases[0]!.input.answer.text}`
    })
    const { stdout } = await runCli(['evaluate', '.'], fixture.dir)
    const fix = stdout.split('\n').find((line) => line.includes('fix:') && stdout.indexOf(line) > stdout.indexOf('refused complete:'))
    expect(fix?.trim()).toBe('fix:      re-read the answer and revise the review, then run `vitest-rubric bind . --case complete`.')
  })
})
