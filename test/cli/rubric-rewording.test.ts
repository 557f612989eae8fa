import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { openReviewTarget } from '../../src/core/registry.js'
import type { FixtureStatus } from '../../src/core/engine/status.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'
import { KEY, scriptedTerminal } from '../helpers/terminal.js'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

const UNCHANGED = ['command', 'preconditions', 'database_scope', 'verification']
const KEYWORDS = join(ROOT, 'examples/judges/keyword-judge.mjs')

const hasGit = spawnSync('git', ['--version']).status === 0

/**
 * A git work tree holding a copy of the docuctl lab at `lab/`, committed once (after `before`, an
 * edit made before that first commit); `commit` commits what changed since.
 */
async function repository(before?: (dir: string) => Promise<void>): Promise<{ dir: string; first: string; commit: (message: string) => string }> {
  const root = await scratchDir('rewording')
  await cp(DOCUCTL, join(root, 'lab'), { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
  await before?.(join(root, 'lab'))
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Reviewer', '-c', 'user.email=reviewer@example.invalid', ...args], { cwd: root, encoding: 'utf8' })
  git('init', '-q', '-b', 'main')
  const commit = (message: string) => {
    git('add', '-A')
    git('commit', '-q', '-m', message)
    return git('rev-parse', 'HEAD').trim()
  }
  return { dir: join(root, 'lab'), first: commit('the lab'), commit }
}

async function rewordSupport(dir: string): Promise<void> {
  const path = join(dir, 'rubric.json')
  const rubric = JSON.parse(await readFile(path, 'utf8')) as { criteria: Record<string, string>[] }
  rubric.criteria.find((each) => each['id'] === 'support')!['rule'] = 'Every material claim must be supported by this source, and by nothing else.'
  await writeFile(path, `${JSON.stringify(rubric, null, 2)}\n`)
}

async function statusOf(dir: string): Promise<{ code: number; status: FixtureStatus; text: string }> {
  const json = await runCli(['status', '.', '--json'], dir)
  expect(json.stderr).toBe('')
  const text = await runCli(['status', '.'], dir)
  return { code: json.code, status: (JSON.parse(json.stdout) as FixtureStatus[])[0]!, text: text.stdout }
}

function finding(status: FixtureStatus, id: string, group: string, file = 'cases.json') {
  return status.cases.find((each) => each.id === id)!.findings.find((each) => each.group === group && each.detail.startsWith(file))
}

describe.skipIf(!hasGit)('a reworded rule, found in git history', () => {
  test('status names the rule reworded and the criteria unchanged, in text and in --json; the case is still refused', async () => {
    const { dir, first, commit } = await repository()
    await rewordSupport(dir)
    commit('reword support')
    const { code, status, text } = await statusOf(dir)
    expect(code).toBe(1)
    const stale = finding(status, 'complete', 'stale-rubric')!
    expect(stale.detail).toContain(`; since ${first.slice(0, 7)}: rule of support reworded; command, preconditions, database_scope, verification unchanged`)
    expect(stale.changes).toEqual([
      {
        rubric_sha256: expect.stringMatching(/^3a8dcd22e9f4/),
        commit: first,
        everything: null,
        changed: [{ criterion: 'support', parts: ['rule'] }],
        added: [],
        removed: [],
        unchanged: ['command', 'preconditions', 'database_scope', 'verification'],
      },
    ])
    expect(text).toContain('rule of support reworded; command, preconditions, database_scope, verification unchanged')
    // Nothing is decided differently: the stale review still refuses the case.
    const evaluated = JSON.parse((await runCli(['evaluate', '.', '--json'], dir)).stdout)
    expect(evaluated.decisions.complete.status).toBe('refused')
  })

  test('a rubric edited but never committed: everything is said to need re-reading, as without git', async () => {
    // The reviews were bound to a revision nobody committed: the history has only the reworded one.
    const { dir } = await repository(rewordSupport)
    const { status } = await statusOf(dir)
    expect(status.cases.length).toBeGreaterThan(0)
    const stale = finding(status, 'complete', 'stale-rubric')!
    expect(stale.detail).toMatch(
      /; no criterion was added, removed or re-quoted: the change is in a rule, the task or the acceptance text, so re-read every criterion$/,
    )
    expect(stale.changes).toEqual([expect.objectContaining({ commit: null, unchanged: [] })])
  })

  /** alice's review of `complete`, committed, then the support rule reworded and committed. */
  async function aliceReviewedBeforeRewording() {
    const repo = await repository()
    const annotations = JSON.parse(await readFile(join(repo.dir, 'annotations.json'), 'utf8'))
    const judgements = annotations.reviews.find((review: { answer_id: string }) => review.answer_id === 'complete').judgements
    const draft = Object.fromEntries(
      Object.entries(judgements as Record<string, { rating: string; reason: string; answer_span: string }>).map(([id, each]) => [
        id,
        { rating: each.rating, reason: each.reason, answer_span: each.answer_span },
      ]),
    )
    await writeFile(join(repo.dir, 'alice.json'), JSON.stringify(draft))
    const recorded = await runCli(['review', '.', '--case', 'complete', '--reviewer', 'alice', '--from', 'alice.json'], repo.dir)
    expect(recorded.stderr).toBe('')
    repo.commit("alice's review")
    await rewordSupport(repo.dir)
    repo.commit('reword support')
    return { ...repo, draft }
  }

  const aliceFile = async (dir: string) => JSON.parse(await readFile(join(dir, 'reviews/alice.json'), 'utf8')).reviews[0]

  test("a reviewer's stale review: status names the change; review --replace carries over the unchanged criteria only as each is confirmed", async () => {
    const { dir, draft } = await aliceReviewedBeforeRewording()
    const stale = finding((await statusOf(dir)).status, 'complete', 'stale-rubric', 'reviews/alice.json')!
    expect(stale.detail).toMatch(
      /^reviews\/alice\.json › reviews\[0\] › rubric_sha256 3a8dcd22e9f4… → [0-9a-f]{12}…; since [0-9a-f]{7}: rule of support reworded; command, preconditions, database_scope, verification unchanged; next: /,
    )

    const script = scriptedTerminal([
      { expect: 'Keep the judgement of command as it is?', keys: KEY.enter },
      { expect: 'Keep the judgement of preconditions as it is?', keys: KEY.enter },
      // Declined: asked again as any criterion, from the earlier judgement.
      { expect: 'Keep the judgement of database_scope as it is?', keys: KEY.down + KEY.enter },
      { expect: 'Rating of database_scope', keys: KEY.enter },
      { expect: 'database_scope?', keys: KEY.enter },
      { expect: 'The span of the answer', keys: KEY.enter },
      { expect: 'Keep the judgement of verification as it is?', keys: KEY.enter },
      // The reworded rule is never offered as carried over: it is asked again.
      { expect: 'Rating of support', keys: KEY.down + KEY.enter },
      // A changed rating starts with an empty reason: Enter cannot record the reason of the earlier "meets".
      { expect: 'Why does the answer not meet support?', keys: KEY.enter },
      { expect: 'A reason is needed: say why.', keys: `Reads a claim the reworded rule no longer allows.${KEY.enter}` },
      { expect: 'The span of the answer', keys: KEY.enter },
      { expect: 'Write the review', keys: KEY.enter },
    ])
    let stdout = ''
    const code = await main(['review', '.', '--case', 'complete', '--reviewer', 'alice', '--replace'], {
      stdout: (text) => (stdout += `${text}\n`),
      stderr: () => {},
      cwd: dir,
      terminal: script.terminal,
    })
    script.finished()
    expect(code).toBe(0)
    const screen = script.screen()
    expect(screen).toContain('Changed since this review')
    expect(screen).toContain('The unchanged criteria are carried over only once you confirm each.')
    expect(screen).toContain('Criterion 1 of 5: command (unchanged since the review: carried over, confirm)')
    expect(screen).not.toContain('support (unchanged since the review')
    expect(stdout).toContain('complete by alice: replaced the review')
    const review = await aliceFile(dir)
    expect(review.rubric_sha256).toBe(sha256(await readFile(join(dir, 'rubric.json'))))
    for (const id of ['command', 'preconditions', 'database_scope', 'verification'])
      expect({ id, ...review.judgements[id] }).toMatchObject({ id, ...draft[id] })
    expect(review.judgements.support).toMatchObject({ rating: 'does_not_meet', reason: 'Reads a claim the reworded rule no longer allows.' })
    expect(finding((await statusOf(dir)).status, 'complete', 'stale-rubric', 'reviews/alice.json')).toBeUndefined()
  })

  test('review --replace --from carries nothing over by itself: what the file leaves out is not judged', async () => {
    const { dir } = await aliceReviewedBeforeRewording()
    await writeFile(join(dir, 'support.json'), JSON.stringify({ support: { rating: 'meets', reason: 'Still supported.', answer_span: '' } }))
    const replaced = await runCli(['review', '.', '--case', 'complete', '--reviewer', 'alice', '--replace', '--from', 'support.json'], dir)
    expect(replaced.stderr).toBe('')
    expect(Object.keys((await aliceFile(dir)).judgements)).toEqual(['support'])
    expect(replaced.stdout).toContain('which alone would decide pending (missing criteria command, preconditions, database_scope, verification)')
  })

  /** A judge module that records each call (`case:criterion`, one a line) in `calls.txt`, then judges as the keyword judge does. */
  async function countingJudge(dir: string, perCase: boolean): Promise<string> {
    const path = join(dir, '..', perCase ? 'per-case.mjs' : 'per-criterion.mjs')
    const calls = JSON.stringify(join(dir, '..', 'calls.txt'))
    const body = perCase
      ? `export const judgeCase = async (input) => {\n  const verdicts = {}\n  for (const criterion of input.criteria) {\n    appendFileSync(${calls}, input.case.id + ':' + criterion.id + '\\n')\n    verdicts[criterion.id] = await keywords({ ...input, criterion })\n  }\n  return verdicts\n}\n`
      : `export default async (input) => {\n  appendFileSync(${calls}, input.case.id + ':' + input.criterion.id + '\\n')\n  return keywords(input)\n}\n`
    await writeFile(path, `import { appendFileSync } from 'node:fs'\nimport keywords from ${JSON.stringify(KEYWORDS)}\n${body}`)
    return path
  }
  const calls = async (dir: string) => {
    const text = await readFile(join(dir, '..', 'calls.txt'), 'utf8').catch(() => '')
    await writeFile(join(dir, '..', 'calls.txt'), '')
    return text.split('\n').filter(Boolean)
  }

  test('a judge called per criterion judges again only the reworded criterion; the others are carried over, re-bound, and the origin says so', async () => {
    const { dir, commit } = await repository()
    const judge = await countingJudge(dir, false)
    const first = await runCli(['judge', '.', '--judge', 'kw', '--run', judge], dir)
    expect(first.stdout).toContain('judge kw: wrote 40 labels of 40 to judge in 8 cases (0 were current), 0 failed')
    expect(await calls(dir)).toHaveLength(40)
    const before = JSON.parse(await readFile(join(dir, 'judges/kw.json'), 'utf8'))
    commit("the judge's labels")
    await rewordSupport(dir)
    commit('reword support')
    const reworded = await statusOf(dir)
    expect(finding(reworded.status, 'complete', 'stale-judge', 'judges/kw.json')!.detail).toContain(
      'rule of support reworded; command, preconditions, database_scope, verification unchanged',
    )
    // status names the judge command, once for every case, with the module the labels' origin names.
    const judgeBlock = reworded.text.slice(reworded.text.indexOf("  stale judge's label")).split('\n').slice(0, 3)
    expect(
      judgeBlock.map((line) =>
        line
          .replaceAll(judge, '<module>')
          .replaceAll(/[0-9a-f]{12}…/g, '<sha>')
          .replace(/since [0-9a-f]{7}/, 'since <commit>'),
      ),
    ).toMatchInlineSnapshot(`
      [
        "  stale judge's label (8): judge again what is stale: \`vitest-rubric judge . --judge <name> --run <module>\` calls the judge only for the labels that are not current (after a rubric revision, only for the criteria it changed), or record labels made elsewhere with \`vitest-rubric review . --judge <name> --replace --from <labels.jsonl>\` (a judge's label decides nothing)",
        "    \`vitest-rubric judge . --judge kw --run <module>\` for 8 cases: complete, paraphrase, negation, unsupported-guarantee, missing-verification, wrong-command, uncertain-wording, not-reviewed",
        "      judges/kw.json › rubric_sha256 <sha> → <sha>; since <commit>: rule of support reworded; command, preconditions, database_scope, verification unchanged",
      ]
    `)
    const printed = /`vitest-rubric (judge [^`]+)`/.exec(judgeBlock[1]!)![1]!.split(' ')

    const dry = await runCli([...printed, '--dry-run'], dir)
    expect(dry.stdout).toContain('would judge 8 labels of 8 cases (0 current)')
    expect(dry.stdout).toContain('would carry over 32 labels without a call')
    // The command as status printed it.
    const again = await runCli(printed, dir)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('judge kw: wrote 8 labels of 8 to judge in 8 cases (0 were current), 0 failed')
    expect(again.stdout).toContain('carried over 32 labels without a call')
    expect((await calls(dir)).sort()).toEqual(before.reviews.map((review: { answer_id: string }) => `${review.answer_id}:support`).sort())
    const after = JSON.parse(await readFile(join(dir, 'judges/kw.json'), 'utf8'))
    const rubric = sha256(await readFile(join(dir, 'rubric.json')))
    for (const [index, label] of after.reviews.entries()) {
      expect(label.rubric_sha256).toBe(rubric)
      // The carried judgements are the judge's own, as it gave them.
      for (const id of ['command', 'preconditions', 'database_scope', 'verification'])
        expect(label.judgements[id]).toEqual(before.reviews[index].judgements[id])
    }
    // The module lies outside the fixture's project folder: it is named by its absolute path.
    expect(after.origin).toMatch(
      /^judge module \/\S+\/per-criterion\.mjs, sha256 [0-9a-f]{16}; carried over 32 labels of criteria a rubric revision left unchanged, from rubric\.json 3a8dcd22e9f4… \([0-9a-f]{7}\), re-bound to [0-9a-f]{12}…$/,
    )
    expect(finding((await statusOf(dir)).status, 'complete', 'stale-judge', 'judges/kw.json')).toBeUndefined()
    // A judge's label decides nothing: the cases are decided as before the run.
    const evaluated = JSON.parse((await runCli(['evaluate', '.', '--json'], dir)).stdout)
    expect(evaluated.decisions.complete.status).toBe('refused')
  })

  test('a judge called per case judges every criterion of the case again', async () => {
    const { dir, commit } = await repository()
    const judge = await countingJudge(dir, true)
    await runCli(['judge', '.', '--judge', 'kw', '--run', judge], dir)
    expect(await calls(dir)).toHaveLength(40)
    commit("the judge's labels")
    await rewordSupport(dir)
    commit('reword support')
    const again = await runCli(['judge', '.', '--judge', 'kw', '--run', judge], dir)
    expect(again.stdout).toContain('judge kw: wrote 40 labels of 40 to judge in 8 cases (0 were current), 0 failed')
    expect(again.stdout).not.toContain('carried over')
    expect(await calls(dir)).toHaveLength(40)
  })

  test('an answer edited as well as the rule: nothing is offered as carried over, every judgement describes another answer', async () => {
    const { dir, commit } = await aliceReviewedBeforeRewording()
    expect((await openReviewTarget(dir, 'complete', undefined, dir, 'alice')).carried?.items).toEqual(UNCHANGED)
    const cases = JSON.parse(await readFile(join(dir, 'cases.json'), 'utf8'))
    cases.cases[0].input.answer.text += ' Nothing else changes.'
    await writeFile(join(dir, 'cases.json'), `${JSON.stringify(cases, null, 2)}\n`)
    commit('edit the answer')
    const target = await openReviewTarget(dir, 'complete', undefined, dir, 'alice')
    expect(target.carried).toMatchObject({ stale: true, items: [] })
  })

  test('review --replace with the earlier rubric never committed: nothing is offered as carried over', async () => {
    // alice reviews, the rule is reworded, and only then is anything committed: git never held the rubric she judged.
    const { dir } = await repository(async (lab) => {
      const judged = [...UNCHANGED, 'support'].flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=Judged.`])
      expect((await runCli(['review', '.', '--case', 'complete', '--reviewer', 'alice', ...judged], lab)).code).toBe(0)
      await rewordSupport(lab)
    })
    const target = await openReviewTarget(dir, 'complete', undefined, dir, 'alice')
    expect(target.carried).toEqual({
      stale: true,
      items: [],
      changes: ['no criterion was added, removed or re-quoted: the change is in a rule, the task or the acceptance text, so re-read every criterion'],
    })
  })

  test('a reworded criterion the judge fails on: the carried labels are written all the same, and the next run calls only the failed ones', async () => {
    const { dir, commit } = await repository()
    await runCli(['judge', '.', '--judge', 'kw', '--run', KEYWORDS], dir)
    commit("the judge's labels")
    await rewordSupport(dir)
    commit('reword support')
    const failing = join(dir, '..', 'failing.mjs')
    await writeFile(
      failing,
      `import keywords from ${JSON.stringify(KEYWORDS)}\nexport default async (input) => {\n  if (input.criterion.id === 'support') throw new Error('no model today')\n  return keywords(input)\n}\n`,
    )
    const failed = await runCli(['judge', '.', '--judge', 'kw', '--run', failing, '--retries', '0'], dir)
    expect(failed.code).toBe(1)
    expect(failed.stdout).toContain('judge kw: wrote 0 labels of 8 to judge in 8 cases (0 were current), 8 failed')
    expect(failed.stdout).toContain('carried over 32 labels without a call')
    const labels = JSON.parse(await readFile(join(dir, 'judges/kw.json'), 'utf8')).reviews
    expect(labels.map((label: { judgements: object }) => Object.keys(label.judgements))).toEqual(Array(8).fill(UNCHANGED))
    const judge = await countingJudge(dir, false)
    const next = await runCli(['judge', '.', '--judge', 'kw', '--run', judge], dir)
    expect(next.stdout).toContain('judge kw: wrote 8 labels of 8 to judge in 8 cases (32 were current), 0 failed')
    expect(new Set((await calls(dir)).map((call) => call.split(':')[1]))).toEqual(new Set(['support']))
  })
})
