import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { sha256Hex } from '../../../../src/core/json/canonical-json.js'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import { loadFixture } from '../../../../src/core/registry.js'
import { copyFixture, DOCUCTL, ROOT } from '../../../helpers/fixture-copy.js'
import { pythonFingerprints } from '../../../helpers/python-reference.js'
import { loadFixtureOfKind } from '../../../helpers/load-kind.js'

describe('the bundled docuctl fixture', () => {
  test('reproduces the hashes the specification publishes for source.txt and rubric.json', async () => {
    expect(sha256Hex(await readFile(join(DOCUCTL, 'source.txt')))).toBe('2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2')
    expect(sha256Hex(await readFile(join(DOCUCTL, 'rubric.json')))).toBe('3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228')
  })

  test('binds every case to those revisions', async () => {
    const fixture = await loadFixtureOfKind('criteria', DOCUCTL, ROOT)
    expect(fixture.files.source!.sha256).toBe('2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2')
    expect(fixture.files.rubric!.sha256).toBe('3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228')
  })

  test('decides the eight contrasts: 3 accepted, 3 rejected, 2 pending', async () => {
    const { decisions, coverage } = evaluateFixture(await loadFixtureOfKind('criteria', DOCUCTL, ROOT))
    expect(decisions.map(({ id, status, reason }) => `${id}: ${status}${reason === '' ? '' : ` (${reason})`}`)).toEqual([
      'complete: accepted',
      'paraphrase: accepted',
      'negation: accepted',
      'unsupported-guarantee: rejected (support)',
      'missing-verification: rejected (verification)',
      'wrong-command: rejected (command, support)',
      'uncertain-wording: pending (uncertain on support)',
      'not-reviewed: pending (no review)',
    ])
    expect(coverage).toMatchObject({
      candidates: 8,
      graded: 6,
      pending: 2,
      refused: 0,
      outcomes: { accepted: 3, rejected: 3 },
      pendingCases: [
        { id: 'uncertain-wording', reason: 'uncertain on support' },
        { id: 'not-reviewed', reason: 'no review' },
      ],
      splits: { development: { candidates: 8, graded: 6 }, held_out: { candidates: 0, outcomes: null } },
    })
  })

  test("a rejection carries each failed criterion with the reviewer's reason, quote and span", async () => {
    const { decisions } = evaluateFixture(await loadFixtureOfKind('criteria', DOCUCTL, ROOT))
    const wrongCommand = decisions.find((decision) => decision.id === 'wrong-command')
    expect(wrongCommand).toMatchObject({
      status: 'rejected',
      failed: [
        {
          criterion: 'command',
          answerSpan: '`docuctl rollback r41 --env staging`',
          referenceQuote: 'Use `docuctl releases rollback r41 --environment staging` to select release r41.',
        },
        { criterion: 'support', answerSpan: 'docuctl rollback r41 --env staging' },
      ],
    })
    const missing = decisions.find((decision) => decision.id === 'missing-verification')
    expect(missing).toMatchObject({ status: 'rejected', failed: [{ criterion: 'verification', answerSpan: '' }] })
  })
})

describe('the identities of the case sets', () => {
  test('the full set and the graded subset fingerprint as the reference does', async () => {
    const evaluation = evaluateFixture(await loadFixtureOfKind('criteria', DOCUCTL, ROOT))
    const { $schema, ...document } = JSON.parse(await readFile(join(DOCUCTL, 'cases.json'), 'utf8')) as { $schema?: string; cases: { id: string }[] }
    // `$schema` only points editors to a JSON Schema: the case set is the document without it.
    expect($schema).toBe('../../src/schemas/cases.schema.json')
    const gradedIds = new Set(
      evaluation.decisions.filter((decision) => decision.status === 'accepted' || decision.status === 'rejected').map((decision) => decision.id),
    )
    const graded = document.cases.filter((entry) => gradedIds.has(entry.id))
    expect(graded).toHaveLength(6)
    const [full, subset] = pythonFingerprints([document, graded]).fingerprints
    expect(evaluation.identities.caseSetSha256).toBe(full)
    expect(evaluation.identities.gradedSetSha256).toBe(subset)
  })
})

test('a case holding a lone surrogate is refused, and the full set has no fingerprint', async () => {
  const copy = await copyFixture()
  const path = join(copy.dir, 'cases.json')
  const text = await readFile(path, 'utf8')
  // JSON may escape a lone surrogate; Python could not encode it, so no fingerprint can match.
  await writeFile(path, text.replace('"citation": "Fictional docuctl', '"citation": "\\ud800 Fictional docuctl'))
  const evaluation = evaluateFixture(await loadFixtureOfKind('criteria', copy.dir))
  expect(evaluation.decisions[0]).toMatchObject({ status: 'refused', error: { code: 'NOT_CANONICAL_JSON', path: 'cases[0] › input › answer › citation' } })
  expect(evaluation.identities.caseSetSha256).toBeNull()
  expect(evaluation.identities.gradedSetSha256).toMatch(/^[0-9a-f]{64}$/)
})

describe('a directory holding the markers of both kinds', () => {
  test('is refused, never read as one kind or the other', async () => {
    const fixture = await copyFixture()
    await writeFile(join(fixture.dir, 'evaluation_rubric.json'), await readFile(join(ROOT, 'fixtures/debate-benchmark/evaluation_rubric.json')))
    await expect(loadFixture(fixture.dir, { cwd: fixture.dir })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: .: the directory holds the marker files of 2 kinds of fixture, so which one it is would be a guess.
        found:    rubric.json and evaluation_rubric.json
        fix:      keep one fixture per directory: move one of the rubrics, with its cases and annotations, to a directory of its own.]
    `)
  })
})
