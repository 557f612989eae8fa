import { appendFile, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { FixtureStatus } from '../../src/core/engine/status.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture, DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { copyDebate } from '../helpers/scored-copy.js'

/** `status --json` of a directory, with each case's states. */
async function statusOf(dir: string): Promise<{ code: number; states: Record<string, string[]>; status: FixtureStatus }> {
  const { code, stdout, stderr } = await runCli(['status', '.', '--json'], dir)
  expect(stderr).toBe('')
  const [status] = JSON.parse(stdout) as FixtureStatus[]
  const states = Object.fromEntries(status!.cases.map((each) => [each.id, each.findings.map((finding) => finding.group)]))
  return { code, states, status: status! }
}

function findings(status: FixtureStatus, id: string): string[] {
  return status.cases.find((each) => each.id === id)!.findings.map((finding) => `${finding.group}: ${finding.detail}`)
}

async function editRubric(dir: string, edit: (rubric: { criteria: { id: string; rule: string; reference_quote: string }[] }) => void): Promise<void> {
  const rubric = JSON.parse(await readFile(join(dir, 'rubric.json'), 'utf8'))
  edit(rubric)
  await writeFile(join(dir, 'rubric.json'), `${JSON.stringify(rubric, null, 2)}\n`)
}

describe('vitest-rubric status', () => {
  test('the bundled fixtures: every review bound, the pending cases named with what they need, exit 0', async () => {
    const { code, stdout } = await runCli(['status'])
    expect(code).toBe(0)
    expect(stdout).toContain(
      'unreviewed (1): review the answer: `vitest-rubric review fixtures/docuctl-rollback --case <id>` (on a terminal it asks for each criterion; from a script, give --rating, --reason and --span, or --from)\n    not-reviewed: no review',
    )
    expect(stdout).toContain(
      'uncertain (1): settle the uncertain ratings as meets or does_not_meet (the case stays pending until then)\n    uncertain-wording: uncertain on support',
    )
    expect(stdout).toContain('manual review (1)')
    expect(stdout.match(/status: every review is bound to the files as they are/g)).toHaveLength(2)
  })

  test('an edited answer: that case is stale, the others current, exit 1', async () => {
    const fixture = await copyFixture()
    await fixture.editCases((cases) => {
      cases.cases[1]!.input.answer.text += ' Nothing else changes.'
    })
    const { code, states, status } = await statusOf(fixture.dir)
    expect(code).toBe(1)
    expect(status.blocked).toBe(true)
    expect(states).toEqual({
      complete: ['current'],
      paraphrase: ['stale-answer'],
      negation: ['current'],
      'unsupported-guarantee': ['current'],
      'missing-verification': ['current'],
      'wrong-command': ['current'],
      'uncertain-wording': ['uncertain'],
      'not-reviewed': ['unreviewed'],
    })
    expect(findings(status, 'paraphrase')[0]).toMatch(/^stale-answer: annotations\.json › reviews\[1\] › answer_sha256 [0-9a-f]{12}… → [0-9a-f]{12}…$/)
  })

  test('an edited source: every case is bound to the old revision, the unreviewed one included', async () => {
    const fixture = await copyFixture()
    await appendFile(join(fixture.dir, 'source.txt'), 'A new paragraph.\n')
    const { code, states, status } = await statusOf(fixture.dir)
    expect(code).toBe(1)
    expect(new Set(Object.values(states).flat())).toEqual(new Set(['stale-source']))
    expect(findings(status, 'complete')[0]).toContain('cases.json › cases[0] › expected › source_sha256 2ce5d06d1dc2… → ')
    expect(findings(status, 'complete')[0]).toContain('annotations.json › reviews[0] › source_sha256 2ce5d06d1dc2… → ')
    expect(findings(status, 'not-reviewed')).toEqual([expect.stringMatching(/^stale-source: cases\.json › cases\[7\] › expected › source_sha256 /)])
  })

  test('a rubric revision names the criteria it affects', async () => {
    const fixture = await copyFixture()
    await editRubric(fixture.dir, (rubric) => {
      rubric.criteria = rubric.criteria.filter((criterion) => criterion.id !== 'database_scope')
      rubric.criteria.find((criterion) => criterion.id === 'support')!.reference_quote =
        'An assistant may explain or propose this command; it does not execute it in this example.'
      rubric.criteria.push({ id: 'audience', rule: 'Addresses the operator.', reference_quote: 'Fictional docuctl 3 guide: staging rollback to r41' })
    })
    const { code, states, status } = await statusOf(fixture.dir)
    expect(code).toBe(1)
    expect(states.complete).toEqual(['stale-rubric'])
    expect(findings(status, 'complete')[0]).toMatch(
      /^stale-rubric: cases\.json › cases\[0\] › expected › rubric_sha256 3a8dcd22e9f4… → [0-9a-f]{12}…; annotations\.json › reviews\[0\] › rubric_sha256 3a8dcd22e9f4… → [0-9a-f]{12}…; criteria affected: /,
    )
    expect(findings(status, 'complete')[0]).toMatch(
      /; criteria affected: support \(reference quote changed\), audience \(new: not judged\), database_scope \(judged, no longer in the rubric\)$/,
    )
    // A case without a review has no judgements to compare: only its own hash is named.
    expect(findings(status, 'not-reviewed')).toEqual([
      expect.stringMatching(
        /^stale-rubric: cases\.json › cases\[7\] › expected › rubric_sha256 [0-9a-f]{12}… → [0-9a-f]{12}… \(no review yet: nothing was judged, so `bind` records the files as they are now\)$/,
      ),
    ])
  })

  test('a new criterion named like an inherited property ("constructor") is named as not judged', async () => {
    const fixture = await copyFixture()
    await editRubric(fixture.dir, (rubric) => {
      rubric.criteria.push({ id: 'constructor', rule: 'Names who runs the command.', reference_quote: 'Fictional docuctl 3 guide: staging rollback to r41' })
    })
    const { status } = await statusOf(fixture.dir)
    expect(findings(status, 'complete')[0]).toMatch(/; criteria affected: constructor \(new: not judged\)$/)
  })

  test('a reworded rule leaves no trace in the judgements: status says to re-read every criterion', async () => {
    const fixture = await copyFixture()
    await editRubric(fixture.dir, (rubric) => {
      rubric.criteria[0]!.rule += ' Name the environment.'
    })
    const { status } = await statusOf(fixture.dir)
    expect(findings(status, 'complete')[0]).toContain(
      'no criterion was added, removed or re-quoted: the change is in a rule, the task or the acceptance text, so re-read every criterion',
    )
  })

  test('findings alike but for their place in the files are said once, with their cases, not once a case', async () => {
    const fixture = await copyFixture()
    await editRubric(fixture.dir, (rubric) => {
      rubric.criteria[0]!.rule += ' Name the environment.'
    })
    const { stdout } = await runCli(['status', '.'], fixture.dir)
    const group = stdout.slice(stdout.indexOf('  stale rubric (8)'), stdout.indexOf('  status:'))
    expect(group.replaceAll(/[0-9a-f]{12}…/g, '<sha>…')).toMatchInlineSnapshot(`
      "  stale rubric (8): the rubric changed since the review: revise the judgements of the affected criteria, then \`vitest-rubric bind . --case <id>\`
          7 cases: complete, paraphrase, negation, unsupported-guarantee, missing-verification, wrong-command, uncertain-wording
            cases.json › cases[…] › expected › rubric_sha256 <sha>… → <sha>…; annotations.json › reviews[…] › rubric_sha256 <sha>… → <sha>…; no criterion was added, removed or re-quoted: the change is in a rule, the task or the acceptance text, so re-read every criterion
          not-reviewed: cases.json › cases[7] › expected › rubric_sha256 <sha>… → <sha>… (no review yet: nothing was judged, so \`bind\` records the files as they are now)
      "
    `)
  })

  test('an edited review that the case has not acknowledged', async () => {
    const fixture = await copyFixture()
    await fixture.editAnnotations((annotations) => {
      annotations.reviews[2]!.judgements.support!.reason = 'Reworded after a second reading.'
    })
    const { code, states, status } = await statusOf(fixture.dir)
    expect(code).toBe(1)
    expect(states.negation).toEqual(['unacknowledged'])
    expect(findings(status, 'negation')).toEqual([
      'unacknowledged: the review at annotations.json › reviews[2] was edited since cases.json › cases[2] › expected › review_sha256 recorded it',
    ])
  })

  test('a removed review: restore it, or record the withdrawal explicitly', async () => {
    const fixture = await copyFixture()
    await fixture.editAnnotations((annotations) => {
      annotations.reviews = annotations.reviews.filter((review) => review.answer_id !== 'complete')
    })
    const { code, status } = await statusOf(fixture.dir)
    expect(code).toBe(1)
    expect(findings(status, 'complete')).toEqual(['withdrawn: the review was removed, but cases.json › cases[0] › expected › review_sha256 still records it'])
  })

  test('a review that leaves a criterion unjudged is pending, not stale: exit 0', async () => {
    const fixture = await copyFixture()
    await fixture.editAnnotations((annotations) => {
      delete annotations.reviews[3]!.judgements.verification
    })
    await fixture.acknowledgeReview('unsupported-guarantee')
    const { code, status } = await statusOf(fixture.dir)
    expect(code).toBe(0)
    expect(findings(status, 'unsupported-guarantee')).toEqual(['incomplete: no judgement for verification'])
  })

  test('a review that leaves criteria unjudged and others uncertain names them all', async () => {
    const fixture = await copyFixture()
    await fixture.editAnnotations((annotations) => {
      delete annotations.reviews[6]!.judgements.verification
      delete annotations.reviews[6]!.judgements.preconditions
      annotations.reviews[6]!.judgements.command!.rating = 'uncertain'
    })
    await fixture.acknowledgeReview('uncertain-wording')
    const { code, status } = await statusOf(fixture.dir)
    expect(code).toBe(0)
    expect(findings(status, 'uncertain-wording')).toEqual(['incomplete: no judgement for preconditions, verification; uncertain on command, support'])
  })

  test('the hashes a case added now records: the source and rubric revisions and the fingerprint of null', async () => {
    const { status } = await statusOf(DOCUCTL)
    expect(status.newCase).toEqual({
      source_sha256: '2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2',
      rubric_sha256: '3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228',
      review_sha256: '74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b',
    })
  })

  test('a case refused for another reason is listed with its error, exit 1', async () => {
    const fixture = await copyFixture()
    await fixture.editAnnotations((annotations) => {
      annotations.reviews[0]!.judgements.command!.answer_span = 'words the answer never says'
    })
    await fixture.acknowledgeReview('complete')
    const { code, status } = await statusOf(fixture.dir)
    expect(code).toBe(1)
    expect(findings(status, 'complete')).toEqual([
      'refused: annotations.json › reviews[0] › judgements › command › answer_span (case "complete"): the answer span does not occur in the answer text (cases.json › cases[0] › input › answer › text).',
    ])
  })

  test('a malformed review has no hashes to compare: it is listed as refused, exit 1', async () => {
    const fixture = await copyFixture()
    await fixture.editAnnotations((annotations) => {
      annotations.reviews[0]!.judgements.command!.rating = 'good'
    })
    await fixture.acknowledgeReview('complete')
    const { code, status } = await statusOf(fixture.dir)
    expect(code).toBe(1)
    expect(findings(status, 'complete')).toEqual([
      'refused: annotations.json › reviews[0] › judgements › command › rating (case "complete"): the value is not one of those allowed.',
    ])
  })

  test('a rubric whose line endings alone changed: the note is given once for the file, not once per case', async () => {
    const fixture = await copyFixture()
    const path = join(fixture.dir, 'rubric.json')
    await writeFile(path, (await readFile(path, 'utf8')).replaceAll('\n', '\r\n'))
    const { status } = await statusOf(fixture.dir)
    expect(status.notes).toEqual([
      {
        file: 'rubric.json',
        text: expect.stringMatching(
          /^Only its line endings changed: with LF line endings, rubric\.json has the recorded SHA-256\. Convert its line endings back to LF/,
        ),
      },
    ])
    expect(findings(status, 'complete')[0]).toMatch(/^stale-rubric: .* \(see the note on rubric\.json\)$/)
    for (const command of [
      ['status', '.'],
      ['evaluate', '.'],
    ]) {
      const { stdout } = await runCli(command, fixture.dir)
      // Each case points at the note; the explanation and its advice are given once.
      expect(stdout.match(/\.gitattributes/g), command.join(' ')).toHaveLength(1)
      expect(stdout, command.join(' ')).toContain(
        'note on rubric.json: Only its line endings changed: with LF line endings, rubric.json has the recorded SHA-256. Convert its line endings back to LF',
      )
    }
  })

  test('a malformed case has no hashes to compare: it is listed as refused, and bind refuses it', async () => {
    const fixture = await copyFixture()
    await fixture.editCases((cases) => {
      ;(cases.cases[1]!.expected as { acceptable: unknown }).acceptable = 'yes'
    })
    const { code, status } = await statusOf(fixture.dir)
    expect(code).toBe(1)
    expect(findings(status, 'paraphrase')).toEqual([
      'refused: cases.json › cases[1] › expected › acceptable (case "paraphrase"): the value is not one of those allowed.',
    ])
    const bind = await runCli(['bind', '.', '--case', 'paraphrase'], fixture.dir)
    expect(bind.code).toBe(1)
    expect(bind.stderr).toMatch(
      /^cases\.json \(case "paraphrase"\): the case or its review is malformed, so it has no hashes to bind; nothing was written\.\n {4}cases\.json › cases\[1\] › expected › acceptable/,
    )
  })

  test('a review without a canonical form has no hashes to compare: it is listed as refused', async () => {
    const fixture = await copyFixture()
    await fixture.editAnnotations((annotations) => {
      annotations.reviews[1]!.judgements.command!.reason += ' \ud800'
    })
    const { code, status } = await statusOf(fixture.dir)
    expect(code).toBe(1)
    expect(findings(status, 'paraphrase')).toEqual([
      'refused: annotations.json › reviews[1] › judgements › command › reason (case "paraphrase"): the string holds a lone surrogate, which has no UTF-8 encoding.',
    ])
  })

  test('a scored fixture: an edited output and spec are stale for their reviews', async () => {
    const benchmark = await copyDebate()
    await benchmark.editCases((cases) => {
      const theCase = cases.cases.find((each) => each.id === 'partial-recall')!
      theCase.outputs.baseline.answer += ' (revised)'
      cases.cases.find((each) => each.id === 'never-terminates')!.spec.max_rounds += 1
    })
    const { code, states, status } = await statusOf(benchmark.dir)
    expect(code).toBe(1)
    expect(states['partial-recall']).toEqual(['stale-output'])
    expect(findings(status, 'partial-recall')[0]).toMatch(/^stale-output: annotations\.json › reviews\[1\] › output_sha256 /)
    expect(states['never-terminates']).toEqual(['stale-spec'])
    expect(findings(status, 'never-terminates')[0]).toMatch(/spec_sha256 .*; annotations\.json › reviews\[\d+\] › spec_sha256 /)
  })

  test('a fixture that cannot be loaded is reported with its error, after the others, exit 1', async () => {
    const fixture = await copyFixture()
    await writeFile(join(fixture.dir, 'cases.json'), '{"name": ')
    const { code, stdout, stderr } = await runCli(['status', join(ROOT, 'fixtures/docuctl-rollback'), '.'], fixture.dir)
    expect(code).toBe(1)
    expect(stderr).toBe('')
    expect(stdout).toContain('status: every review is bound to the files as they are')
    expect(stdout).toContain('.: the fixture is refused, so none of its cases is decided\n  cases.json: the file is not valid JSON (line 1, column 10).')
  })

  test('status --help', async () => {
    const { code, stdout } = await runCli(['status', '--help'], ROOT)
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: vitest-rubric status \[dir\.\.\.\] \[--json\]/)
  })
})
