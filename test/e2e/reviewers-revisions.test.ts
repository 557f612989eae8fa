import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { runVitest } from '../helpers/run-vitest.js'
import { bundledProject, scratchDir } from '../helpers/scratch.js'
import { KEY, scriptedTerminal } from '../helpers/terminal.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support'] as const
type Ratings = Partial<Record<(typeof CRITERIA)[number], string>>

/** `--rating c=r --reason c=…` for every criterion: meets unless `ratings` says otherwise. */
function judged(author: string, ratings: Ratings = {}): string[] {
  return CRITERIA.flatMap((criterion) => {
    const rating = ratings[criterion] ?? 'meets'
    return ['--rating', `${criterion}=${rating}`, '--reason', `${criterion}=${author} judged it ${rating}.`]
  })
}

type Run = (...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>

/** A fixture of one bundled answer (`one`, the complete answer), not reviewed yet. */
async function oneCase(): Promise<{
  dir: string
  run: Run
  decision: () => Promise<{ status: string; reason: string; error?: { code: string; file: string | null; message: string } }>
}> {
  const root = await scratchDir('reviewers-revisions')
  const run: Run = (...args) => runCli(args, root)
  expect((await run('init', 'fixtures/panel', '--template', 'docuctl')).code).toBe(0)
  const bundled = JSON.parse(await readFile(join(DOCUCTL, 'cases.json'), 'utf8')).cases as {
    id: string
    input: { answer: { text: string; citation: string } }
  }[]
  const answer = bundled.find((entry) => entry.id === 'complete')!.input.answer
  await writeFile(join(root, 'cases.json'), JSON.stringify([{ id: 'one', answer: answer.text, citation: answer.citation }]))
  expect((await run('add', 'fixtures/panel', '--from', 'cases.json')).code).toBe(0)
  const decision = async () => JSON.parse((await run('evaluate', 'fixtures/panel', '--json')).stdout).decisions.one
  return { dir: join(root, 'fixtures/panel'), run, decision }
}

async function review(run: Run, reviewer: string, ratings: Ratings = {}, ...more: string[]): Promise<void> {
  const result = await run('review', 'fixtures/panel', '--case', 'one', '--reviewer', reviewer, ...judged(reviewer, ratings), ...more)
  expect(result.stderr, `${reviewer}'s review`).toBe('')
}

/** `status` without its header, the hashes shortened to `<sha>`: what a reviewer reads of each case. */
async function status(run: Run): Promise<{ code: number; text: string }> {
  const result = await run('status', 'fixtures/panel')
  const lines = result.stdout.split('\n').filter((line) => !/^ {4}\w+_sha256 {2,}/.test(line) && line !== '  a case added now records (expected):')
  return { code: result.code, text: lines.join('\n').replaceAll(/[0-9a-f]{12}…/g, '<sha>') }
}

describe('only an adjudication decides a case with independent reviews', () => {
  test('a review without --reviewer of a disputed case is refused, naming the command that adjudicates it', async () => {
    const { dir, run, decision } = await oneCase()
    await review(run, 'alice')
    await review(run, 'bob', { support: 'does_not_meet' })
    const before = await readFile(join(dir, 'annotations.json'), 'utf8')
    for (const args of [judged('carol'), ['--replace', ...judged('carol')]]) {
      const direct = await run('review', 'fixtures/panel', '--case', 'one', ...args)
      expect(direct.code).toBe(1)
      expect(direct.stderr).toMatchInlineSnapshot(`
        "fixtures/panel/annotations.json (case "one"): case "one" has independent reviews (alice, bob), so only an adjudication adopts its review; nothing was written.
          expected: a review by a reviewer (--reviewer <name>), or an adjudication of the reviews
          found:    a review without --reviewer, which would decide the case with no adjudication recorded
          fix:      adjudicate the case: \`vitest-rubric adjudicate fixtures/panel --case one --adjudicator <name>\`, or record your own review with --reviewer <name>.
        "
      `)
    }
    expect(await readFile(join(dir, 'annotations.json'), 'utf8')).toBe(before)
    expect(await decision()).toMatchObject({ status: 'pending', reason: 'reviewers disagree on support (alice: meets, bob: does_not_meet)' })
  })

  test('a case reviewed directly, then by two reviewers who disagree, is pending until it is adjudicated', async () => {
    const { run, decision } = await oneCase()
    expect((await run('review', 'fixtures/panel', '--case', 'one', ...judged('dana'))).code).toBe(0)
    expect((await decision()).status).toBe('accepted')
    await review(run, 'alice')
    await review(run, 'bob', { support: 'does_not_meet' })
    const pending = await decision()
    expect(pending.status).toBe('pending')
    expect(pending.reason).toMatchInlineSnapshot(
      `"the review in fixtures/panel/annotations.json was not adopted by an adjudication, and an adoption decides a case with independent reviews: run \`vitest-rubric adjudicate fixtures/panel --case one --adjudicator <name>\`; reviewers disagree on support (alice: meets, bob: does_not_meet)"`,
    )
    const listed = await status(run)
    expect(listed.text).toMatchInlineSnapshot(`
      "panel (fixtures/panel)
        reviewers disagree (1): adjudicate: \`vitest-rubric adjudicate fixtures/panel --case <id> --adjudicator <name>\` shows the judgements side by side (the case stays pending until then)
          one: the review in fixtures/panel/annotations.json was not adopted by an adjudication, and an adoption decides a case with independent reviews: run \`vitest-rubric adjudicate fixtures/panel --case one --adjudicator <name>\`; reviewers disagree on support (alice: meets, bob: does_not_meet)
        status: every review is bound to the files as they are
      "
    `)
    const consensus = await run('adjudicate', 'fixtures/panel', '--consensus', '--adjudicator', 'erin')
    expect(consensus.stdout).toContain(`  left one: ${pending.reason}\n`)
    const adjudicated = await run('adjudicate', 'fixtures/panel', '--case', 'one', '--adjudicator', 'erin', '--take', 'bob')
    expect(adjudicated.stdout).toContain('one: adopted a review resolving alice, bob, then decided rejected (support)')
    expect(await decision()).toMatchObject({ status: 'rejected', reason: 'support' })
  })

  test('a review added or changed after an adoption reopens the case, naming the review', async () => {
    const { run, decision } = await oneCase()
    await review(run, 'alice')
    await review(run, 'bob')
    expect((await run('adjudicate', 'fixtures/panel', '--consensus', '--adjudicator', 'dana')).code).toBe(0)
    expect((await decision()).status).toBe('accepted')
    await review(run, 'zed', { support: 'does_not_meet' })
    expect(await decision()).toMatchObject({
      status: 'pending',
      reason:
        'zed reviewed after the adoption; adjudicate again (`vitest-rubric adjudicate fixtures/panel --case one --adjudicator <name>`): reviewers disagree on support (alice: meets, bob: meets, zed: does_not_meet)',
    })
    expect((await status(run)).text).toContain('  reviewers disagree (1): ')
    const adjudicated = await run('adjudicate', 'fixtures/panel', '--case', 'one', '--adjudicator', 'dana', '--take', 'zed')
    expect(adjudicated.stdout).toContain('one: adopted a review resolving alice, bob, zed, then decided rejected (support)')
    expect((await decision()).status).toBe('rejected')
    await review(run, 'bob', { support: 'does_not_meet' }, '--replace')
    expect(await decision()).toMatchObject({
      status: 'pending',
      reason:
        "bob's review changed after the adoption; adjudicate again (`vitest-rubric adjudicate fixtures/panel --case one --adjudicator <name>`): reviewers disagree on support (alice: meets, bob: does_not_meet, zed: does_not_meet)",
    })
  })
})

/** alice and bob review the case alike, dana adopts it by consensus, and a judge labels it. */
async function adopted(): Promise<Awaited<ReturnType<typeof oneCase>>> {
  const fixture = await oneCase()
  await review(fixture.run, 'alice')
  await review(fixture.run, 'bob')
  expect((await fixture.run('adjudicate', 'fixtures/panel', '--consensus', '--adjudicator', 'dana')).code).toBe(0)
  const judge = await fixture.run('review', 'fixtures/panel', '--case', 'one', '--judge', 'gpt', ...judged('gpt'))
  expect(judge.stderr).toBe('')
  expect((await fixture.decision()).status).toBe('accepted')
  return fixture
}

describe('an edit of the answer, the source or the rubric: the whole way back, by commands', () => {
  test('an answer edit: status names every stale file; alice and bob re-review under --replace, and the consensus adopts them again', async () => {
    const { dir, run, decision } = await adopted()
    const casesPath = join(dir, 'cases.json')
    await writeFile(casesPath, (await readFile(casesPath, 'utf8')).replace('check service health', 'check the service health'))
    expect((await decision()).error?.code).toBe('REVIEW_ANSWER_STALE')
    const stale = await status(run)
    expect(stale.code).toBe(1)
    expect(stale.text).toMatchInlineSnapshot(`
      "panel (fixtures/panel)
        stale answer (2): the answer changed since its review: re-read it, revise the review, then \`vitest-rubric bind fixtures/panel --case <id>\`
          one: fixtures/panel/reviews/alice.json › reviews[0] › answer_sha256 <sha> → <sha>; next: \`vitest-rubric review fixtures/panel --case one --reviewer alice --replace\` (or, if alice's judgements still hold, \`vitest-rubric bind fixtures/panel --case one --reviewer alice\`)
          one: fixtures/panel/reviews/bob.json › reviews[0] › answer_sha256 <sha> → <sha>; next: \`vitest-rubric review fixtures/panel --case one --reviewer bob --replace\` (or, if bob's judgements still hold, \`vitest-rubric bind fixtures/panel --case one --reviewer bob\`)
        adoption of stale reviews (1): the adoption stands for reviews of older files: once the reviews are current, adopt them again with \`vitest-rubric adjudicate fixtures/panel --consensus\` or \`--case <id>\`; if every judgement still holds, \`vitest-rubric bind fixtures/panel --case <id>\` keeps the adoption
          one: fixtures/panel/adjudications.json › adoptions[0] (by dana, resolving alice, bob); next, once the reviews are current: \`vitest-rubric adjudicate fixtures/panel --case one --adjudicator <name>\`
        stale judge's label (1): judge again what is stale: \`vitest-rubric judge fixtures/panel --judge <name> --run <module>\` calls the judge only for the labels that are not current (after a rubric revision, only for the criteria it changed), or record labels made elsewhere with \`vitest-rubric review fixtures/panel --judge <name> --replace --from <labels.jsonl>\` (a judge's label decides nothing)
          one: fixtures/panel/judges/gpt.json › reviews[0] › answer_sha256 <sha> → <sha>; next: \`vitest-rubric review fixtures/panel --judge gpt --replace --from <labels.jsonl>\`
        status: some judgements do not apply to the files as they are, or are not bound yet; the cases above are refused until revised and bound
      "
    `)
    await review(run, 'alice', {}, '--replace')
    await review(run, 'bob', {}, '--replace')
    expect(await decision()).toMatchObject({
      status: 'pending',
      reason: expect.stringMatching(/^alice's review changed after the adoption, bob's review changed after the adoption; adjudicate again/),
    })
    // status gives evaluate's next step: adjudicate again. The adopted review is no stale answer to revise or bind by hand.
    const reopened = await status(run)
    expect(reopened.code).toBe(0)
    expect(reopened.text).toMatchInlineSnapshot(`
      "panel (fixtures/panel)
        reviewers agree, not adopted (1): adopt the reviews: \`vitest-rubric adjudicate fixtures/panel --consensus\`
          one: alice's review changed after the adoption, bob's review changed after the adoption; adjudicate again (\`vitest-rubric adjudicate fixtures/panel --case one --adjudicator <name>\`): 2 reviews agree, not adopted yet
        stale judge's label (1): judge again what is stale: \`vitest-rubric judge fixtures/panel --judge <name> --run <module>\` calls the judge only for the labels that are not current (after a rubric revision, only for the criteria it changed), or record labels made elsewhere with \`vitest-rubric review fixtures/panel --judge <name> --replace --from <labels.jsonl>\` (a judge's label decides nothing)
          one: fixtures/panel/judges/gpt.json › reviews[0] › answer_sha256 <sha> → <sha>; next: \`vitest-rubric review fixtures/panel --judge gpt --replace --from <labels.jsonl>\`
        status: every review is bound to the files as they are
      "
    `)
    const consensus = await run('adjudicate', 'fixtures/panel', '--consensus', '--adjudicator', 'dana')
    expect(consensus.stdout).toContain('one: adopted a review resolving alice, bob, then decided accepted')
    expect((await decision()).status).toBe('accepted')
    const current = await status(run)
    expect(current.code).toBe(0)
    expect(current.text).toContain('  bound and current (1): nothing to do\n    one (accepted)')
    // The judge's label is still of the old answer: listed, with its command, and deciding nothing.
    expect(current.text).toContain("  stale judge's label (1): ")
  })

  test('a source edit: one bind re-binds the case, its adopted review and every reviewer, and the adoption carries over', async () => {
    const { dir, run, decision } = await adopted()
    const sourcePath = join(dir, 'source.txt')
    await writeFile(sourcePath, `${await readFile(sourcePath, 'utf8')}\nA later note: rollbacks are logged.\n`)
    expect((await decision()).error?.code).toBe('CASE_SOURCE_STALE')
    const stale = await status(run)
    expect(stale.text).toContain(
      '    one: fixtures/panel/reviews/bob.json › reviews[0] › source_sha256 <sha> → <sha>; next: `vitest-rubric review fixtures/panel --case one --reviewer bob --replace`',
    )
    expect(stale.text).toContain('  adoption of stale reviews (1): ')
    const bound = await run('bind', 'fixtures/panel', '--case', 'one')
    expect(bound.stderr).toBe('')
    expect(bound.stdout).toContain('one: bound, then decided accepted')
    expect(
      bound.stdout
        .split('\n')
        .filter((line) => line.includes(' › '))
        .map((line) => line.trim()),
    ).toEqual([
      'fixtures/panel/cases.json › cases[0] › expected › source_sha256',
      'fixtures/panel/annotations.json › reviews[0] › source_sha256',
      'fixtures/panel/cases.json › cases[0] › expected › review_sha256',
      'fixtures/panel/reviews/alice.json › reviews[0] › source_sha256',
      'fixtures/panel/reviews/bob.json › reviews[0] › source_sha256',
      'fixtures/panel/adjudications.json › adoptions[0] › resolved › alice',
      'fixtures/panel/adjudications.json › adoptions[0] › resolved › bob',
      'fixtures/panel/adjudications.json › adoptions[0] › review_sha256',
    ])
    expect((await decision()).status).toBe('accepted')
    expect((await status(run)).code).toBe(0)
  })

  test('a rubric edit: alice re-reviews the stale case, bob re-binds his file, and adjudicate --case adopts again', async () => {
    const { dir, run, decision } = await adopted()
    const rubricPath = join(dir, 'rubric.json')
    await writeFile(
      rubricPath,
      (await readFile(rubricPath, 'utf8')).replace(
        'Tell the reader to check service health after rollback.',
        'Tell the reader to check the health of the service after the rollback.',
      ),
    )
    expect((await decision()).error?.code).toBe('CASE_RUBRIC_STALE')
    const stale = await status(run)
    // The project is no git work tree: each stale file is told, as the adopted review is, to re-read every criterion.
    expect(stale.text).toContain(
      '    one: fixtures/panel/reviews/alice.json › reviews[0] › rubric_sha256 <sha> → <sha>; no criterion was added, removed or re-quoted: the change is in a rule, the task or the acceptance text, so re-read every criterion; next: `vitest-rubric review fixtures/panel --case one --reviewer alice --replace`',
    )
    expect(stale.text).toContain(
      '    one: fixtures/panel/judges/gpt.json › reviews[0] › rubric_sha256 <sha> → <sha>; no criterion was added, removed or re-quoted: the change is in a rule, the task or the acceptance text, so re-read every criterion; next: `vitest-rubric review fixtures/panel --judge gpt --replace --from <labels.jsonl>`',
    )
    const replaced = await run(
      'review',
      'fixtures/panel',
      '--case',
      'one',
      '--reviewer',
      'alice',
      '--replace',
      ...judged('alice', { verification: 'uncertain' }),
    )
    expect(replaced.stderr).toBe('')
    expect(replaced.stdout).toContain('one by alice: replaced the review, which alone would decide pending (uncertain on verification)')
    // Still stale for bob: his review refuses the case until he revises or re-binds it.
    expect((await decision()).error?.file).toBe('fixtures/panel/reviews/bob.json')
    const unknown = await run('bind', 'fixtures/panel', '--case', 'one', '--reviewer', 'zed')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatchInlineSnapshot(`
      "--reviewer: "zed" has no reviews in fixtures/panel/reviews; nothing was written.
        expected: one of "alice", "bob"
        found:    "zed"
        fix:      name a reviewer whose file is in reviews/.

      Usage: vitest-rubric bind <dir> (--case <id>... | --all) [--reviewer <name>]... [--dry-run]

      The explicit revision, after a reviewer has re-read a case: sets the review's answer, source and
      rubric hashes (scored fixtures: rubric, spec and output) and the case's expected hashes to the
      files as they are now, and acknowledges the review's new revision. Prints every old → new hash.
      A case nobody reviewed carries no judgement, so its own hashes are simply re-stamped; a removed
      review's withdrawal is acknowledged only for a case named with --case. Only cases.json and
      annotations.json change, and only in those hashes; the rubric and the source are never written.
      Nothing is written when a case would still be refused once bound (revise its judgements first).

      A case with independent reviews is bound with every reviewer's review of it (reviews/<name>.json),
      or, with --reviewer, only with those reviewers' reviews, once each has re-read the case. An
      adoption (adjudications.json) of reviews that are only re-bound carries over to them: the
      judgements it adopted still hold. An adoption reopened by a later review is not carried over.

      Options:
        --case <id>        a case to bind (repeatable)
        --all              every case (a withdrawn review is listed and left alone)
        --reviewer <name>  bind only this reviewer's independent reviews of the cases (repeatable)
        --dry-run          print what would change, write nothing

      Exit codes: 0 when bound (or nothing to change); 1 when refused, with nothing written.
      "
    `)
    const bound = await run('bind', 'fixtures/panel', '--case', 'one', '--reviewer', 'bob')
    expect(bound.stderr).toBe('')
    expect(bound.stdout).toContain("one: bound, then decided accepted by bob's review alone")
    expect(await decision()).toMatchObject({
      status: 'pending',
      reason:
        "alice's review changed after the adoption; adjudicate again (`vitest-rubric adjudicate fixtures/panel --case one --adjudicator <name>`): reviewers disagree on verification (alice: uncertain, bob: meets)",
    })
    const adjudicated = await run('adjudicate', 'fixtures/panel', '--case', 'one', '--adjudicator', 'dana', '--take', 'bob')
    expect(adjudicated.stderr).toBe('')
    expect(adjudicated.stdout).toContain('one: adopted a review resolving alice, bob, then decided accepted')
    expect((await decision()).status).toBe('accepted')
    expect((await status(run)).code).toBe(0)
  })

  test("on a terminal, a reviewer's re-review of a stale case starts from their earlier review", async () => {
    const { dir, decision } = await adopted()
    const rubricPath = join(dir, 'rubric.json')
    await writeFile(
      rubricPath,
      (await readFile(rubricPath, 'utf8')).replace(
        'Tell the reader to check service health after rollback.',
        'Tell the reader to check the health of the service after the rollback.',
      ),
    )
    const before = JSON.parse(await readFile(join(dir, 'reviews/alice.json'), 'utf8')).reviews[0]
    // Enter keeps each pre-filled rating, reason and span.
    const script = scriptedTerminal([
      ...CRITERIA.flatMap((criterion) => [
        { expect: `Rating of ${criterion}`, keys: KEY.enter },
        { expect: `${criterion}?`, keys: KEY.enter },
        { expect: 'The span of the answer', keys: KEY.enter },
      ]),
      { expect: 'Write the review', keys: KEY.enter },
    ])
    let stdout = ''
    let stderr = ''
    const code = await main(['review', 'fixtures/panel', '--case', 'one', '--reviewer', 'alice', '--replace'], {
      stdout: (text) => (stdout += `${text}\n`),
      stderr: (text) => (stderr += `${text}\n`),
      cwd: join(dir, '../..'),
      terminal: script.terminal,
    })
    script.finished()
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toContain('one by alice: replaced the review, which alone would decide accepted')
    const after = JSON.parse(await readFile(join(dir, 'reviews/alice.json'), 'utf8')).reviews[0]
    expect(after.judgements).toEqual(before.judgements)
    expect(after.rubric_sha256).not.toBe(before.rubric_sha256)
    // bob's review is still of the old rubric: the case waits for him.
    expect((await decision()).error?.file).toBe('fixtures/panel/reviews/bob.json')
  })

  test('an adopted review edited by hand: binding the edit leaves the adoption stale, and it is simply adjudicated again', async () => {
    const { dir, run, decision } = await adopted()
    const annotationsPath = join(dir, 'annotations.json')
    await writeFile(annotationsPath, (await readFile(annotationsPath, 'utf8')).replace('alice judged it meets.', 'alice judged it meets, says dana.'))
    expect((await decision()).error?.code).toBe('REVIEW_EDIT_UNACKNOWLEDGED')
    const bound = await run('bind', 'fixtures/panel', '--case', 'one')
    expect(bound.code).toBe(1)
    expect(bound.stderr).toContain(
      'fixtures/panel/adjudications.json › adoptions[0] › review_sha256 (case "one"): the adopted review changed since dana adjudicated it.',
    )
    expect(bound.stderr).toContain('fix:      adjudicate the case again (vitest-rubric adjudicate fixtures/panel --case one --adjudicator <name>)')
    const adjudicated = await run('adjudicate', 'fixtures/panel', '--case', 'one', '--adjudicator', 'dana', '--take', 'alice')
    expect(adjudicated.stderr).toBe('')
    expect((await decision()).status).toBe('accepted')
  })
})

describe('a scored fixture with a stale adoption', () => {
  test('is refused with ADOPTION_STALE by every command and in Vitest, and adjudicated again; a baseline adoption resolves only the baseline reviewers', {
    timeout: 120_000,
  }, async () => {
    const root = await bundledProject(['debate-benchmark'])
    const dir = join(root, 'fixtures/debate-benchmark')
    const run: Run = (...args) => runCli(args, root)
    const annotations = JSON.parse(await readFile(join(dir, 'annotations.json'), 'utf8')).reviews as Record<string, unknown>[]
    const draftOf = (system: string) =>
      Object.fromEntries(
        Object.entries(annotations.find((review) => review['case_id'] === 'partial-recall' && review['system'] === system)!).filter(
          ([key]) => !['case_id', 'system', 'rubric_sha256', 'spec_sha256', 'output_sha256'].includes(key),
        ),
      )
    await writeFile(join(root, 'debate.json'), JSON.stringify(draftOf('debate')))
    await writeFile(join(root, 'baseline.json'), JSON.stringify(draftOf('baseline')))
    const reviewed = async (reviewer: string, system: string) => {
      const result = await run(
        'review',
        'fixtures/debate-benchmark',
        '--case',
        'partial-recall',
        '--system',
        system,
        '--reviewer',
        reviewer,
        '--from',
        `${system}.json`,
      )
      expect(result.stderr).toBe('')
    }
    await reviewed('alice', 'debate')
    await reviewed('bob', 'debate')
    await reviewed('alice', 'baseline')
    const decision = async () => JSON.parse((await run('evaluate', 'fixtures/debate-benchmark', '--json')).stdout).decisions['partial-recall']
    // The adopted reviews in annotations.json were not adopted by an adjudication: they no longer decide the case.
    expect(await decision()).toMatchObject({
      status: 'pending',
      reason:
        'the debate review in fixtures/debate-benchmark/annotations.json was not adopted by an adjudication, and an adoption decides a case with independent reviews: run `vitest-rubric adjudicate fixtures/debate-benchmark --case partial-recall --system debate --adjudicator <name>`; 2 reviews agree, not adopted yet',
    })
    expect((await run('adjudicate', 'fixtures/debate-benchmark', '--consensus', '--adjudicator', 'dana')).stdout).toContain(
      'partial-recall (debate): adopted a review resolving alice, bob, then decided pending (the baseline review in',
    )
    const baseline = await run(
      'adjudicate',
      'fixtures/debate-benchmark',
      '--case',
      'partial-recall',
      '--system',
      'baseline',
      '--adjudicator',
      'dana',
      '--take',
      'alice',
    )
    expect(baseline.stdout).toContain('partial-recall (baseline): adopted a review resolving alice, which decides nothing by itself; the case is accepted')
    const adoptions = JSON.parse(await readFile(join(dir, 'adjudications.json'), 'utf8')).adoptions as { slot: string; resolved: Record<string, string> }[]
    expect(adoptions.map((adoption) => `${adoption.slot}: ${Object.keys(adoption.resolved).join(', ')}`)).toEqual(['debate: alice, bob', 'baseline: alice'])
    expect((await decision()).status).toBe('accepted')

    // bob withdraws his review: the debate adoption is stale, and every command says so instead of crashing.
    await rm(join(dir, 'reviews/bob.json'))
    const refused = await decision()
    expect(refused).toMatchObject({ status: 'refused', error: { code: 'ADOPTION_STALE' }, baseline: { status: 'scored' } })
    expect(refused.error.message).toMatchInlineSnapshot(`
      "fixtures/debate-benchmark/adjudications.json › adoptions[0] › resolved › bob (case "partial-recall"): the adoption resolved bob's review cbc656b97ba9…, which no longer exists.
        found:    cbc656b97ba96ac8051d17d1a649c2f3bc1d582883da9561441522c77a0c9653
        fix:      adjudicate the case again (vitest-rubric adjudicate fixtures/debate-benchmark --case partial-recall --system debate --adjudicator <name>): an adoption stands only for the reviews it resolved."
    `)
    const listed = await run('status', 'fixtures/debate-benchmark')
    expect(listed.code).toBe(1)
    expect(listed.stdout).toContain(
      `    partial-recall: fixtures/debate-benchmark/adjudications.json › adoptions[0] › resolved › bob (case "partial-recall"): the adoption resolved bob's review`,
    )
    const text = await run('evaluate', 'fixtures/debate-benchmark')
    expect(text.stderr).toBe('')
    expect(text.stdout).toContain('  refused partial-recall:\n    fixtures/debate-benchmark/adjudications.json › adoptions[0] › resolved › bob')
    const vitest = await runVitest({ root })
    expect(vitest.stderr).not.toContain('TypeError')
    expect(vitest.tests.find((item) => item.name.startsWith('partial-recall'))?.state).toBe('failed')
    const replaced = await run(
      'review',
      'fixtures/debate-benchmark',
      '--case',
      'partial-recall',
      '--system',
      'debate',
      '--reviewer',
      'alice',
      '--replace',
      '--from',
      'debate.json',
    )
    expect(replaced.stderr).toBe('')
    const again = await run(
      'adjudicate',
      'fixtures/debate-benchmark',
      '--case',
      'partial-recall',
      '--system',
      'debate',
      '--adjudicator',
      'dana',
      '--take',
      'alice',
    )
    expect(again.stderr).toBe('')
    expect(again.stdout).toContain('partial-recall (debate): adopted a review resolving alice, then decided accepted')
    expect((await decision()).status).toBe('accepted')
  })
})
