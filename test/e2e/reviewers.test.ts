import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test, vi } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { runVitest } from '../helpers/run-vitest.js'
import { scratchDir } from '../helpers/scratch.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support'] as const

/** `--rating c=r --reason c=…` for every criterion: meets unless `ratings` says otherwise. */
function judged(reviewer: string, ratings: Partial<Record<(typeof CRITERIA)[number], string>> = {}): string[] {
  return CRITERIA.flatMap((criterion) => {
    const rating = ratings[criterion] ?? 'meets'
    return ['--rating', `${criterion}=${rating}`, '--reason', `${criterion}=${reviewer} judged it ${rating}.`]
  })
}

/** A fixture of four bundled answers, each reviewed independently by alice, bob and carol, with disagreements on two criteria. */
async function reviewedByThree(): Promise<{
  root: string
  dir: string
  run: (...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>
}> {
  const root = await scratchDir('reviewers')
  const run = (...args: string[]) => runCli(args, root)
  expect((await run('init', 'fixtures/panel', '--template', 'docuctl')).code).toBe(0)
  const bundled = JSON.parse(await readFile(join(DOCUCTL, 'cases.json'), 'utf8')).cases as {
    id: string
    input: { answer: { text: string; citation: string } }
  }[]
  const answers = Object.fromEntries(bundled.map((entry) => [entry.id, entry.input.answer]))
  const cases = ['complete', 'paraphrase', 'unsupported-guarantee', 'missing-verification']
  await writeFile(join(root, 'cases.json'), JSON.stringify(cases.map((id) => ({ id, answer: answers[id]!.text, citation: answers[id]!.citation }))))
  expect((await run('add', 'fixtures/panel', '--from', 'cases.json')).code).toBe(0)
  const plans: Record<string, Record<string, Partial<Record<(typeof CRITERIA)[number], string>>>> = {
    complete: { alice: {}, bob: {}, carol: {} },
    paraphrase: { alice: {}, bob: { support: 'does_not_meet' }, carol: {} },
    'unsupported-guarantee': { alice: { support: 'does_not_meet' }, bob: { support: 'does_not_meet' }, carol: { support: 'does_not_meet' } },
    'missing-verification': { alice: { verification: 'does_not_meet' }, bob: { verification: 'does_not_meet' }, carol: { verification: 'uncertain' } },
  }
  for (const [id, byReviewer] of Object.entries(plans)) {
    for (const [reviewer, ratings] of Object.entries(byReviewer)) {
      const result = await run('review', 'fixtures/panel', '--case', id, '--reviewer', reviewer, ...judged(reviewer, ratings))
      expect(result.stderr, `${reviewer} on ${id}`).toBe('')
    }
  }
  return { root, dir: join(root, 'fixtures/panel'), run }
}

describe('several reviewers', () => {
  test('three reviewers, disagreeing on two criteria: pending with reasons, agreement figures, adjudication, and a stale adoption refused', {
    timeout: 120_000,
  }, async () => {
    const { root, dir, run } = await reviewedByThree()
    // Independent reviews decide nothing: every case waits, and says why.
    const pending = JSON.parse((await run('evaluate', 'fixtures/panel', '--json')).stdout).decisions
    expect(
      Object.fromEntries(
        Object.entries(pending).map(([id, decision]) => [id, `${(decision as { status: string }).status}: ${(decision as { reason: string }).reason}`]),
      ),
    ).toEqual({
      complete: 'pending: 3 reviews agree, not adopted yet',
      paraphrase: 'pending: reviewers disagree on support (alice: meets, bob: does_not_meet, carol: meets)',
      'unsupported-guarantee': 'pending: 3 reviews agree, not adopted yet',
      'missing-verification': 'pending: reviewers disagree on verification (alice: does_not_meet, bob: does_not_meet, carol: uncertain)',
    })
    // A known failure stays in the ratings of a pending case.
    expect(pending['unsupported-guarantee'].ratings.support).toBe('does_not_meet')

    const first = await runVitest({ root })
    expect(first.tests.map((item) => `${item.name}: ${item.state}`)).toEqual([
      'complete — pending: 3 reviews agree, not adopted yet: todo',
      'paraphrase — pending: reviewers disagree on support (alice: meets, bob: does_not_meet, carol: meets): todo',
      'unsupported-guarantee — pending: 3 reviews agree, not adopted yet: todo',
      'missing-verification — pending: reviewers disagree on verification (alice: does_not_meet, bob: does_not_meet, carol: uncertain): todo',
    ])
    expect(first.stdout).toContain('    review agreement    3 reviewers (alice, bob, carol) · 4 cases · nominal α\n')
    // Four cases are too few for a bootstrap interval: alpha is shown without one.
    expect(first.stdout).toMatch(/\n {6}support {11}α -?\d\.\d{3} · 4 cases · 1 disagreeing\n/)
    expect(first.stdout).toContain('      command           no figure: no variation: every pairable value is "meets"\n')
    expect(first.stdout).toContain('      disagreements     paraphrase: reviewers disagree on support')

    // The agreement command: the same figures, as JSON.
    const report = JSON.parse((await run('agreement', 'fixtures/panel', '--json')).stdout)
    expect(report.reviewers).toEqual(['alice', 'bob', 'carol'])
    expect(report.criteria.command).toMatchObject({ alpha: null, alpha_ci: null, units: 4, disagreements: [] })
    expect(report.criteria.support.disagreements).toEqual(['paraphrase'])
    expect(report.criteria.verification.disagreements).toEqual(['missing-verification'])

    // Consensus adopts the cases whose reviewers agree with no uncertainty; a person adjudicates the rest.
    const consensus = await run('adjudicate', 'fixtures/panel', '--consensus', '--adjudicator', 'dana')
    expect(consensus.stdout).toContain('complete: adopted a review resolving alice, bob, carol, then decided accepted')
    expect(consensus.stdout).toContain('unsupported-guarantee: adopted a review resolving alice, bob, carol, then decided rejected (support)')
    expect(consensus.stdout).toContain('left paraphrase: reviewers disagree on support')
    expect(consensus.stdout).toContain('left missing-verification: reviewers disagree on verification')
    const adjudicated = await run('adjudicate', 'fixtures/panel', '--case', 'paraphrase', '--adjudicator', 'dana', '--take', 'alice')
    expect(adjudicated.stdout).toContain('paraphrase: adopted a review resolving alice, bob, carol, then decided accepted')
    const adoptions = JSON.parse(await readFile(join(dir, 'adjudications.json'), 'utf8')).adoptions
    expect(adoptions.map((adoption: { case_id: string; adjudicator: string }) => `${adoption.case_id} by ${adoption.adjudicator}`)).toEqual([
      'complete by dana',
      'unsupported-guarantee by dana',
      'paraphrase by dana',
    ])

    const second = await runVitest({ root })
    expect(second.tests.map((item) => `${item.name}: ${item.state}`)).toEqual([
      'complete: passed',
      'paraphrase: passed',
      'unsupported-guarantee: failed',
      'missing-verification — pending: reviewers disagree on verification (alice: does_not_meet, bob: does_not_meet, carol: uncertain): todo',
    ])

    // An independent review edited after the adoption makes it stale: the case is pending until adjudicated again.
    const bobs = join(dir, 'reviews/bob.json')
    await writeFile(bobs, (await readFile(bobs, 'utf8')).replace('bob judged it does_not_meet.', 'bob now judges it does_not_meet.'))
    const stale = JSON.parse((await run('evaluate', 'fixtures/panel', '--json')).stdout).decisions.paraphrase
    expect(stale.status).toBe('pending')
    expect(stale.reason).toBe(
      "bob's review changed after the adoption; adjudicate again (`vitest-rubric adjudicate fixtures/panel --case paraphrase --adjudicator <name>`): reviewers disagree on support (alice: meets, bob: does_not_meet, carol: meets)",
    )
    // A resolved review withdrawn refuses the case: the adoption no longer stands for what it resolved.
    await rm(join(dir, 'reviews/carol.json'))
    const withdrawn = JSON.parse((await run('evaluate', 'fixtures/panel', '--json')).stdout).decisions.complete
    expect(withdrawn.status).toBe('refused')
    expect(withdrawn.error.code).toBe('ADOPTION_STALE')
    expect(withdrawn.error.message).toMatch(
      /^fixtures\/panel\/adjudications\.json › adoptions\[0\] › resolved › carol \(case "complete"\): the adoption resolved carol's review [0-9a-f]{12}…, which no longer exists\./,
    )
    expect(withdrawn.error.message).toContain(
      'fix:      adjudicate the case again (vitest-rubric adjudicate fixtures/panel --case complete --adjudicator <name>)',
    )
  })

  test('agreement leaves out, counts out and names a case whose every independent review went stale', async () => {
    const { dir, run } = await reviewedByThree()
    const before = JSON.parse((await run('agreement', 'fixtures/panel', '--json')).stdout)
    expect(before).toMatchObject({ cases: 4, refused_cases: [] })
    const casesFile = join(dir, 'cases.json')
    const cases = JSON.parse(await readFile(casesFile, 'utf8')) as { cases: { id: string; input: { answer: { text: string } } }[] }
    cases.cases.find((entry) => entry.id === 'paraphrase')!.input.answer.text += ' Edited.'
    await writeFile(casesFile, JSON.stringify(cases, null, 2))
    const json = JSON.parse((await run('agreement', 'fixtures/panel', '--json')).stdout)
    expect(json).toMatchObject({ cases: 3, refused_cases: [{ id: 'paraphrase', code: 'REVIEW_ANSWER_STALE' }] })
    // Its disagreement on support went with it.
    expect(json.criteria.support.disagreements).toEqual([])
    const text = (await run('agreement', 'fixtures/panel')).stdout
    expect(text).toContain('3 cases reviewed independently')
    expect(text).toContain(
      '  left out: 1 case whose every independent review is refused (REVIEW_ANSWER_STALE; `vitest-rubric status` says what to do): paraphrase',
    )
  })

  test('a minimum of reviews keeps a case with fewer pending, in the CLI and in Vitest', async () => {
    const { root, run } = await reviewedByThree()
    // --consensus under a minimum the cases lack adopts none, and says why as evaluate does, not that the reviews agree.
    const short = await run('adjudicate', 'fixtures/panel', '--consensus', '--adjudicator', 'dana', '--min-reviews', '4')
    expect(short.stdout).toContain('left complete: 3 of 4 required reviews')
    expect(short.stdout).not.toMatch(/reviews agree, not adopted yet/)
    await run('adjudicate', 'fixtures/panel', '--consensus', '--adjudicator', 'dana')
    const decisions = JSON.parse((await run('evaluate', 'fixtures/panel', '--json', '--min-reviews', '4')).stdout).decisions
    expect(decisions.complete).toMatchObject({ status: 'pending', reason: '3 of 4 required reviews' })
    const run4 = await runVitest({ root, plugin: { reviewers: { min: 4 } } })
    expect(run4.tests.find((item) => item.name.startsWith('complete'))?.name).toBe('complete — pending: 3 of 4 required reviews')
  })

  test('a case with one independent review is listed for an adoption of it or a second review, not for --consensus, which adopts two or more', async () => {
    const root = await scratchDir('reviewers')
    const run = (...args: string[]) => runCli(args, root)
    expect((await run('init', 'fixtures/one', '--template', 'docuctl')).code).toBe(0)
    expect((await run('add', 'fixtures/one', '--id', 'alone', '--answer', 'Run `docuctl releases rollback r41`.', '--citation', 'guide')).code).toBe(0)
    expect((await run('review', 'fixtures/one', '--case', 'alone', '--reviewer', 'alice', ...judged('alice'))).code).toBe(0)
    const status = await run('status', 'fixtures/one')
    expect(status.stdout).not.toContain('reviewers agree, not adopted')
    expect(status.stdout).toContain(
      'one review, not adopted (1): adopt it with `vitest-rubric adjudicate fixtures/one --case <id> --take <reviewer>`, or add a second independent review (`vitest-rubric review fixtures/one --case <id> --reviewer <name>`): `--consensus` adopts only two or more reviews that agree\n    alone: 1 review, not adopted yet',
    )
    // What status says works: --take adopts it.
    expect((await run('adjudicate', 'fixtures/one', '--case', 'alone', '--adjudicator', 'dana', '--take', 'alice')).code).toBe(0)
    expect((await run('status', 'fixtures/one')).stdout).not.toContain('not adopted')
  })

  test('the agreement gate adds a check per criterion: it fails with the figures, and is todo where there is no figure', async () => {
    const { root } = await reviewedByThree()
    const summary = join(root, 'summary.md')
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary)
    const run = await runVitest({ root, plugin: { agreement: { min: 0.667 } } }).finally(() => vi.unstubAllEnvs())
    const checks = run.tests.filter((item) => item.name.startsWith('reviewers agree'))
    expect(checks.map((item) => `${item.name.split(' — ')[0]}: ${item.state}`)).toEqual([
      'reviewers agree on command (α ≥ 0.667): todo',
      'reviewers agree on preconditions (α ≥ 0.667): todo',
      'reviewers agree on database_scope (α ≥ 0.667): todo',
      'reviewers agree on verification (α ≥ 0.667): passed',
      'reviewers agree on support (α ≥ 0.667): failed',
    ])
    // Four cases are too few for a bootstrap interval: the check says so rather than show one.
    expect(checks[4]!.errors[0]).toMatch(
      /^alpha -?\d\.\d{3} \(no interval: cases to resample: 4, fewer than the 10 a bootstrap interval needs\) < 0\.667 over 4 cases; disagreements: paraphrase$/,
    )
    // The terminal block and the job summary read a todo as a todo, as Vitest does: never a failure.
    const block = run.stdout.slice(run.stdout.indexOf(' Rubric coverage'))
    expect(
      block
        .split('\n')
        .filter((line) => line.includes('reviewers agree on'))
        .map((line) => line.replace(/\(no interval: .*$/, '…')),
    ).toMatchInlineSnapshot(`
      [
        "    ○ reviewers agree on command (α ≥ 0.667) (todo): no figure: no variation: every pairable value is "meets"",
        "    ○ reviewers agree on preconditions (α ≥ 0.667) (todo): no figure: no variation: every pairable value is "meets"",
        "    ○ reviewers agree on database_scope (α ≥ 0.667) (todo): no figure: no variation: every pairable value is "meets"",
        "    ✓ reviewers agree on verification (α ≥ 0.667): alpha 1.000 …",
        "    ✗ reviewers agree on support (α ≥ 0.667): alpha 0.656 …",
      ]
    `)
    const markdown = await readFile(summary, 'utf8')
    expect(
      markdown
        .slice(markdown.indexOf('**Checks**'))
        .split('\n\n')
        .slice(0, 2)
        .join('\n\n')
        .replace(/alpha -?\d\.\d{3}/g, 'alpha …'),
    ).toMatchInlineSnapshot(`
      "**Checks** of \`fixtures/panel\`:

      - ○ todo: reviewers agree on command (α ≥ 0.667): no figure: no variation: every pairable value is "meets"
      - ○ todo: reviewers agree on preconditions (α ≥ 0.667): no figure: no variation: every pairable value is "meets"
      - ○ todo: reviewers agree on database_scope (α ≥ 0.667): no figure: no variation: every pairable value is "meets"
      - ✓ passed: reviewers agree on verification (α ≥ 0.667): alpha … (no interval: cases to resample: 4, fewer than the 10 a bootstrap interval needs) ≥ 0.667 over 4 cases; disagreements: missing-verification
      - ✗ failed: reviewers agree on support (α ≥ 0.667): alpha … (no interval: cases to resample: 4, fewer than the 10 a bootstrap interval needs) < 0.667 over 4 cases; disagreements: paraphrase"
    `)
  })
})

describe('several reviewers: status after a source edit', () => {
  test("each reviewer's stale reviews are listed once, under the command that revises them, with the cases", async () => {
    const { dir, run } = await reviewedByThree()
    const source = join(dir, 'source.txt')
    await writeFile(source, `${await readFile(source, 'utf8')}\nA later note: rollbacks are logged.\n`)
    const status = await run('status', 'fixtures/panel')
    expect(status.code).toBe(1)
    const lines = status.stdout.split('\n').filter((line) => line.includes('--reviewer alice') || line.includes('reviews/alice.json'))
    expect(lines.map((line) => line.replaceAll(/[0-9a-f]{12}…/g, '<sha>'))).toMatchInlineSnapshot(`
      [
        "    \`vitest-rubric review fixtures/panel --case <id> --reviewer alice --replace\` (or, if alice's judgements still hold, \`vitest-rubric bind fixtures/panel --case <id> --reviewer alice\`) for 4 cases: complete, paraphrase, unsupported-guarantee, missing-verification",
        "      fixtures/panel/reviews/alice.json › source_sha256 <sha> → <sha>",
      ]
    `)
  })
})

describe('several reviewers: bad input, with a clear error and nothing lost', () => {
  test('a reviewer file in another format, a review of an unknown case, and one reviewer reviewing a case twice', async () => {
    const { dir, run } = await reviewedByThree()
    const alice = join(dir, 'reviews/alice.json')
    const original = await readFile(alice, 'utf8')

    await writeFile(alice, JSON.stringify({ reviews: {} }))
    let result = await run('evaluate', 'fixtures/panel')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      /^fixtures\/panel\/reviews\/alice\.json: a required value is missing\.|^fixtures\/panel\/reviews\/alice\.json › (origin|reviews): /,
    )

    const document = JSON.parse(original)
    await writeFile(alice, JSON.stringify({ ...document, reviews: [...document.reviews, { ...document.reviews[0], answer_id: 'no-such-case' }] }))
    result = await run('evaluate', 'fixtures/panel')
    expect(result.stderr).toMatch(
      /^fixtures\/panel\/reviews\/alice\.json › reviews\[4\] › answer_id: the review names a case that fixtures\/panel\/cases\.json does not hold\./,
    )

    await writeFile(alice, JSON.stringify({ ...document, reviews: [...document.reviews, document.reviews[0]] }))
    result = await run('evaluate', 'fixtures/panel')
    expect(result.stderr).toMatch(/^fixtures\/panel\/reviews\/alice\.json › reviews\[4\] › answer_id: case "complete" already has a review at reviews\[0\]/)
    // Nothing was rewritten behind the user's back: the file is as they left it.
    expect(JSON.parse(await readFile(alice, 'utf8')).reviews).toHaveLength(5)
  })

  test('an adjudication naming a review that does not exist, and a reviewer name that is not a safe file name', async () => {
    const { dir, run } = await reviewedByThree()
    const before = await readFile(join(dir, 'annotations.json'), 'utf8')
    // What the fixture does not hold is a refusal of the data (exit 1, no usage); a malformed name is a usage error (exit 2).
    const unknown = await run('adjudicate', 'fixtures/panel', '--case', 'paraphrase', '--adjudicator', 'dana', '--pick', 'support=zed')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toBe(
      '--pick support: there is no review of case "paraphrase" by "zed"; nothing was written.\n' +
        '  expected: one of the reviewers of the case: "alice", "bob", "carol"\n' +
        '  fix:      name a reviewer who reviewed the case.\n',
    )
    const taken = await run('adjudicate', 'fixtures/panel', '--case', 'paraphrase', '--adjudicator', 'dana', '--take', 'zed')
    expect(taken.code).toBe(1)
    expect(taken.stderr).toMatch(/^--take: there is no review of case "paraphrase" by "zed"; nothing was written\.\n/)
    const criterion = await run('adjudicate', 'fixtures/panel', '--case', 'paraphrase', '--adjudicator', 'dana', '--take', 'alice', '--pick', 'nocrit=bob')
    expect(criterion.code).toBe(1)
    expect(criterion.stderr).toBe(
      '--pick nocrit: the rubric defines no criterion "nocrit"; nothing was written.\n' +
        '  expected: one of "command", "preconditions", "database_scope", "verification", "support"\n' +
        '  found:    "nocrit"\n' +
        '  fix:      name a criterion of the rubric (vitest-rubric show prints them).\n',
    )
    expect(
      (await run('review', 'fixtures/panel', '--case', 'paraphrase', '--reviewer', 'erin', '--rating', 'command=meets', '--reason', 'command=Met.')).code,
    ).toBe(0)
    const unjudged = await run('adjudicate', 'fixtures/panel', '--case', 'paraphrase', '--adjudicator', 'dana', '--take', 'alice', '--pick', 'support=erin')
    expect(unjudged.code).toBe(1)
    expect(unjudged.stderr).toMatch(/^--pick support: erin did not judge "support"; nothing was written\.\n/)
    const adjudicator = await run('adjudicate', 'fixtures/panel', '--case', 'paraphrase', '--adjudicator', '../elsewhere', '--take', 'alice')
    expect(adjudicator.code).toBe(2)
    expect(adjudicator.stderr).toMatch(
      /^--adjudicator: "\.\.\/elsewhere" is not an adjudicator name; nothing was written\.\n[\s\S]*\nUsage: vitest-rubric adjudicate /,
    )
    const unsafe = await run('review', 'fixtures/panel', '--case', 'complete', '--reviewer', '../elsewhere', ...judged('x'))
    expect(unsafe.code).toBe(2)
    expect(unsafe.stderr).toMatch(/^--reviewer: "\.\.\/elsewhere" is not a reviewer name; nothing was written\./)
    expect(await readFile(join(dir, 'annotations.json'), 'utf8')).toBe(before)

    // An adoption on disk naming a reviewer with no review refuses its case, saying so.
    await run('adjudicate', 'fixtures/panel', '--case', 'complete', '--adjudicator', 'dana', '--take', 'alice')
    const path = join(dir, 'adjudications.json')
    const adoptions = JSON.parse(await readFile(path, 'utf8'))
    adoptions.adoptions[0].resolved.zed = 'a'.repeat(64)
    await writeFile(path, JSON.stringify(adoptions, null, 2))
    const decision = JSON.parse((await run('evaluate', 'fixtures/panel', '--json')).stdout).decisions.complete
    expect(decision.status).toBe('refused')
    expect(decision.error.message).toContain("the adoption resolved zed's review aaaaaaaaaaaa…, which no longer exists.")
  })

  test('a second review by the same reviewer needs --replace; the review is blind to the others', async () => {
    const { run } = await reviewedByThree()
    const again = await run('review', 'fixtures/panel', '--case', 'complete', '--reviewer', 'alice', ...judged('alice'))
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/the case has a review by alice already; nothing was written\./)
    const replaced = await run('review', 'fixtures/panel', '--case', 'paraphrase', '--reviewer', 'bob', '--replace', ...judged('bob'))
    // The reviewer sees what their own review decides, never the panel's reasons (which name the others' ratings).
    expect(replaced.stdout).toContain('paraphrase by bob: replaced the review, which alone would decide accepted')
    expect(replaced.stdout).not.toContain('alice')
  })
})

test('a scored fixture: independent reviews of the debate output, compared dimension by dimension at the interval level', async () => {
  const { copyDebate } = await import('../helpers/scored-copy.js')
  const copy = await copyDebate()
  const annotations = await copy.readJson<{ reviews: Record<string, unknown>[] }>('annotations.json')
  const adopted = annotations.reviews.find((review) => review['case_id'] === 'partial-recall' && review['system'] === 'debate')!
  const draft = Object.fromEntries(
    Object.entries(adopted).filter(([key]) => !['case_id', 'system', 'rubric_sha256', 'spec_sha256', 'output_sha256'].includes(key)),
  )
  await writeFile(join(copy.dir, 'same.json'), JSON.stringify(draft))
  const other = structuredClone(draft) as { claims: { credit?: string }[] }
  other.claims[1]!.credit = 'full'
  await writeFile(join(copy.dir, 'other.json'), JSON.stringify(other))
  for (const [reviewer, file] of [
    ['alice', 'same.json'],
    ['bob', 'other.json'],
  ]) {
    const result = await runCli(['review', '.', '--case', 'partial-recall', '--system', 'debate', '--reviewer', reviewer!, '--from', file!], copy.dir)
    expect(result.stderr).toBe('')
  }
  const report = JSON.parse((await runCli(['agreement', '.', '--json'], copy.dir)).stdout)
  expect(report.level).toBe('interval')
  expect(Object.keys(report.dimensions)).toContain('issue_discovery_recall')
  expect(report.dimensions.issue_discovery_recall.disagreements).toEqual(['partial-recall'])
  expect(report.dimensions.defense_calibration.disagreements).toEqual([])
  // Only one case is reviewed twice: one unit, no variation to speak of in most dimensions.
  expect(report.dimensions.defense_calibration.alpha).toBeNull()
  // The adopted review was written without an adjudication: once the case has independent reviews, only an adoption decides it.
  expect(JSON.parse((await runCli(['evaluate', '.', '--json'], copy.dir)).stdout).decisions['partial-recall']).toMatchObject({
    status: 'pending',
    reason: expect.stringContaining(
      'was not adopted by an adjudication, and an adoption decides a case with independent reviews: run `vitest-rubric adjudicate . --case partial-recall --system debate --adjudicator <name>`',
    ),
  })
})
