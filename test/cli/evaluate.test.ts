import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { copyFixture, ROOT } from '../helpers/fixture-copy.js'

async function run(argv: string[], cwd = ROOT) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (text) => (stdout += `${text}\n`), stderr: (text) => (stderr += `${text}\n`), cwd })
  return { code, stdout, stderr }
}

describe('vitest-rubric evaluate', () => {
  test('--json prints coverage and every decision, and exits 0 although cases are rejected', async () => {
    const { code, stdout, stderr } = await run(['evaluate', 'fixtures/docuctl-rollback', '--json'])
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    const record = JSON.parse(stdout)
    expect(record.coverage).toMatchObject({ candidates: 8, graded: 6, pending: 2, refused: 0, outcomes: { accepted: 3, rejected: 3 } })
    expect(record.decisions['wrong-command']).toMatchObject({
      status: 'rejected',
      reason: 'command, support',
      ratings: { command: 'does_not_meet', preconditions: 'meets', database_scope: 'meets', verification: 'meets', support: 'does_not_meet' },
    })
    expect(record.decisions['not-reviewed']).toEqual(expect.objectContaining({ status: 'pending', reason: 'no review', ratings: {} }))
    expect(record.identities.files['source.txt']).toBe('2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2')
  })

  test('prints a readable summary by default', async () => {
    const { code, stdout } = await run(['evaluate', 'fixtures/docuctl-rollback'])
    expect(code).toBe(0)
    expect(stdout).toMatchInlineSnapshot(`
      "docuctl-rollback-contrasts (fixtures/docuctl-rollback; rubric staging-rollback-explanation@1)
        origin: Authored example judgements for eight contrast answers; not a human-rating study and not a model judge.
        review coverage: 6 graded of 8 candidates; 2 pending; 0 refused — accepted 3, rejected 3; 50% accepted (95% interval 19%–81%)
        decisions:
          complete: accepted
          paraphrase: accepted
          negation: accepted
          unsupported-guarantee: rejected (support)
          missing-verification: rejected (verification)
          wrong-command: rejected (command, support)
          uncertain-wording: pending (uncertain on support)
          not-reviewed: pending (no review)
        Pending cases stay outside the graded figures: they are neither passes nor failures.
      "
    `)
  })

  test('a refused case is reported with its error, and the command still exits 0', async () => {
    const copy = await copyFixture()
    await copy.editCases((cases) => {
      cases.cases[0]!.input.question = 'Something else?'
    })
    const { code, stdout } = await run(['evaluate', copy.dir, '--json'], copy.dir)
    expect(code).toBe(0)
    const record = JSON.parse(stdout)
    expect(record.decisions.complete).toMatchObject({ status: 'refused', error: { code: 'QUESTION_MISMATCH' } })
    expect(record.coverage).toMatchObject({ candidates: 8, graded: 5, refused: 1 })
  })

  test('a fixture-level defect exits 1 with the message on stderr', async () => {
    const copy = await copyFixture()
    await copy.editCases((cases) => {
      cases.cases[1]!.id = 'complete'
    })
    const { code, stdout, stderr } = await run(['evaluate', '.'], copy.dir)
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toContain('cases.json › cases[1] › id: the case id is already used by cases[0].')
  })

  test('git conflict markers in a seed file are named as a merge to settle, not as a missing comma', async () => {
    const copy = await copyFixture()
    const path = join(copy.dir, 'annotations.json')
    const text = await readFile(path, 'utf8')
    await writeFile(path, text.replace('"reviews": [', '<<<<<<< HEAD\n"reviews": [\n=======\n"reviews": [\n>>>>>>> laptop'))
    const { code, stderr } = await run(['evaluate', '.'], copy.dir)
    expect(code).toBe(1)
    expect(stderr).toMatch(/annotations\.json: the file is not valid JSON: it holds git conflict markers \(the first on line \d+\)/)
    expect(stderr).toContain('git merge --abort')
    expect(stderr).not.toContain('a missing comma')
  })

  test('usage errors exit 2', async () => {
    expect((await run([])).code).toBe(2)
    expect((await run(['grade', 'x'])).stderr).toContain('unknown command "grade"')
    expect((await run(['evaluate'])).stderr).toContain('evaluate needs at least one fixture directory')
    expect((await run(['evaluate', 'x', '--jsno'])).code).toBe(2)
  })

  test('of several directories, a refused fixture hides none of the others, and the command exits 1', async () => {
    const copy = await copyFixture()
    await copy.editCases((cases) => {
      cases.cases[1]!.id = 'complete'
    })
    const text = await run(['evaluate', 'fixtures/docuctl-rollback', copy.dir])
    expect(text.code).toBe(1)
    expect(text.stdout).toContain('docuctl-rollback-contrasts (fixtures/docuctl-rollback; rubric')
    expect(text.stderr).toContain('cases.json › cases[1] › id: the case id is already used by cases[0].')
    const json = await run(['evaluate', copy.dir, 'fixtures/docuctl-rollback', '--json'])
    expect(json.code).toBe(1)
    const [refused, sound] = JSON.parse(json.stdout) as [{ dir: string; refused: { code: string } }, { fixture: { dir: string } }]
    expect(refused.refused.code).toBe('DUPLICATE_CASE')
    expect(sound.fixture.dir).toBe('fixtures/docuctl-rollback')
    expect(json.stderr).toContain('the case id is already used by cases[0].')
  })

  test('several directories give an array with --json', async () => {
    const { stdout } = await run(['evaluate', 'fixtures/docuctl-rollback', 'fixtures/docuctl-rollback', '--json'])
    expect(JSON.parse(stdout)).toHaveLength(2)
  })
})
