import { execFileSync } from 'node:child_process'
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { committedRevisions } from '../../../src/core/engine/file-history.js'
import { sha256Hex } from '../../../src/core/json/canonical-json.js'
import { describeRubricChanges, rubricChanges } from '../../../src/core/kinds/criteria/rubric-changes.js'
import { DOCUCTL } from '../../helpers/fixture-copy.js'
import { scratchDir } from '../../helpers/scratch.js'

/** A git work tree holding a copy of the docuctl lab, with its rubric committed once. */
async function repository(): Promise<{ dir: string; commit: (message: string) => string }> {
  const root = await scratchDir('history')
  await cp(DOCUCTL, join(root, 'lab'), { recursive: true })
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Reviewer', '-c', 'user.email=reviewer@example.invalid', ...args], { cwd: root, encoding: 'utf8' })
  git('init', '-q', '-b', 'main')
  const commit = (message: string) => {
    git('add', '-A')
    git('commit', '-q', '-m', message)
    return git('rev-parse', 'HEAD').trim()
  }
  commit('the lab')
  return { dir: join(root, 'lab'), commit }
}

async function reword(dir: string, criterion: string, field: 'rule' | 'reference_quote', text: string): Promise<void> {
  const path = join(dir, 'rubric.json')
  const rubric = JSON.parse(await readFile(path, 'utf8')) as { criteria: Record<string, string>[] }
  rubric.criteria.find((each) => each['id'] === criterion)![field] = text
  await writeFile(path, `${JSON.stringify(rubric, null, 2)}\n`)
}

describe('which rule changed, from git history', () => {
  test('a review bound to an older committed rubric finds that revision, and the change is named criterion by criterion', async () => {
    const { dir, commit } = await repository()
    const first = await readFile(join(dir, 'rubric.json'))
    const firstCommit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim()
    await reword(dir, 'support', 'rule', 'Every material claim must be supported by this source.')
    commit('reword support')
    await reword(dir, 'verification', 'rule', 'Tell the reader to check service health once the rollback is done.')
    const current = await readFile(join(dir, 'rubric.json'))

    const found = await committedRevisions(join(dir, 'rubric.json'), new Set([sha256Hex(first), '0'.repeat(64)]))
    expect([...found.keys()]).toEqual([sha256Hex(first)])
    expect(found.get(sha256Hex(first))!.commit).toBe(firstCommit)
    expect(Buffer.from(found.get(sha256Hex(first))!.bytes)).toEqual(first)

    // Against the working rubric (not committed yet): two rules reworded, the other three unchanged.
    expect(describeRubricChanges(rubricChanges(first, current))).toBe(
      'rule of verification reworded; rule of support reworded; command, preconditions, database_scope unchanged',
    )
    const second = execFileSync('git', ['show', 'HEAD:./rubric.json'], { cwd: dir })
    expect(describeRubricChanges(rubricChanges(second, current))).toBe(
      'rule of verification reworded; command, preconditions, database_scope, support unchanged',
    )
  })

  test('a criterion added or removed, a quote changed, and a changed task that reaches every criterion', async () => {
    const { dir } = await repository()
    const before = await readFile(join(dir, 'rubric.json'))
    const rubric = JSON.parse(before.toString('utf8')) as { task: string; criteria: Record<string, string>[] }
    const quoteChanged = structuredClone(rubric)
    quoteChanged.criteria[0]!['reference_quote'] = 'Use `docuctl releases rollback r41 --environment staging`'
    quoteChanged.criteria.pop()
    quoteChanged.criteria.push({ id: 'tone', rule: 'Stay calm.', reference_quote: 'After the rollback, check service health.' })
    const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
    expect(describeRubricChanges(rubricChanges(before, encode(quoteChanged)))).toBe(
      'reference quote of command reworded; tone added; support removed; preconditions, database_scope, verification unchanged',
    )
    expect(describeRubricChanges(rubricChanges(before, encode({ ...rubric, task: 'Explain a production rollback.' })))).toBe(
      "the rubric's task changed: re-read every criterion",
    )
    expect(describeRubricChanges(rubricChanges(new TextEncoder().encode('{ not json'), before))).toBe(
      'the earlier rubric cannot be read: re-read every criterion',
    )
    // An earlier revision nested 10,000 deep, or saying two things with one key, is no rubric to compare with: never a stack overflow.
    const deep = before.toString('utf8').replace('"task":', `"task": ${'['.repeat(10_000)}${']'.repeat(10_000)}, "tasks":`)
    expect(describeRubricChanges(rubricChanges(new TextEncoder().encode(deep), before))).toBe('the earlier rubric cannot be read: re-read every criterion')
    const twice = before.toString('utf8').replace('"task":', '"task": "Another task.", "task":')
    expect(describeRubricChanges(rubricChanges(new TextEncoder().encode(twice), before))).toBe('the earlier rubric cannot be read: re-read every criterion')
  })

  test('outside a git work tree, or for a revision never committed, nothing is found', async () => {
    const outside = await scratchDir('no-git')
    await cp(DOCUCTL, join(outside, 'lab'), { recursive: true })
    const bytes = await readFile(join(outside, 'lab/rubric.json'))
    expect((await committedRevisions(join(outside, 'lab/rubric.json'), new Set([sha256Hex(bytes)]))).size).toBe(0)
    const { dir } = await repository()
    expect((await committedRevisions(join(dir, 'rubric.json'), new Set([sha256Hex('never committed')]))).size).toBe(0)
  })
})
