import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { NULL_FINGERPRINT, sha256Hex } from '../../src/core/json/canonical-json.js'
import type { FixtureStatus } from '../../src/core/engine/status.js'
import { runCli } from '../helpers/cli.js'
import { copyDebate, reviseRubricNotes, withdrawReview } from '../helpers/scored-copy.js'

/** `status --json` of a scored fixture copy. */
async function statusOf(dir: string): Promise<{ code: number; status: FixtureStatus }> {
  const { code, stdout, stderr } = await runCli(['status', '.', '--json'], dir)
  expect(stderr).toBe('')
  const [status] = JSON.parse(stdout) as FixtureStatus[]
  return { code, status: status! }
}

function findings(status: FixtureStatus, id: string): string[] {
  return status.cases.find((each) => each.id === id)!.findings.map((finding) => `${finding.group}: ${finding.detail}`)
}

describe('vitest-rubric status on a scored fixture', () => {
  test('the bundled benchmark: decided cases are current, the unscoreable one awaits manual review, exit 0', async () => {
    const copy = await copyDebate()
    const { code, status } = await statusOf(copy.dir)
    expect(code).toBe(0)
    expect(status).toMatchObject({ kind: 'scored', dir: '.', name: 'debate-benchmark', blocked: false })
    expect(status.cases.map((each) => [each.id, ...findings(status, each.id)])).toEqual([
      ['partial-recall', 'current: accepted'],
      ['zero-planted-issues', 'current: accepted'],
      ['false-claim-conceded', 'current: accepted'],
      ['concession-without-update', 'current: rejected'],
      ['inefficient-resolution', 'current: accepted'],
      ['never-terminates', 'current: rejected'],
      ['empirical-test-agreed', 'current: accepted'],
      ['verdict-normalization', 'current: accepted'],
      ['unscoreable-silent-critique', 'manual-review: manual review: only 2 of 6 dimensions applicable (at least 4 needed)'],
      ['required-test-missing', 'current: rejected'],
    ])
  })

  test('the hashes a case added now records: the rubric revision and the fingerprint of null for each review', async () => {
    const copy = await copyDebate()
    const { status } = await statusOf(copy.dir)
    expect(status.newCase).toEqual({
      rubric_sha256: 'be89f77dd9c03442e7f5333d6dcf1b906512792f030048390e7a9bc66309c0e0',
      debate_review_sha256: NULL_FINGERPRINT,
      baseline_review_sha256: NULL_FINGERPRINT,
    })
  })

  test('an edited rubric: every case and both its reviews are stale, exit 1', async () => {
    const copy = await copyDebate()
    const path = join(copy.dir, 'evaluation_rubric.json')
    await writeFile(path, (await readFile(path, 'utf8')).replace('"notes": "', '"notes": "Revised. '))
    const { code, status } = await statusOf(copy.dir)
    expect(code).toBe(1)
    expect(status.blocked).toBe(true)
    expect(new Set(status.cases.flatMap((each) => each.findings.map((finding) => finding.group)))).toEqual(new Set(['stale-rubric']))
    expect(findings(status, 'partial-recall')).toEqual([
      expect.stringMatching(
        /^stale-rubric: cases\.json › cases\[0\] › expected › rubric_sha256 be89f77dd9c0… → [0-9a-f]{12}…; annotations\.json › reviews\[0\] › rubric_sha256 be89f77dd9c0… → [0-9a-f]{12}…; annotations\.json › reviews\[1\] › rubric_sha256 be89f77dd9c0… → [0-9a-f]{12}…$/,
      ),
    ])
  })

  test('a rubric whose line endings alone changed: one note on the file, and each stale case points at it', async () => {
    const copy = await copyDebate()
    const path = join(copy.dir, 'evaluation_rubric.json')
    await writeFile(path, (await readFile(path, 'utf8')).replaceAll('\n', '\r\n'))
    const { status } = await statusOf(copy.dir)
    expect(status.notes).toEqual([
      {
        file: 'evaluation_rubric.json',
        text: expect.stringMatching(
          /^Only its line endings changed: with LF line endings, evaluation_rubric\.json has the recorded SHA-256\. Convert its line endings back to LF/,
        ),
      },
    ])
    const stale = status.cases.flatMap((each) => each.findings).filter((finding) => finding.group === 'stale-rubric')
    expect(stale).toHaveLength(status.cases.length)
    for (const finding of stale) {
      expect(finding.detail).toMatch(/ \(see the note on evaluation_rubric\.json\)$/)
      expect(finding.detail).not.toContain('line endings')
    }
    const text = (await runCli(['status', '.'], copy.dir)).stdout
    expect(text.match(/line endings changed/g)).toHaveLength(1)
    expect(text).toContain('\n  note on evaluation_rubric.json: Only its line endings changed: ')
  })

  test('hashes recording different revisions of a converted file: the note says what the conversion explains', async () => {
    const copy = await copyDebate()
    await copy.editReview('partial-recall', 'debate', (review) => {
      review.rubric_sha256 = '0'.repeat(64)
    })
    const path = join(copy.dir, 'evaluation_rubric.json')
    await writeFile(path, (await readFile(path, 'utf8')).replaceAll('\n', '\r\n'))
    const { status } = await statusOf(copy.dir)
    expect(status.notes.map((note) => note.text)).toEqual([expect.stringMatching(/^Only its line endings changed: with LF line endings/)])
    expect(findings(status, 'partial-recall')[0]).toMatch(
      /annotations\.json › reviews\[0\] › rubric_sha256 000000000000… → [0-9a-f]{12}…; .* \(see the note on evaluation_rubric\.json\)$/,
    )
  })

  test('a hash recording the file with CRLF line endings: the note says so, and a hash of another revision gets none', async () => {
    const copy = await copyDebate()
    const path = join(copy.dir, 'evaluation_rubric.json')
    const crlf = sha256Hex(Buffer.from((await readFile(path, 'utf8')).replaceAll('\n', '\r\n')))
    await copy.editCases((cases) => {
      cases.cases[0]!.expected.rubric_sha256 = crlf
    })
    await copy.editReview('partial-recall', 'debate', (review) => {
      review.rubric_sha256 = '0'.repeat(64)
    })
    const { status } = await statusOf(copy.dir)
    expect(status.notes.map((note) => note.text)).toEqual([
      expect.stringMatching(
        /^Only its line endings changed: the recorded SHA-256 is that of evaluation_rubric\.json with CRLF line endings, .*no review needs to change\.$/,
      ),
    ])
    expect(findings(status, 'partial-recall')[0]).toMatch(/ \(see the note on evaluation_rubric\.json\)$/)
    // Only one case recorded the converted revision: the others are not pointed at the note.
    expect(findings(status, 'zero-planted-issues')).toEqual(['current: accepted'])
  })

  test('a case with no review yet, under an edited rubric: nothing was judged, so binding records the files as they are now', async () => {
    const copy = await copyDebate()
    await withdrawReview(copy, 'partial-recall', 'debate', true)
    await withdrawReview(copy, 'partial-recall', 'baseline', true)
    const path = join(copy.dir, 'evaluation_rubric.json')
    await writeFile(path, (await readFile(path, 'utf8')).replace('"notes": "', '"notes": "Revised. '))
    const { status } = await statusOf(copy.dir)
    expect(findings(status, 'partial-recall')).toEqual([
      expect.stringMatching(
        /^stale-rubric: cases\.json › cases\[0\] › expected › rubric_sha256 be89f77dd9c0… → [0-9a-f]{12}… \(no review yet: nothing was judged, so `bind` records the files as they are now\)$/,
      ),
    ])
  })

  test('a case with one review left, under an edited rubric, is not "no review yet"', async () => {
    const copy = await copyDebate()
    await withdrawReview(copy, 'partial-recall', 'debate', true)
    await reviseRubricNotes(copy)
    const { status } = await statusOf(copy.dir)
    expect(findings(status, 'partial-recall')).toEqual([
      expect.stringMatching(
        /^stale-rubric: cases\.json › cases\[0\] › expected › rubric_sha256 be89f77dd9c0… → [0-9a-f]{12}…; annotations\.json › reviews\[0\] › rubric_sha256 be89f77dd9c0… → [0-9a-f]{12}…$/,
      ),
    ])
  })

  test('an edited review that the case has not acknowledged, exit 1', async () => {
    const copy = await copyDebate()
    await copy.editReview(
      'partial-recall',
      'debate',
      (review) => {
        review.claims[0]!.reason = 'Reworded after a second reading.'
      },
      false,
    )
    const { code, status } = await statusOf(copy.dir)
    expect(code).toBe(1)
    expect(findings(status, 'partial-recall')).toEqual([
      'unacknowledged: the debate review at annotations.json › reviews[0] was edited since cases.json › cases[0] › expected › debate_review_sha256 recorded it',
    ])
  })

  test('a review added to a case that records none', async () => {
    const copy = await copyDebate()
    const review = (await copy.readJson<{ reviews: unknown[] }>('annotations.json')).reviews[1]
    await withdrawReview(copy, 'partial-recall', 'baseline', true)
    await copy.editAnnotations((annotations) => {
      annotations.reviews.push(review as never)
    })
    const { code, status } = await statusOf(copy.dir)
    expect(code).toBe(1)
    expect(findings(status, 'partial-recall')).toEqual(['new-review: the baseline review at annotations.json › reviews[19]'])
    expect((await runCli(['status', '.'], copy.dir)).stdout).toContain(
      '  new review, not bound yet (1): check it, then `vitest-rubric bind . --case <id>` records the hashes of the files as they are now\n    partial-recall: the baseline review at annotations.json › reviews[19]\n',
    )
  })

  test('a review removed without acknowledgement: restore it, or record the withdrawal', async () => {
    const copy = await copyDebate()
    await withdrawReview(copy, 'partial-recall', 'baseline', false)
    const { code, status } = await statusOf(copy.dir)
    expect(code).toBe(1)
    expect(findings(status, 'partial-recall')).toEqual([
      'withdrawn: the baseline review was removed, but cases.json › cases[0] › expected › baseline_review_sha256 still records it',
    ])
    expect((await runCli(['status', '.'], copy.dir)).stdout).toContain(
      '  review withdrawn, still recorded (1): restore the review, or acknowledge its withdrawal with `vitest-rubric bind . --case <id>`\n    partial-recall: the baseline review was removed',
    )
  })

  test('a withdrawn baseline review: the case is current, the baseline unreviewed, exit 0', async () => {
    const copy = await copyDebate()
    await withdrawReview(copy, 'partial-recall', 'baseline', true)
    const { code, status } = await statusOf(copy.dir)
    expect(code).toBe(0)
    expect(findings(status, 'partial-recall')).toEqual(['current: accepted', 'unreviewed: no baseline review'])
  })

  test('a withdrawn debate review: the case is unreviewed, exit 0', async () => {
    const copy = await copyDebate()
    await withdrawReview(copy, 'partial-recall', 'debate', true)
    const { code, status } = await statusOf(copy.dir)
    expect(code).toBe(0)
    expect(findings(status, 'partial-recall')).toEqual(['unreviewed: no debate review'])
  })

  test('a refused baseline review is listed beside the decided case, exit 1', async () => {
    const copy = await copyDebate()
    await copy.editReview('partial-recall', 'baseline', (review) => {
      review.claims[0]!.span = 'words the self-critique never says'
    })
    const { code, status } = await statusOf(copy.dir)
    expect(code).toBe(1)
    expect(status.blocked).toBe(true)
    expect(findings(status, 'partial-recall')).toMatchInlineSnapshot(`
      [
        "current: accepted",
        "refused: baseline review: annotations.json › reviews[1] › claims[0] › span (case "partial-recall"): the excerpt does not occur in cases.json › cases[0] › outputs › baseline › self_critique.",
      ]
    `)
  })

  test('a refused debate review is listed with the first line of its error, exit 1', async () => {
    const copy = await copyDebate()
    await copy.editReview('partial-recall', 'debate', (review) => {
      review.claims[0]!.span = 'words the critique never says'
    })
    const { code, status } = await statusOf(copy.dir)
    expect(code).toBe(1)
    expect(findings(status, 'partial-recall')).toMatchInlineSnapshot(`
      [
        "refused: annotations.json › reviews[0] › claims[0] › span (case "partial-recall"): the excerpt does not occur in the critique turns of cases.json › cases[0] › outputs › debate › transcript.",
      ]
    `)
  })

  test('a refused case is listed once: its baseline is refused with it, not on its own account', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      ;(cases.cases[0]!.spec as { max_rounds: unknown }).max_rounds = 'four'
    })
    const { code, stdout } = await runCli(['status', '.'], copy.dir)
    expect(code).toBe(1)
    expect(stdout).toContain(
      '  refused (1): fix what the message names (`vitest-rubric evaluate .` prints it in full)\n    partial-recall: cases.json › cases[0] › spec › max_rounds (case "partial-recall"): the value has the wrong type.\n  manual review (1)',
    )
  })

  test('a refused debate review and a refused baseline review are both listed', async () => {
    const copy = await copyDebate()
    for (const system of ['debate', 'baseline'] as const) {
      await copy.editReview('partial-recall', system, (review) => {
        review.claims[0]!.span = 'words nobody wrote'
      })
    }
    const { status } = await statusOf(copy.dir)
    expect(findings(status, 'partial-recall')).toEqual([
      'refused: annotations.json › reviews[0] › claims[0] › span (case "partial-recall"): the excerpt does not occur in the critique turns of cases.json › cases[0] › outputs › debate › transcript.',
      'refused: baseline review: annotations.json › reviews[1] › claims[0] › span (case "partial-recall"): the excerpt does not occur in cases.json › cases[0] › outputs › baseline › self_critique.',
    ])
  })
  test('a review without a canonical form has no hashes to compare: it is listed as refused, and bind refuses it', async () => {
    const copy = await copyDebate()
    await copy.editReview(
      'partial-recall',
      'baseline',
      (review) => {
        review.claims[0]!.reason += ' \ud800'
      },
      false,
    )
    const { code, status } = await statusOf(copy.dir)
    expect(code).toBe(1)
    expect(findings(status, 'partial-recall')).toMatchInlineSnapshot(`
      [
        "current: accepted",
        "refused: baseline review: annotations.json › reviews[1] › claims[0] › reason (case "partial-recall"): the string holds a lone surrogate, which has no UTF-8 encoding.",
      ]
    `)
    const bind = await runCli(['bind', '.', '--case', 'partial-recall'], copy.dir)
    expect(bind.code).toBe(1)
    expect(bind.stderr).toMatch(
      /^cases\.json \(case "partial-recall"\): the case or its review is malformed, so it has no hashes to bind; nothing was written\./,
    )
  })
})
