import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'
import { copyDebate } from '../helpers/scored-copy.js'

describe('vitest-rubric show', () => {
  test('a rejected case: the answer with each span marked, every criterion, the bindings and the decision', async () => {
    const fixture = await copyFixture()
    const { code, stdout } = await runCli(['show', '.', '--case', 'wrong-command'], fixture.dir)
    expect(code).toBe(0)
    expect(stdout).toContain('wrong-command (., development)\n  question: Explain a staging rollback to r41')
    // The two spans of the review are marked where they occur, nested by position.
    expect(stdout).toMatch(/\[1›`\[5›docuctl rollback r41 --env staging‹5\]`‹1\]/)
    expect(stdout).toContain('    [4] verification: meets\n        rule:   Tell the reader to check service health after rollback.\n        reason: ')
    expect(stdout).toContain('    [1] command: does_not_meet\n')
    expect(stdout).toContain('  bindings: every hash is current\n')
    expect(stdout).toMatch(/\n {2}decision: rejected \(command, support\)\n$/)
  })

  test('a stale binding is named with what it means; an unreviewed case shows every criterion as not judged', async () => {
    const fixture = await copyFixture()
    await fixture.editCases((cases) => {
      cases.cases[1]!.input.answer.text += ' Nothing else changes.'
    })
    const stale = await runCli(['show', '.', '--case', 'paraphrase'], fixture.dir)
    expect(stale.stdout).toContain('  bindings: 1 of 6 stale\n')
    expect(stale.stdout).toMatch(
      /✗ annotations\.json › reviews\[1\] › answer_sha256 — the answer changed since it was reviewed: the judgement describes another answer \([0-9a-f]{12}… → [0-9a-f]{12}…\)/,
    )
    expect(stale.stdout).toMatch(/decision: refused \(the answer changed since it was reviewed/)
    const unreviewed = await runCli(['show', '.', '--case', 'not-reviewed'], fixture.dir)
    expect(unreviewed.stdout.match(/: not judged\n/g)).toHaveLength(5)
  })

  test('--json: the same as data', async () => {
    const fixture = await copyFixture()
    const { stdout } = await runCli(['show', '.', '--case', 'missing-verification', '--json'], fixture.dir)
    const view = JSON.parse(stdout)
    expect(view).toMatchObject({
      kind: 'criteria',
      dir: '.',
      id: 'missing-verification',
      split: 'development',
      decision: { status: 'rejected', reason: 'verification' },
    })
    expect(view.bindings).toHaveLength(6)
    expect(view.detail.criteria.find((item: { criterion: string }) => item.criterion === 'verification')).toMatchObject({
      rating: 'does_not_meet',
      answerSpan: '',
      spanAt: null,
    })
    expect(view).not.toHaveProperty('lines')
  })

  test("a scored case: its spec, each system's claims and the scores in the decision", async () => {
    const copy = await copyDebate()
    const { stdout } = await runCli(['show', '.', '--case', 'partial-recall', '--json'], copy.dir)
    const view = JSON.parse(stdout)
    expect(view.kind).toBe('scored')
    expect(view.detail.systems.debate).toMatchObject({ claims: 2, final_verdict: 'request changes' })
    expect(Object.keys(view.decision.scores)).toContain('issue_discovery_recall')
    const text = (await runCli(['show', '.', '--case', 'partial-recall'], copy.dir)).stdout
    expect(text).toContain('  planted issues: P1, P2\n')
  })

  test('an unknown case, and a call without --case', async () => {
    const fixture = await copyFixture()
    const unknown = await runCli(['show', '.', '--case', 'nope'], fixture.dir)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/^cases\.json: there is no case "nope"\./)
    expect((await runCli(['show', '.'], fixture.dir)).code).toBe(2)
  })
})
