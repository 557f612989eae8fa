import { createHash } from 'node:crypto'
import { readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { git, recordsRepository } from '../helpers/records-repository.js'

/**
 * Two people record work on a fixture in the records layout, each on a branch of a real git
 * repository, and merge: work on different cases merges with no conflict and decides as if it had
 * been done on one branch; one record revised on both sides is a fork the fixture names, never a
 * silent pick.
 */

const FIX = 'fixtures/lab'
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

type Step = readonly string[]

/** The fix a git conflict marker in a record file is refused with. */
const MERGE_FIX =
  "fix:      run `git merge --abort`, make sure `records/.gitattributes` holds `*.jsonl merge=union` (`vitest-rubric convert` writes it), and merge the branches one at a time: an octopus merge (`git merge a b`) runs no merge driver. Do not settle a record file with `git checkout --theirs` or `--ours`: that keeps one side's records only."

/** A review given on the command line: every criterion `meets`, or the ones named `does_not_meet`. */
function review(caseId: string, extra: readonly string[] = [], failing: readonly string[] = []): Step {
  const args = ['review', FIX, '--case', caseId, ...extra]
  for (const criterion of CRITERIA) {
    args.push(
      '--rating',
      `${criterion}=${failing.includes(criterion) ? 'does_not_meet' : 'meets'}`,
      '--reason',
      `${criterion}=checked ${caseId}`,
      '--span',
      `${criterion}=`,
    )
  }
  return args
}

function add(id: string): Step {
  return ['add', FIX, '--id', id, '--answer', `An answer numbered ${id}.`, '--citation', 'docuctl 3 guide']
}

async function run(cwd: string, steps: readonly Step[]): Promise<void> {
  for (const step of steps) {
    const result = await runCli(step, cwd)
    expect(result.code, `${step.join(' ')}\n${result.stdout}${result.stderr}`).toBe(0)
  }
}

/** A repository whose main branch holds the bundled docuctl fixture in the records layout. */
const repository = (): Promise<string> => recordsRepository('git')

async function onBranch(root: string, branch: string, steps: readonly Step[]): Promise<void> {
  git(root, 'checkout', '-q', '-b', branch, 'main')
  await run(root, steps)
  git(root, 'add', '-A')
  git(root, 'commit', '-q', '-m', branch)
  git(root, 'checkout', '-q', 'main')
}

/** Each case's decision: what `evaluate --json` says of every case, in order. */
async function decisions(cwd: string): Promise<unknown> {
  const result = await runCli(['evaluate', FIX, '--json'], cwd)
  const evaluation = JSON.parse(result.stdout) as { decisions: Record<string, { status: string; reason: string }> }
  return Object.entries(evaluation.decisions).map(([id, { status, reason }]) => ({ id, status, reason }))
}

/** Merges each branch into main in turn (git's octopus merge runs no merge driver), and the merged fixture's decisions beside those of the same work done on one branch. */
async function mergeAndCompare(branches: Readonly<Record<string, readonly Step[]>>): Promise<{ root: string; merged: unknown; sequential: unknown }> {
  const root = await repository()
  for (const [branch, steps] of Object.entries(branches)) await onBranch(root, branch, steps)
  for (const branch of Object.keys(branches)) git(root, 'merge', '-q', '--no-edit', branch)
  expect(git(root, 'status', '--porcelain')).toBe('')
  const merged = await decisions(root)
  const single = await repository()
  await run(single, Object.values(branches).flat())
  return { root, merged, sequential: await decisions(single) }
}

describe('git merges work on different cases with no conflict', () => {
  test('new cases added on two branches', async () => {
    const { root, merged, sequential } = await mergeAndCompare({ ana: [add('added-by-ana')], ben: [add('added-by-ben')] })
    expect(merged).toEqual(sequential)
    expect((merged as { id: string }[]).map((each) => each.id)).toEqual(expect.arrayContaining(['added-by-ana', 'added-by-ben']))
    const status = await runCli(['status', FIX], root)
    expect(status.stdout).toMatch(/unreviewed \(3\)/) // the two new cases wait for a review beside not-reviewed; nothing forked
    expect(status.stdout).not.toMatch(/revised apart/)
  })

  test('direct reviews of different cases', async () => {
    const { merged, sequential } = await mergeAndCompare({
      ana: [review('not-reviewed')],
      ben: [review('uncertain-wording', ['--replace'], ['support'])],
    })
    expect(merged).toEqual(sequential)
    expect(merged).toEqual(
      expect.arrayContaining([
        { id: 'not-reviewed', status: 'accepted', reason: '' },
        { id: 'uncertain-wording', status: 'rejected', reason: 'support' },
      ]),
    )
  })

  test("one reviewer's reviews from two machines, and several reviewers", async () => {
    const { root, merged, sequential } = await mergeAndCompare({
      laptop: [review('complete', ['--reviewer', 'alice'])],
      desktop: [review('paraphrase', ['--reviewer', 'alice'])],
      bob: [review('negation', ['--reviewer', 'bob'], ['support'])],
    })
    expect(merged).toEqual(sequential)
    const show = await runCli(['agreement', FIX], root)
    expect(show.stdout).toMatch(/alice/)
    expect(show.stdout).toMatch(/bob/)
  })

  test('adoptions of different cases', async () => {
    const both = (caseId: string) => [review(caseId, ['--reviewer', 'alice', '--replace']), review(caseId, ['--reviewer', 'bob', '--replace'])]
    const { merged, sequential } = await mergeAndCompare({
      ana: [...both('not-reviewed'), ['adjudicate', FIX, '--case', 'not-reviewed', '--adjudicator', 'dana', '--take', 'alice']],
      ben: [...both('uncertain-wording'), ['adjudicate', FIX, '--case', 'uncertain-wording', '--adjudicator', 'erin', '--take', 'bob']],
    })
    expect(merged).toEqual(sequential)
    expect(merged).toEqual(expect.arrayContaining([{ id: 'not-reviewed', status: 'accepted', reason: '' }]))
  })

  test("a judge's labels on different cases", async () => {
    const { root, merged, sequential } = await mergeAndCompare({
      ana: [review('complete', ['--judge', 'kw'])],
      ben: [review('wrong-command', ['--judge', 'kw'], ['command'])],
    })
    expect(merged).toEqual(sequential)
    const calibration = await runCli(['calibrate', FIX, '--judge', 'kw'], root)
    expect(calibration.stdout).toMatch(/2 (cases|pairs)/)
  })
})

describe('the very same change made on two branches is one revision', () => {
  test('the same case added and given the same first review on two machines: no fork, decided as on one branch, and revised once after', async () => {
    const steps = [add('on-both'), review('on-both')]
    const root = await repository()
    await onBranch(root, 'laptop', steps)
    // A later save is placed later: the two branches' entries differ in their place alone.
    await new Promise((done) => setTimeout(done, 20))
    await onBranch(root, 'desktop', steps)
    git(root, 'merge', '-q', '--no-edit', 'laptop')
    git(root, 'merge', '-q', '--no-edit', 'desktop')
    const status = await runCli(['status', FIX], root)
    expect(status.stdout).not.toMatch(/revised apart/)
    expect(status.code, status.stdout).toBe(0)
    const single = await repository()
    await run(single, steps)
    expect(await decisions(root)).toEqual(await decisions(single))
    // A revision after the merge replaces both sides' lines: neither comes back as a fork.
    await run(root, [review('on-both', ['--replace'], ['support'])])
    const revised = await runCli(['status', FIX], root)
    expect(revised.stdout).not.toMatch(/revised apart/)
    expect(await decisions(root)).toEqual(expect.arrayContaining([{ id: 'on-both', status: 'rejected', reason: 'support' }]))
  })
})

describe('a revision on one branch of a change made on both replaces both copies', () => {
  /** The merged main's status: no fork named, exit 0. */
  async function settled(root: string): Promise<void> {
    const status = await runCli(['status', FIX], root)
    expect(status.stdout).not.toMatch(/revised apart|made apart/)
    expect(status.code, status.stdout).toBe(0)
  }

  test('the same case added on two branches, then reviewed on one before the merge: no fork, decided as on one branch', async () => {
    const root = await repository()
    await onBranch(root, 'ana', [add('on-both')])
    await new Promise((done) => setTimeout(done, 20))
    await onBranch(root, 'ben', [add('on-both')])
    git(root, 'merge', '-q', '--no-edit', 'ana')
    git(root, 'merge', '-q', '--no-edit', 'ben')
    await settled(root)
    // ana reviews the case on her branch, where only her copy of it is: the review replaces that copy alone.
    git(root, 'checkout', '-q', 'ana')
    await run(root, [review('on-both', [], ['support'])])
    git(root, 'commit', '-q', '-am', 'ana reviews')
    git(root, 'checkout', '-q', 'main')
    git(root, 'merge', '-q', '--no-edit', 'ana')
    await settled(root)
    expect(await decisions(root)).toEqual(expect.arrayContaining([{ id: 'on-both', status: 'rejected', reason: 'support' }]))
  })

  test('a convert round trip on main, merged with a branch made before it that revised a case: no fork', async () => {
    const root = await repository()
    await onBranch(root, 'alice', [review('paraphrase', ['--replace'], ['support'])])
    await run(root, [
      ['convert', FIX, '--to', 'seed'],
      ['convert', FIX, '--to', 'records'],
    ])
    git(root, 'add', '-A')
    git(root, 'commit', '-q', '-m', 'round trip')
    git(root, 'merge', '-q', '--no-edit', 'alice')
    await settled(root)
    const single = await repository()
    await run(single, [review('paraphrase', ['--replace'], ['support'])])
    expect(await decisions(root)).toEqual(await decisions(single))
  })

  test("a judge's sharded first run merged from three branches, then a run on main that changes the judge's document: no fork", async () => {
    const root = await repository()
    const judge = join(ROOT, 'examples/judges/keyword-judge.mjs')
    for (const shard of ['1/3', '2/3', '3/3']) await onBranch(root, `shard-${shard[0]}`, [['judge', FIX, '--judge', 'kw', '--run', judge, '--shard', shard]])
    for (const shard of ['1', '2', '3']) git(root, 'merge', '-q', '--no-edit', `shard-${shard}`)
    await settled(root)
    // A reworded criterion: the next run carries the other criteria's labels over, which the judge's document records.
    const rubricPath = join(root, FIX, 'rubric.json')
    const rubric = JSON.parse(await readFile(rubricPath, 'utf8')) as { criteria: { rule: string }[] }
    rubric.criteria[4]!.rule += ' (reworded)'
    await writeFile(rubricPath, `${JSON.stringify(rubric, null, 2)}\n`)
    git(root, 'commit', '-q', '-am', 'reword support')
    await run(root, [['judge', FIX, '--judge', 'kw', '--run', judge]])
    // The reworded rubric leaves the cases to bind again (status exits 1 for that); the judge's document is not forked.
    const status = await runCli(['status', FIX], root)
    expect(status.stdout).not.toMatch(/revised apart|made apart|is refused/)
    expect(status.stdout).toMatch(/rule of support reworded/)
  })
})

describe('one record revised on both sides is a fork, never a silent pick', () => {
  test("alice's review of one case revised on two machines: pending, both revisions named, until resolve keeps one", async () => {
    const root = await repository()
    await onBranch(root, 'laptop', [review('not-reviewed')])
    await onBranch(root, 'desktop', [review('not-reviewed', [], ['verification'])])
    git(root, 'merge', '-q', '--no-edit', 'laptop')
    git(root, 'merge', '-q', '--no-edit', 'desktop')
    expect(git(root, 'status', '--porcelain')).toBe('')

    const status = await runCli(['status', FIX], root)
    expect(status.code).toBe(1)
    const saves = [...status.stdout.matchAll(/save ([0-9a-f]{12})/g)].map((match) => match[1]!)
    expect(new Set(saves).size).toBe(2)
    // Pending for its fork, not for a lack of review: the reason names what forked, the saves and the command that settles it.
    const [first, second] = [...new Set(saves)].sort((a, b) => status.stdout.indexOf(a) - status.stdout.indexOf(b))
    const reason = `forked: the case and the review revised apart, by saves ${first}, ${second}; keep one with \`vitest-rubric resolve ${FIX} not-reviewed --keep <save>\``
    const evaluated = await runCli(['evaluate', FIX], root)
    expect(evaluated.stdout).toContain(`not-reviewed: pending (${reason})`)
    expect(evaluated.stdout).not.toContain('not-reviewed: pending (no review)')
    expect(await decisions(root)).toEqual(expect.arrayContaining([{ id: 'not-reviewed', status: 'pending', reason }]))
    expect((await runCli(['decisions', FIX], root)).code).toBe(0)
    const record = JSON.parse(await readFile(join(root, FIX, 'decisions.record.json'), 'utf8')) as {
      decisions: Record<string, { status: string; reason: string }>
    }
    expect(record.decisions['not-reviewed']).toMatchObject({ status: 'pending', reason })
    await rm(join(root, FIX, 'decisions.record.json'))
    expect(status.stdout).toMatch(/case "not-reviewed" was revised apart/)
    // It is listed for resolve alone, not as a case to review: no reviewer's queue hands it out, and everyone's names resolve.
    expect(status.stdout).toContain(
      `records revised apart (1): keep one revision with \`vitest-rubric resolve ${FIX} <id> --keep <save>\` (the note below names the saves)`,
    )
    expect(status.stdout).not.toContain('not-reviewed: no review')
    const queue = async (...who: string[]) => JSON.parse((await runCli(['next', FIX, ...who, '--json'], root)).stdout) as { entries: { caseId: string }[] }
    expect((await queue()).entries.find((entry) => entry.caseId === 'not-reviewed')).toEqual({
      caseId: 'not-reviewed',
      reason: 'unsettled',
      detail: `its records were revised apart: keep one revision with \`vitest-rubric resolve ${FIX} not-reviewed --keep <save>\``,
      criteria: [],
      codes: [],
    })
    for (const reviewer of ['alice', 'bob']) expect((await queue('--reviewer', reviewer)).entries.map((entry) => entry.caseId)).not.toContain('not-reviewed')
    // show says the case is forked and what settles it, in text and in JSON.
    const settle = `\`vitest-rubric resolve ${FIX} not-reviewed --keep <save>\` keeps one revision`
    expect((await runCli(['show', FIX, '--case', 'not-reviewed'], root)).stdout).toContain(
      `\n  forked: its records were revised apart, and it shows no review until ${settle}`,
    )
    expect(JSON.parse((await runCli(['show', FIX, '--case', 'not-reviewed', '--json'], root)).stdout).forked).toContain(settle)
    // Its last line names the fork and the command that settles it, not a stale binding.
    expect(status.stdout.trimEnd().split('\n').at(-1)).toBe(
      `  status: 1 case has records revised apart (not-reviewed): pending until \`vitest-rubric resolve ${FIX} <case> --keep <save>\` keeps one revision`,
    )

    // A change to the forked case waits for the fork to be settled: a review, an adoption, a binding of it.
    for (const step of [
      review('not-reviewed', ['--replace']),
      ['adjudicate', FIX, '--case', 'not-reviewed', '--adjudicator', 'dana', '--take', 'alice'],
      ['bind', FIX, '--case', 'not-reviewed'],
    ]) {
      const refused = await runCli(step, root)
      expect({ step: step[0], code: refused.code }).toEqual({ step: step[0], code: 1 })
      expect(refused.stderr).toMatch(/case "not-reviewed" has records revised apart[\s\S]*vitest-rubric resolve fixtures\/lab not-reviewed --keep <save>/)
    }

    // The desktop's save is the one with the failed criterion.
    const desktop = saves.find((save) => git(root, 'log', '-p', 'desktop', '-1').includes(save))!
    const resolved = await runCli(['resolve', FIX, 'not-reviewed', '--keep', desktop], root)
    expect(resolved.code, resolved.stderr).toBe(0)
    expect(await decisions(root)).toEqual(expect.arrayContaining([{ id: 'not-reviewed', status: 'rejected', reason: 'verification' }]))
    expect((await runCli(['status', FIX], root)).stdout).not.toMatch(/revised apart/)

    // Resolved, the case has no fork left: a second resolve is refused (exit 1, no usage), and so is a case that does not exist.
    const again = await runCli(['resolve', FIX, 'not-reviewed', '--keep', desktop], root)
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/^fixtures\/lab \(case "not-reviewed"\): case "not-reviewed" has no records revised apart; nothing was written\./)
    expect(again.stderr).not.toContain('Usage')
    const unknown = await runCli(['resolve', FIX, 'nosuch', '--keep', desktop], root)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/there is no case "nosuch"; nothing was written\./)
  })

  test("alice's and bob's reviews of one case each revised on two machines: resolve keeps one save's revisions per forked record, given one --keep per save", async () => {
    const root = await repository()
    const as = (reviewer: string, failing: readonly string[]) => review('not-reviewed', ['--reviewer', reviewer, '--replace'], failing)
    await run(root, [review('not-reviewed', ['--reviewer', 'alice']), review('not-reviewed', ['--reviewer', 'bob'])])
    git(root, 'add', '-A')
    git(root, 'commit', '-q', '-m', 'alice and bob review not-reviewed')
    const branches = {
      'alice-laptop': as('alice', ['support']),
      'alice-desktop': as('alice', ['verification']),
      'bob-laptop': as('bob', ['command']),
      'bob-desktop': as('bob', ['preconditions']),
    }
    for (const [branch, step] of Object.entries(branches)) await onBranch(root, branch, [step])
    for (const branch of Object.keys(branches)) git(root, 'merge', '-q', '--no-edit', branch)
    expect(git(root, 'status', '--porcelain')).toBe('')

    const status = await runCli(['status', FIX], root)
    expect(status.code).toBe(1)
    const saves = [...new Set([...status.stdout.matchAll(/save ([0-9a-f]{12})/g)].map((match) => match[1]!))]
    expect(saves).toHaveLength(4)
    const of = (branch: string) => saves.find((save) => git(root, 'log', '-p', branch, '-1').includes(save))!
    // Pending for the fork of both reviewers' reviews, whose settling takes a --keep per save kept.
    const reason = ((await decisions(root)) as { id: string; reason: string }[]).find((decision) => decision.id === 'not-reviewed')?.reason
    expect(reason).toMatch(/^forked: alice's review and bob's review revised apart, by saves [0-9a-f]{12}(, [0-9a-f]{12}){3}; keep one with /)
    expect(reason).toContain('`vitest-rubric resolve fixtures/lab not-reviewed --keep <save> once for each save kept`')
    // No one save revised both reviewers' records: the note asks for a save per record.
    expect(status.stdout).toContain(
      'Keep one revision of each record with `vitest-rubric resolve fixtures/lab not-reviewed --keep <save> --keep <save>`, one --keep for each save whose revisions are kept.',
    )

    // One save alone leaves the other reviewer's record unsettled, and says to add a --keep for it.
    const one = await runCli(['resolve', FIX, 'not-reviewed', '--keep', of('alice-desktop')], root)
    expect(one.code).toBe(1)
    expect(one.stderr).toContain(`no revision of reviews/bob.json of case "not-reviewed" was made by save ${of('alice-desktop')}; nothing was written.`)
    expect(one.stderr).toContain(`expected: one of the saves ${of('bob-laptop')}, ${of('bob-desktop')}`)
    expect(one.stderr).toContain('add a --keep naming one of those saves')
    // Two saves that revised the same record: which one holds would be a guess.
    const both = await runCli(['resolve', FIX, 'not-reviewed', '--keep', of('alice-laptop'), '--keep', of('alice-desktop'), '--keep', of('bob-laptop')], root)
    expect(both.code).toBe(1)
    expect(both.stderr).toContain(
      `saves ${of('alice-laptop')} and ${of('alice-desktop')} both made a revision of reviews/alice.json of case "not-reviewed", so which one holds would be a guess; nothing was written.`,
    )
    // A save that revised none of the forked records.
    const stray = await runCli(['resolve', FIX, 'not-reviewed', '--keep', of('alice-desktop'), '--keep', of('bob-laptop'), '--keep', 'abcdefabcdef'], root)
    expect(stray.code).toBe(1)
    expect(stray.stderr).toContain('save abcdefabcdef made no revision of a forked record of case "not-reviewed"; nothing was written.')
    expect(stray.stderr).toContain(`reviews/alice.json of case "not-reviewed": ${of('alice-laptop')}, ${of('alice-desktop')}`)
    // A save named twice, and a document's fork given two saves, are usage errors.
    const twice = await runCli(['resolve', FIX, 'not-reviewed', '--keep', of('alice-desktop'), '--keep', of('alice-desktop')], root)
    expect({ code: twice.code, first: twice.stderr.split('\n')[0] }).toEqual({
      code: 2,
      first: `vitest-rubric resolve: --keep ${of('alice-desktop')} is given twice; name each save once.`,
    })
    const document = await runCli(['resolve', FIX, '--document', 'annotations.json', '--keep', of('alice-desktop'), '--keep', of('bob-laptop')], root)
    expect({ code: document.code, first: document.stderr.split('\n')[0] }).toEqual({
      code: 2,
      first: 'vitest-rubric resolve: --document keeps one revision of the document: give --keep once, not 2 times.',
    })
    expect(git(root, 'status', '--porcelain')).toBe('')

    // One save for each reviewer's record settles the case, keeping what each save wrote.
    const resolved = await runCli(['resolve', FIX, 'not-reviewed', '--keep', of('alice-desktop'), '--keep', of('bob-laptop')], root)
    expect(resolved.code, resolved.stderr).toBe(0)
    expect(resolved.stdout).toContain(`case "not-reviewed": kept the revisions of saves ${of('alice-desktop')}, ${of('bob-laptop')}`)
    expect((await runCli(['status', FIX], root)).stdout).not.toMatch(/revised apart/)
    await run(root, [['convert', FIX, '--to', 'seed']])
    const failed = async (reviewer: string) => {
      const { reviews } = JSON.parse(await readFile(join(root, FIX, 'reviews', `${reviewer}.json`), 'utf8')) as {
        reviews: { answer_id: string; judgements: Record<string, { rating: string }> }[]
      }
      const kept = reviews.find((each) => each.answer_id === 'not-reviewed')!
      return Object.keys(kept.judgements).filter((criterion) => kept.judgements[criterion]!.rating === 'does_not_meet')
    }
    expect(await failed('alice')).toEqual(['verification'])
    expect(await failed('bob')).toEqual(['command'])
  })

  test('without records/.gitattributes, git conflicts and the fixture names the conflict marker; status says the attributes are missing', async () => {
    const root = await repository()
    git(root, 'rm', '-q', `${FIX}/records/.gitattributes`)
    git(root, 'commit', '-q', '-m', 'no attributes')
    expect((await runCli(['status', FIX], root)).stdout).toMatch(/records\/\.gitattributes does not hold `\*\.jsonl merge=union`/)
    await onBranch(root, 'ana', [review('not-reviewed')])
    await onBranch(root, 'ben', [review('not-reviewed', [], ['command'])])
    git(root, 'merge', '-q', '--no-edit', 'ana')
    expect(() => git(root, 'merge', '-q', '--no-edit', 'ben')).toThrow()
    const evaluated = await runCli(['evaluate', FIX], root)
    expect(evaluated.code).toBe(1)
    expect(evaluated.stderr).toMatch(/git conflict marker/)
    expect(evaluated.stderr).toContain(MERGE_FIX)
  })

  test('an octopus merge conflicts though the attribute is there: the fixture names the marker and says to merge the branches one at a time', async () => {
    const root = await repository()
    await onBranch(root, 'ana', [review('not-reviewed', ['--reviewer', 'ana'])])
    await onBranch(root, 'ben', [review('not-reviewed', ['--reviewer', 'ben'])])
    expect(() => git(root, 'merge', '-q', '--no-edit', 'ana', 'ben')).toThrow()
    expect(git(root, 'diff', '--name-only', '--diff-filter=U')).toMatch(/\.jsonl$/m)
    const evaluated = await runCli(['evaluate', FIX], root)
    expect(evaluated.code).toBe(1)
    expect(evaluated.stderr).toMatch(/: the line is a git conflict marker: git merged this file line by line instead of keeping both sides\./)
    expect(evaluated.stderr).toContain(MERGE_FIX)
  })
})

test('three reviewers of one case, each on a branch, merged in turn: every review is kept', async () => {
  const root = await repository()
  await onBranch(root, 'alice', [review('complete', ['--reviewer', 'alice'])])
  await onBranch(root, 'bob', [review('complete', ['--reviewer', 'bob'])])
  await onBranch(root, 'carol', [review('complete', ['--reviewer', 'carol'], ['support'])])
  for (const branch of ['alice', 'bob', 'carol']) git(root, 'merge', '-q', '--no-edit', branch)
  const files = await readdir(join(root, FIX, 'records'))
  const lines = (await Promise.all(files.filter((name) => name.endsWith('.jsonl')).map((name) => readFile(join(root, FIX, 'records', name), 'utf8')))).join('')
  for (const reviewer of ['alice', 'bob', 'carol']) expect(lines).toContain(`"doc":"reviews/${reviewer}.json"`)
  const agreement = await runCli(['agreement', FIX], root)
  expect(agreement.code, agreement.stderr).toBe(0)
  expect(agreement.stdout).toMatch(/carol/)
})

describe('a compaction on one branch merges with work on another', () => {
  const compact: Step = ['compact', FIX]

  /** Every record line of the fixture and the SHA-256s its compaction lines name. */
  async function recordLines(root: string): Promise<{ lines: string[]; named: Set<string> }> {
    const folder = join(root, FIX, 'records')
    const lines: string[] = []
    const named = new Set<string>()
    for (const name of (await readdir(folder)).filter((each) => each.endsWith('.jsonl'))) {
      for (const line of (await readFile(join(folder, name), 'utf8')).split('\n').filter(Boolean)) {
        if (line.startsWith('{"superseded"')) for (const hash of (JSON.parse(line) as { superseded: string[] }).superseded) named.add(hash)
        else lines.push(line)
      }
    }
    return { lines, named }
  }

  test('compacted on main after two revisions, merged with a branch made before that appends to the same file: no conflict, decided as on one branch', async () => {
    const root = await repository()
    // The base ends the case's bucket file with its review, so both branches change the file's end.
    await run(root, [review('not-reviewed')])
    git(root, 'commit', '-q', '-am', 'reviewed')
    git(root, 'add', '-A')
    const mainSteps = [review('not-reviewed', ['--replace'], ['command']), review('not-reviewed', ['--replace'], ['support']), compact]
    const benSteps = [review('not-reviewed', ['--reviewer', 'bob']), add('added-by-ben')]
    await onBranch(root, 'ben', benSteps)
    await run(root, mainSteps)
    git(root, 'add', '-A')
    git(root, 'commit', '-q', '-m', 'revised and compacted')
    git(root, 'merge', '-q', '--no-edit', 'ben')
    expect(git(root, 'status', '--porcelain')).toBe('')

    // The merge brought back lines the compaction removed: the compaction line keeps them superseded.
    const { lines, named } = await recordLines(root)
    expect(lines.some((line) => named.has(createHash('sha256').update(line).digest('hex')))).toBe(true)

    const single = await repository()
    await run(single, [review('not-reviewed'), ...mainSteps.slice(0, 2), ...benSteps])
    expect(await decisions(root)).toEqual(await decisions(single))
    const status = await runCli(['status', FIX], root)
    expect(status.stdout).not.toMatch(/revised apart/)

    // Compacting the merged fixture removes what the merge brought back, and decides the same.
    const before = await decisions(root)
    await run(root, [compact])
    const after = await recordLines(root)
    expect(after.lines.some((line) => after.named.has(createHash('sha256').update(line).digest('hex')))).toBe(false)
    expect(await decisions(root)).toEqual(before)
  })

  test('compacted on both branches, each after its own revisions of a case of the same bucket file: the merge decides as on one branch', async () => {
    // uncertain-wording and missing-verification share a bucket file, which both compactions rewrite.
    const ana = [review('uncertain-wording', ['--replace'], ['support']), review('uncertain-wording', ['--replace']), compact]
    const ben = [review('missing-verification', ['--replace'], ['command']), review('missing-verification', ['--replace'], ['verification']), compact]
    const { root, merged, sequential } = await mergeAndCompare({ ana, ben })
    expect(merged).toEqual(sequential)
    expect(merged).toEqual(expect.arrayContaining([{ id: 'missing-verification', status: 'rejected', reason: 'verification' }]))
    expect(merged).toEqual(expect.arrayContaining([{ id: 'uncertain-wording', status: 'accepted', reason: '' }]))
    expect((await runCli(['status', FIX], root)).stdout).not.toMatch(/revised apart/)
  })

  test('a reviewed case revised on two branches, compacted while forked: both revisions stay, however the merge ordered their lines', async () => {
    const root = await repository()
    await onBranch(root, 'laptop', [review('complete', ['--replace'])])
    await onBranch(root, 'desktop', [review('complete', ['--replace'], ['support'])])
    git(root, 'merge', '-q', '--no-edit', 'laptop')
    git(root, 'merge', '-q', '--no-edit', 'desktop')
    const saves = async () => {
      const status = await runCli(['status', FIX], root)
      expect(status.code).toBe(1)
      return new Set([...status.stdout.matchAll(/save ([0-9a-f]{12})/g)].map((match) => match[1]!))
    }
    const forked = await saves()
    expect(forked.size).toBe(2)
    const compacted = await runCli(['compact', FIX], root)
    expect(compacted.code, compacted.stderr).toBe(0)
    expect(await saves()).toEqual(forked)
  })

  test('a record revised on a compacted branch and on another is a fork, kept by a compaction, until resolve keeps one', async () => {
    const root = await repository()
    await onBranch(root, 'laptop', [review('not-reviewed'), review('not-reviewed', ['--replace'], ['command']), compact])
    await onBranch(root, 'desktop', [review('not-reviewed', [], ['verification'])])
    git(root, 'merge', '-q', '--no-edit', 'laptop')
    git(root, 'merge', '-q', '--no-edit', 'desktop')
    expect(git(root, 'status', '--porcelain')).toBe('')
    const forked = await runCli(['status', FIX], root)
    expect(forked.stdout).toMatch(/case "not-reviewed" was revised apart/)
    const saves = new Set([...forked.stdout.matchAll(/save ([0-9a-f]{12})/g)].map((match) => match[1]!))
    expect(saves.size).toBe(2)

    // Compacted while forked: both revisions stay, and status names the same saves.
    await run(root, [compact])
    const still = await runCli(['status', FIX], root)
    expect(still.code).toBe(1)
    expect(new Set([...still.stdout.matchAll(/save ([0-9a-f]{12})/g)].map((match) => match[1]!))).toEqual(saves)

    const desktop = [...saves].find((save) => git(root, 'log', '-p', 'desktop', '-1').includes(save))!
    const resolved = await runCli(['resolve', FIX, 'not-reviewed', '--keep', desktop], root)
    expect(resolved.code, resolved.stderr).toBe(0)
    expect(await decisions(root)).toEqual(expect.arrayContaining([{ id: 'not-reviewed', status: 'rejected', reason: 'verification' }]))
  })
})
