import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { bindFixture as bindWithKinds } from '../../src/core/engine/bind.js'
import { kinds } from '../../src/core/registry.js'
import { type FileContents, nodeWriteIo } from '../../src/core/json/atomic-write.js'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import { RevisionError } from '../../src/core/common/errors.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture, type FixtureCopy } from '../helpers/fixture-copy.js'
import { copyDebate } from '../helpers/scored-copy.js'

const FILES = ['rubric.json', 'source.txt', 'cases.json', 'annotations.json'] as const

async function snapshotFiles(dir: string, files: readonly string[] = FILES): Promise<Map<string, { bytes: Buffer; mtimeMs: number }>> {
  const result = new Map<string, { bytes: Buffer; mtimeMs: number }>()
  for (const file of files) result.set(file, { bytes: await readFile(join(dir, file)), mtimeMs: (await stat(join(dir, file))).mtimeMs })
  return result
}

async function expectUnchanged(dir: string, before: Map<string, { bytes: Buffer; mtimeMs: number }>): Promise<void> {
  const after = await snapshotFiles(dir, [...before.keys()])
  for (const [file, { bytes, mtimeMs }] of before) {
    expect(after.get(file)!.bytes.equals(bytes), `${file} bytes`).toBe(true)
    expect(after.get(file)!.mtimeMs, `${file} mtime`).toBe(mtimeMs)
  }
}

/** The lines that differ between two versions of a file of the same line count. */
function changedLines(before: string, after: string): { before: string; after: string }[] {
  const a = before.split('\n')
  const b = after.split('\n')
  expect(b).toHaveLength(a.length)
  return a.flatMap((line, index) => (line === b[index] ? [] : [{ before: line, after: b[index]! }]))
}

async function decisionOf(dir: string, id: string): Promise<{ status: string; reason: string }> {
  const { stdout } = await runCli(['evaluate', '.', '--json'], dir)
  return (JSON.parse(stdout) as { decisions: Record<string, { status: string; reason: string }> }).decisions[id]!
}

/** A reviewer re-reads an edited answer: the answer changes, and so does the span quoting it. */
async function editAnswerAndSpan(fixture: FixtureCopy): Promise<void> {
  await fixture.editCases((cases) => {
    const answer = cases.cases[0]!.input.answer
    answer.text = answer.text.replace('After the rollback, check service health.', 'After the rollback, check the service health.')
  })
  await fixture.editAnnotations((annotations) => {
    annotations.reviews[0]!.judgements.verification!.answer_span = 'After the rollback, check the service health.'
  })
}

describe('vitest-rubric bind', () => {
  test('after an answer is re-reviewed: prints each old → new hash, and the case is decided again', async () => {
    const fixture = await copyFixture()
    await editAnswerAndSpan(fixture)
    expect(await decisionOf(fixture.dir, 'complete')).toMatchObject({ status: 'refused' })
    const oldAnswerSha = (await fixture.readJson<{ reviews: { answer_sha256: string }[] }>('annotations.json')).reviews[0]!.answer_sha256
    const answer = (await fixture.readJson<{ cases: { input: { answer: unknown } }[] }>('cases.json')).cases[0]!.input.answer

    const { code, stdout, stderr } = await runCli(['bind', '.', '--case', 'complete'], fixture.dir)
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout).toContain(`annotations.json › reviews[0] › answer_sha256\n      ${oldAnswerSha}\n    → ${fingerprint(answer)}`)
    expect(stdout).toContain('complete: bound, then decided accepted')
    expect(stdout).toContain('wrote annotations.json and cases.json')
    expect(await decisionOf(fixture.dir, 'complete')).toEqual(expect.objectContaining({ status: 'accepted' }))
    // The case now records the review as bound.
    const review = (await fixture.readJson<{ reviews: unknown[] }>('annotations.json')).reviews[0]
    const expected = (await fixture.readJson<{ cases: { expected: { review_sha256: string } }[] }>('cases.json')).cases[0]!.expected
    expect(expected.review_sha256).toBe(fingerprint(review))
    expect((await runCli(['status', '.'], fixture.dir)).code).toBe(0)
  })

  test('the files keep their formatting: the diff is the hash lines and nothing else', async () => {
    const fixture = await copyFixture()
    await appendFile(fixture, 'source.txt', 'A new paragraph.\n')
    const before = {
      cases: await readFile(join(fixture.dir, 'cases.json'), 'utf8'),
      annotations: await readFile(join(fixture.dir, 'annotations.json'), 'utf8'),
    }
    const { code } = await runCli(['bind', '.', '--all'], fixture.dir)
    expect(code).toBe(0)
    const cases = changedLines(before.cases, await readFile(join(fixture.dir, 'cases.json'), 'utf8'))
    const annotations = changedLines(before.annotations, await readFile(join(fixture.dir, 'annotations.json'), 'utf8'))
    // 7 reviewed cases: source and review hashes in cases.json, the source hash of each review; the
    // unreviewed case: its source hash, re-stamped.
    expect(cases).toHaveLength(15)
    expect(annotations).toHaveLength(7)
    for (const line of [...cases, ...annotations]) {
      expect(line.after).toMatch(/^ +"(source|review)_sha256": "[0-9a-f]{64}",?$/)
      expect(line.before.replace(/[0-9a-f]{64}/, '')).toBe(line.after.replace(/[0-9a-f]{64}/, ''))
    }
    expect(await readFile(join(fixture.dir, 'cases.json'), 'utf8')).toMatch(/\n$/)
  })

  test('--all re-stamps a case nobody reviewed and says so; rubric and source are never written', async () => {
    const fixture = await copyFixture()
    await appendFile(fixture, 'source.txt', 'A new paragraph.\n')
    const pinned = await snapshotFiles(fixture.dir, ['rubric.json', 'source.txt'])
    const { code, stdout } = await runCli(['bind', '.', '--all'], fixture.dir)
    expect(code).toBe(0)
    expect(stdout).toContain('not-reviewed: re-stamped (no review: nothing was judged), then decided pending (no review)')
    expect(stdout).toContain('uncertain-wording: bound, then decided pending (uncertain on support)')
    await expectUnchanged(fixture.dir, pinned)
    const decisions = JSON.parse((await runCli(['evaluate', '.', '--json'], fixture.dir)).stdout).decisions
    expect(Object.entries(decisions).map(([id, decision]) => `${id}: ${(decision as { status: string }).status}`)).toEqual([
      'complete: accepted',
      'paraphrase: accepted',
      'negation: accepted',
      'unsupported-guarantee: rejected',
      'missing-verification: rejected',
      'wrong-command: rejected',
      'uncertain-wording: pending',
      // Never reviewed: it carries no judgement, so it is pending under the new source.
      'not-reviewed: pending',
    ])
  })

  test('--dry-run prints the changes and writes nothing', async () => {
    const fixture = await copyFixture()
    await editAnswerAndSpan(fixture)
    const before = await snapshotFiles(fixture.dir)
    const { code, stdout } = await runCli(['bind', '.', '--case', 'complete', '--dry-run'], fixture.dir)
    expect(code).toBe(0)
    expect(stdout).toContain('complete: would bind, then the case would be decided accepted')
    expect(stdout).toContain('dry run: nothing was written (1 case would change)')
    await expectUnchanged(fixture.dir, before)
  })

  test('a case already bound is left as it is', async () => {
    const fixture = await copyFixture()
    const before = await snapshotFiles(fixture.dir)
    const { code, stdout } = await runCli(['bind', '.', '--case', 'complete'], fixture.dir)
    expect(code).toBe(0)
    expect(stdout).toBe('.\n  complete: already bound to the current files (accepted)\n  nothing to change: no file was written\n')
    await expectUnchanged(fixture.dir, before)
  })

  test('re-stamps a named case with no review, and refuses an unknown case, writing nothing', async () => {
    const fixture = await copyFixture()
    await appendFile(fixture, 'source.txt', 'A new paragraph.\n')
    const none = await runCli(['bind', '.', '--case', 'not-reviewed', '--dry-run'], fixture.dir)
    expect(none.code).toBe(0)
    expect(none.stdout).toContain('not-reviewed: would be re-stamped (no review: nothing was judged), then the case would be decided pending (no review)')
    expect(none.stdout).toContain('cases.json › cases[7] › expected › source_sha256')
    const before = await snapshotFiles(fixture.dir)
    const unknown = await runCli(['bind', '.', '--case', 'compleet'], fixture.dir)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('there is no case "compleet"; nothing was written.')
    await expectUnchanged(fixture.dir, before)
  })

  test('the design exercise: removing a criterion needs revised annotations, not only new hashes', async () => {
    const fixture = await copyFixture()
    const rubric = JSON.parse(await readFile(join(fixture.dir, 'rubric.json'), 'utf8'))
    rubric.version = 2
    rubric.criteria = rubric.criteria.filter((criterion: { id: string }) => criterion.id !== 'database_scope')
    await writeFile(join(fixture.dir, 'rubric.json'), `${JSON.stringify(rubric, null, 2)}\n`)

    const before = await snapshotFiles(fixture.dir)
    const refused = await runCli(['bind', '.', '--all'], fixture.dir)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('once bound, 7 cases would still be refused')
    expect(refused.stderr).toContain(
      'annotations.json › reviews[0] › judgements › database_scope (case "complete"): the review judges a criterion that rubric.json does not define.',
    )
    await expectUnchanged(fixture.dir, before)

    // The annotation revision: the judgements of the removed criterion go, explicitly.
    await fixture.editAnnotations((annotations) => {
      for (const review of annotations.reviews) delete review.judgements.database_scope
    })
    const bound = await runCli(['bind', '.', '--all'], fixture.dir)
    expect(bound.code).toBe(0)
    expect(bound.stdout).toContain('negation: bound, then decided accepted')
    // The case nobody has reviewed is re-stamped: it waits for a review under the new rubric, pending.
    expect(bound.stdout).toContain('not-reviewed: re-stamped (no review: nothing was judged), then decided pending (no review)')
    const status = JSON.parse((await runCli(['status', '.', '--json'], fixture.dir)).stdout)[0]
    const open = status.cases.filter((each: { findings: { group: string }[] }) => each.findings.some((finding) => finding.group !== 'current'))
    expect(open.map((each: { id: string; findings: { group: string }[] }) => [each.id, each.findings[0]!.group])).toEqual([
      ['uncertain-wording', 'uncertain'],
      ['not-reviewed', 'unreviewed'],
    ])
  })

  test('an interrupted write leaves cases.json and annotations.json byte-identical', async () => {
    const fixture = await copyFixture()
    await editAnswerAndSpan(fixture)
    const before = await snapshotFiles(fixture.dir)
    let writes = 0
    // The writer is the engine's seam: the public bindFixture takes no io.
    const error = await bindWithKinds(fixture.dir, {
      cases: ['complete'],
      dryRun: false,
      cwd: fixture.dir,
      kinds,
      io: {
        ...nodeWriteIo,
        async writeNew(path: string, contents: FileContents, mode: number | undefined) {
          if (++writes === 2) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' })
          return nodeWriteIo.writeNew(path, contents, mode)
        },
      },
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(RevisionError)
    expect((error as RevisionError).summary).toContain('nothing was changed')
    await expectUnchanged(fixture.dir, before)
  })

  test('a scored case: a re-reviewed output is bound to the rubric, the spec and the output', async () => {
    const benchmark = await copyDebate()
    await benchmark.editCases((cases) => {
      cases.cases.find((each) => each.id === 'partial-recall')!.outputs.baseline.answer += ' (revised)'
    })
    const { code, stdout } = await runCli(['bind', '.', '--case', 'partial-recall'], benchmark.dir)
    expect(code).toBe(0)
    expect(stdout).toMatch(/annotations\.json › reviews\[1\] › output_sha256\n/)
    expect(stdout).toMatch(/cases\.json › cases\[0\] › expected › baseline_review_sha256\n/)
    expect(stdout).not.toContain('debate_review_sha256')
    expect((await runCli(['status', '.'], benchmark.dir)).code).toBe(0)
  })

  test('an acknowledged review edit changes cases.json only, and a case named twice is bound once', async () => {
    const fixture = await copyFixture()
    await fixture.editAnnotations((annotations) => {
      annotations.reviews[2]!.judgements.support!.reason = 'Reworded after a second reading.'
    })
    const before = await snapshotFiles(fixture.dir, ['annotations.json'])
    const { code, stdout } = await runCli(['bind', '.', '--case', 'negation', '--case', 'negation'], fixture.dir)
    expect(code).toBe(0)
    expect(stdout.match(/negation: bound/g)).toHaveLength(1)
    expect(stdout).toContain('  cases.json › cases[2] › expected › review_sha256\n')
    expect(stdout).toContain('  wrote cases.json\n')
    await expectUnchanged(fixture.dir, before)
    expect((await runCli(['status', '.'], fixture.dir)).code).toBe(0)
  })

  test('a fixture with no cases yet: an unknown case says there is none', async () => {
    const fixture = await copyFixture()
    await fixture.writeJson('cases.json', { name: 'docuctl-rollback', task: (await fixture.readJson<{ task: string }>('cases.json')).task, cases: [] })
    await fixture.writeJson('annotations.json', { origin: (await fixture.readJson<{ origin: string }>('annotations.json')).origin, reviews: [] })
    const { code, stderr } = await runCli(['bind', '.', '--case', 'complete'], fixture.dir)
    expect(code).toBe(1)
    expect(stderr).toMatchInlineSnapshot(`
      "cases.json: there is no case "complete"; nothing was written.
        expected: a case id (the fixture has no cases yet)
        found:    "complete"
        fix:      pass the id of a case in cases.json, or --all.
      "
    `)
    const all = await runCli(['bind', '.', '--all'], fixture.dir)
    expect(all).toEqual({ code: 0, stdout: '.\n  no cases to bind\n  nothing to change: no file was written\n', stderr: '' })
  })

  test('usage errors name the mistake', async () => {
    const both = await runCli(['bind', 'fixtures/docuctl-rollback', '--all', '--case', 'complete'])
    expect(both.code).toBe(2)
    expect(both.stderr).toMatch(/^vitest-rubric bind: give either --case or --all, not both\./)
    const neither = await runCli(['bind', 'fixtures/docuctl-rollback'])
    expect(neither.code).toBe(2)
    expect(neither.stderr).toMatch(/name the cases to bind with --case <id>, or pass --all/)
  })
})

async function appendFile(fixture: FixtureCopy, file: string, text: string): Promise<void> {
  const path = join(fixture.dir, file)
  await writeFile(path, (await readFile(path, 'utf8')) + text)
}
