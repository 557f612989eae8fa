import { spawnSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

const CITATION = 'Fictional docuctl 3 guide: staging rollback to r41'
const GOOD =
  'Get release approval and confirm that staging is the active environment, then run `docuctl releases rollback r41 --environment staging`. It changes the deployed service version only: database contents are not restored. Afterwards, check service health.'
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

/** `--rating c=r --reason c=…` for each criterion, every one meets unless `ratings` says otherwise. */
function judged(ratings: Record<string, string | null> = {}): string[] {
  return CRITERIA.flatMap((criterion) => {
    const rating = Object.hasOwn(ratings, criterion) ? ratings[criterion] : 'meets'
    return rating === null ? [] : ['--rating', `${criterion}=${rating}`, '--reason', `${criterion}=Judged ${rating} by the reviewer.`]
  })
}

test('a fixture made only with init, add and review is decided by a second, Python implementation of the reference contract exactly as evaluate decides it', {
  timeout: 60_000,
}, async () => {
  const cwd = await scratchDir('authored')
  const run = async (...args: string[]) => {
    const result = await runCli(args, cwd)
    expect(result.stderr, args.join(' ')).toBe('')
    expect(result.code, args.join(' ')).toBe(0)
    return result.stdout
  }
  await run('init', 'fx', '--template', 'docuctl')
  await writeFile(
    join(cwd, 'cases.json'),
    JSON.stringify([
      { id: 'accepted', answer: GOOD, citation: CITATION },
      { id: 'rejected', answer: GOOD.replace(' Afterwards, check service health.', ''), citation: CITATION, split: 'held_out' },
      { id: 'uncertain', answer: GOOD, citation: CITATION },
      { id: 'incomplete', answer: GOOD, citation: CITATION },
      { id: 'unreviewed', answer: GOOD, citation: CITATION },
      { id: 'revised', answer: GOOD, citation: CITATION },
    ]),
  )
  await run('add', 'fx', '--from', 'cases.json')
  await run('add', 'fx', '--id', 'one-more', '--answer', 'Run `docuctl rollback r41 --env staging`.', '--citation', CITATION)
  await run('review', 'fx', '--case', 'accepted', ...judged(), '--span', 'command=`docuctl releases rollback r41 --environment staging`')
  await run('review', 'fx', '--case', 'rejected', ...judged({ verification: 'does_not_meet' }))
  await run('review', 'fx', '--case', 'uncertain', ...judged({ support: 'uncertain' }))
  await run('review', 'fx', '--case', 'incomplete', ...judged({ database_scope: null }))
  await run(
    'review',
    'fx',
    '--case',
    'one-more',
    ...judged({ command: 'does_not_meet', preconditions: 'does_not_meet', database_scope: 'does_not_meet', verification: 'does_not_meet' }),
  )
  await run('review', 'fx', '--case', 'revised', ...judged({ support: 'uncertain' }))
  await run('review', 'fx', '--case', 'revised', '--replace', ...judged())

  const evaluated = JSON.parse(await run('evaluate', 'fx', '--json')).decisions as Record<
    string,
    { status: string; reason: string; ratings?: Record<string, string> }
  >
  const reference = spawnSync('python3', [join(ROOT, 'test/helpers/reference_decisions.py'), join(cwd, 'fx')], { encoding: 'utf8', timeout: 60_000 })
  expect(reference.stderr).toBe('')
  expect(reference.status).toBe(0)
  const decided = JSON.parse(reference.stdout) as Record<string, { status: string; reason: string; ratings: Record<string, string> }>

  expect(Object.keys(decided)).toEqual(Object.keys(evaluated))
  for (const [id, decision] of Object.entries(evaluated)) {
    expect(decided[id]!.status, id).toBe(decision.status)
    expect(decided[id]!.ratings, id).toEqual(decision.ratings ?? {})
    // The reasons of a graded case are the failed criteria, in order; a pending reason is worded by each implementation.
    if (decision.status !== 'pending') expect(decided[id]!.reason, id).toBe(decision.reason)
  }
  expect(Object.fromEntries(Object.entries(evaluated).map(([id, decision]) => [id, decision.status]))).toEqual({
    accepted: 'accepted',
    rejected: 'rejected',
    uncertain: 'pending',
    incomplete: 'pending',
    unreviewed: 'pending',
    revised: 'accepted',
    'one-more': 'rejected',
  })
  expect(evaluated['one-more']!.reason).toBe('command, preconditions, database_scope, verification')
})

test('the second implementation decides the bundled fixture as evaluate does, and refuses what the contract refuses', async () => {
  const evaluated = JSON.parse((await runCli(['evaluate', 'fixtures/docuctl-rollback', '--json'])).stdout).decisions as Record<
    string,
    { status: string; ratings: Record<string, string> }
  >
  const reference = spawnSync('python3', [join(ROOT, 'test/helpers/reference_decisions.py'), join(ROOT, 'fixtures/docuctl-rollback')], {
    encoding: 'utf8',
    timeout: 60_000,
  })
  const decided = JSON.parse(reference.stdout) as Record<string, { status: string; ratings: Record<string, string> }>
  expect(Object.fromEntries(Object.entries(decided).map(([id, decision]) => [id, decision.status]))).toEqual(
    Object.fromEntries(Object.entries(evaluated).map(([id, decision]) => [id, decision.status])),
  )
  // A stale hash is refused there too: the oracle is no rubber stamp.
  const cwd = await scratchDir('authored')
  await runCli(['init', 'fx', '--template', 'docuctl'], cwd)
  await runCli(['add', 'fx', '--id', 'a', '--answer', GOOD, '--citation', CITATION], cwd)
  await writeFile(join(cwd, 'fx/source.txt'), 'Edited.\n', { flag: 'a' })
  const refused = spawnSync('python3', [join(ROOT, 'test/helpers/reference_decisions.py'), join(cwd, 'fx')], { encoding: 'utf8', timeout: 60_000 })
  expect(refused.status).not.toBe(0)
  expect(refused.stderr).toMatch(/ValueError: (criterion id or quote|case revision)/)
})
