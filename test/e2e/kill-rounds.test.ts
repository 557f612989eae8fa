import { spawn } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { copyFixture, ROOT, type AnnotationsJson } from '../helpers/fixture-copy.js'

/**
 * Several processes write one fixture at once while one of them is killed (`kill -9`) at a random
 * moment, round after round: every save a writer acknowledged (exit 0) is on disk, the fixture
 * refuses no case, and nothing is left behind. A seeded generator picks the moments, so a failure
 * can be replayed.
 */
const BIN = join(ROOT, 'dist/cli/bin.js')
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const CASES = ['complete', 'paraphrase', 'negation', 'unsupported-guarantee', 'missing-verification', 'wrong-command']
const ROUNDS = 4
const WRITERS = 3

function seeded(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

function save(dir: string, reviewer: string, caseId: string, reason: string): { done: Promise<number | null>; kill: () => void } {
  const argv = ['review', '.', '--case', caseId, '--reviewer', reviewer, '--replace']
  for (const criterion of CRITERIA) argv.push('--rating', `${criterion}=meets`, '--reason', `${criterion}=${reason}`)
  const child = spawn(process.execPath, [BIN, ...argv], { cwd: dir, stdio: 'ignore' })
  return { done: new Promise((resolve) => child.on('close', (code) => resolve(code))), kill: () => child.kill('SIGKILL') }
}

test('rounds of concurrent writers, one killed at a random moment in each: no acknowledged save is lost', { timeout: 300_000 }, async () => {
  const fixture = await copyFixture()
  const random = seeded(20_261_204)
  /**
   * What each reviewer's review of each case may hold: the last acknowledged reason, and the reason of
   * any save killed after it (a killed save either landed whole or not at all).
   */
  const acknowledged = new Map<string, string[]>()
  let killedMidWrite = 0

  for (let round = 0; round < ROUNDS; round++) {
    const victim = Math.floor(random() * WRITERS)
    const killAfter = 50 + random() * 600
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        const reviewer = `w${writer}`
        for (const [index, caseId] of CASES.slice(0, 3).entries()) {
          const target = CASES[(writer + index + round) % CASES.length]!
          const reason = `round ${round} save ${index} of ${caseId}`
          const running = save(fixture.dir, reviewer, target, reason)
          if (writer === victim && index === 1) setTimeout(running.kill, killAfter)
          const code = await running.done
          const key = `${reviewer} ${target}`
          if (code === 0) acknowledged.set(key, [reason])
          else if (code === null) {
            killedMidWrite++
            if (acknowledged.has(key)) acknowledged.get(key)!.push(reason)
          }
        }
      }),
    )
    // The next command finishes or discards what the killed writer left, then every acknowledged save is there.
    const evaluated = await runCli(['evaluate', '.', '--json'], fixture.dir)
    const decisions = (JSON.parse(evaluated.stdout) as { decisions: Record<string, { status: string }> }).decisions
    expect(Object.entries(decisions).filter(([, decision]) => decision.status === 'refused')).toEqual([])
    for (const [key, reasons] of acknowledged) {
      const [reviewer, caseId] = key.split(' ') as [string, string]
      const file = JSON.parse(await readFile(join(fixture.dir, `reviews/${reviewer}.json`), 'utf8')) as AnnotationsJson
      expect(reasons, `round ${round}: ${key}`).toContain(file.reviews.find((review) => review.answer_id === caseId)?.judgements['support']?.reason)
    }
    expect((await readdir(fixture.dir, { recursive: true })).filter((name) => name.includes('.rubric.lock') || name.endsWith('.tmp'))).toEqual([])
  }
  expect(acknowledged.size).toBeGreaterThan(0)
  // The kills landed while a writer ran (not all before it started or after it ended).
  expect(killedMidWrite).toBeGreaterThan(0)
})
