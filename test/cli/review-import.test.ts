import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import { filesIn } from '../helpers/bad-input.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture, type AnnotationsJson, type CasesJson } from '../helpers/fixture-copy.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

/** A label set rating every criterion `rating`, spans left empty. */
const labelSet = (rating = 'meets') =>
  Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating, reason: `The judge's reason for ${criterion}.`, answer_span: '' }]))

describe('vitest-rubric review --judge --from, many cases', () => {
  test('JSON keyed by case id: one process records every label, with its hashes; again is nothing to write', async () => {
    const fixture = await copyFixture()
    const cases = await fixture.readJson<CasesJson>('cases.json')
    await writeFile(join(fixture.dir, 'labels.json'), JSON.stringify(Object.fromEntries(cases.cases.map((entry) => [entry.id, labelSet()]))))
    const run = await runCli(['review', '.', '--judge', 'j1', '--origin', 'model-x, prompt r1', '--from', 'labels.json'], fixture.dir)
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe('.\n  judge j1: recorded labels of 8 cases (8 new, 0 replaced, 0 already so)\n  wrote judges/j1.json\n')
    const file = await fixture.readJson<AnnotationsJson>('judges/j1.json')
    expect(file.origin).toBe('model-x, prompt r1')
    expect(file.reviews.map((review) => review.answer_id)).toEqual(cases.cases.map((entry) => entry.id))
    expect(file.reviews[0]!.answer_sha256).toBe(fingerprint(cases.cases[0]!.input.answer))
    const calibration = JSON.parse((await runCli(['calibrate', '.', '--json'], fixture.dir)).stdout)
    expect(calibration.judges.j1).toMatchObject({ cases: 7, stale: 0, refused_cases: [] })

    const again = await runCli(['review', '.', '--judge', 'j1', '--from', 'labels.json', '--replace'], fixture.dir)
    expect(again.stdout).toBe('.\n  judge j1: recorded labels of 8 cases (0 new, 0 replaced, 8 already so)\n  nothing to write\n')
  })

  test('JSON Lines, one label set per line: a case labelled already needs --replace, which edits its label in place', async () => {
    const fixture = await copyFixture()
    const lines = (rating: string) => ['complete', 'paraphrase'].map((id) => JSON.stringify({ case: id, judgements: labelSet(rating) })).join('\n')
    await writeFile(join(fixture.dir, 'labels.jsonl'), `${lines('meets')}\n\n`)
    expect((await runCli(['review', '.', '--judge', 'j1', '--from', 'labels.jsonl'], fixture.dir)).stdout).toContain('(2 new, 0 replaced, 0 already so)')
    await writeFile(join(fixture.dir, 'more.jsonl'), `${JSON.stringify({ case: 'negation', judgements: labelSet() })}\n${lines('uncertain')}\n`)
    const refused = await runCli(['review', '.', '--judge', 'j1', '--from', 'more.jsonl'], fixture.dir)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatchInlineSnapshot(`
      "more.jsonl:2: case "complete" has a label by judge j1 already (judges/j1.json › reviews[0]); nothing was written.
        fix:      pass --replace to replace the labels of the cases given, or leave those cases out.
      "
    `)
    const replaced = await runCli(['review', '.', '--judge', 'j1', '--from', 'more.jsonl', '--replace'], fixture.dir)
    expect(replaced.stdout).toContain('(1 new, 2 replaced, 0 already so)')
    const file = await fixture.readJson<AnnotationsJson>('judges/j1.json')
    expect(file.reviews.map((review) => `${review.answer_id}: ${review.judgements['support']!.rating}`)).toEqual([
      'complete: uncertain',
      'paraphrase: uncertain',
      'negation: meets',
    ])
  })

  test('a bad line refuses the whole import, naming the line, and nothing is written', async () => {
    const fixture = await copyFixture()
    const before = await filesIn(fixture.dir)
    const good = JSON.stringify({ case: 'complete', judgements: labelSet() })
    await mkdir(join(fixture.dir, 'in'))
    const attempt = async (name: string, text: string) => {
      await writeFile(join(fixture.dir, 'in', name), text)
      const run = await runCli(['review', '.', '--judge', 'j1', '--from', `in/${name}`], fixture.dir)
      expect(run.code).toBe(1)
      expect(await filesIn(fixture.dir)).toEqual(before)
      expect(existsSync(join(fixture.dir, 'judges'))).toBe(false)
      return run.stderr.trim()
    }
    // A byte-order mark is named as such, not as line 1 not being JSON.
    expect(await attempt('bom.jsonl', `\ufeff${good}\n`)).toMatch(
      /^in\/bom\.jsonl:1:1: the file starts with a byte-order mark, which JSON Lines does not allow; nothing was written\./,
    )
    expect(await attempt('syntax.jsonl', `${good}\n{"case": "paraphrase", "judgements": {}\n`)).toMatchInlineSnapshot(`
      "in/syntax.jsonl:2:40: line 2 is not JSON; nothing was written.
        expected: "," or "}" after the property value
        found:    the end of the line
        fix:      write each label set as one JSON object on one line (JSON Lines), with no line break inside it."
    `)
    const rating = { case: 'paraphrase', judgements: { ...labelSet(), support: { rating: 'fine', reason: 'Yes.' } } }
    expect(await attempt('rating.jsonl', `${good}\n${JSON.stringify(rating)}\n`)).toMatchInlineSnapshot(`
      "in/rating.jsonl:2 › judgements › support › rating: "fine" is not a rating of the rubric; nothing was written.
        expected: one of "meets", "does_not_meet", "uncertain"
        found:    "fine"
        fix:      rate the criterion meets, does_not_meet or uncertain."
    `)
    expect(
      await attempt('span.json', JSON.stringify({ complete: { command: { rating: 'meets', reason: 'Yes.', answer_span: 'not in the answer' } } })),
    ).toMatchInlineSnapshot(`
      "in/span.json › complete › command › answer_span: the span does not occur in the answer; nothing was written.
        expected: an exact excerpt of the answer text, or "" for an omission
        found:    "not in the answer"
        fix:      quote the answer exactly (copy it from vitest-rubric show); for an omission leave the span empty and name what is missing in the reason."
    `)
    expect(await attempt('unknown.jsonl', `${good}\n${JSON.stringify({ case: 'no-such-case', judgements: labelSet() })}\n`)).toMatch(
      /^in\/unknown\.jsonl:2: there is no case "no-such-case" in cases\.json; nothing was written\./,
    )
    expect(await attempt('twice.jsonl', `${good}\n${good}\n`)).toMatch(/^in\/twice\.jsonl:2: case "complete" is labelled twice \(first at in\/twice\.jsonl:1\)/)
    expect(await attempt('shape.jsonl', `${JSON.stringify({ id: 'complete', judgements: {} })}\n`)).toMatchInlineSnapshot(`
      "in/shape.jsonl:1 › id: the line has a key "id" a label set does not have; nothing was written.
        expected: { "case": "<case id>", "judgements": { "<criterion>": { "rating", "reason", "answer_span" } } } on each line
        found:    "id"
        fix:      give each line the case id and its judgements by criterion."
    `)
    expect(await attempt('array.json', '[]')).toMatch(/^in\/array\.json: the labels are not an object keyed by case id; nothing was written\./)
    // A runaway reason (a judge's 5 MB reasons made its file unwritable): refused at its path, as judge --run refuses it.
    const long = { case: 'paraphrase', judgements: { ...labelSet(), support: { rating: 'meets', reason: 'x'.repeat(4_001), answer_span: '' } } }
    expect(await attempt('long.jsonl', `${good}\n${JSON.stringify(long)}\n`)).toMatchInlineSnapshot(`
      "in/long.jsonl:2 › judgements › support › reason: the text is 4,001 characters, more than the 4,000 a judge's label may hold; nothing was written.
        fix:      shorten the judge's reason to a few sentences (docs/judges.md, the verdict's limits)."
    `)
  })

  test('a judgement keyed "__proto__" is refused, not dropped into an empty review, for a reviewer and for a judge', async () => {
    const fixture = await copyFixture()
    const bogus = { rating: 'bogus', reason: '', answer_span: 'nope' }
    // Written as JSON text: an object literal would take the key as its prototype.
    await writeFile(join(fixture.dir, 'one.json'), `{"__proto__":${JSON.stringify(bogus)}}`)
    await writeFile(join(fixture.dir, 'many.jsonl'), `{"case":"negation","judgements":{"__proto__":${JSON.stringify(bogus)}}}\n`)
    const before = await filesIn(fixture.dir)
    for (const [args, place] of [
      [['--case', 'negation', '--reviewer', 'zz', '--from', 'one.json'], 'one.json › __proto__'],
      [['--judge', 'pp', '--from', 'many.jsonl'], 'many.jsonl:1 › judgements › __proto__'],
    ] as const) {
      const run = await runCli(['review', '.', ...args], fixture.dir)
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(`${place}: the key "__proto__" is no member this takes`)
    }
    expect(await filesIn(fixture.dir)).toEqual(before)
    expect(existsSync(join(fixture.dir, 'reviews'))).toBe(false)
    expect(existsSync(join(fixture.dir, 'judges'))).toBe(false)
  })

  test('--case with --from still records one case; a bulk import takes no --rating', async () => {
    const fixture = await copyFixture()
    await writeFile(join(fixture.dir, 'one.json'), JSON.stringify(labelSet()))
    const one = await runCli(['review', '.', '--case', 'complete', '--judge', 'j1', '--from', 'one.json'], fixture.dir)
    expect(one.stdout).toContain('complete by judge j1: recorded a label')
    const mixed = await runCli(['review', '.', '--judge', 'j1', '--from', 'one.json', '--rating', 'command=meets'], fixture.dir)
    expect(mixed.code).toBe(2)
    expect(mixed.stderr).toMatch(/^vitest-rubric review: --rating does not go with a bulk import/)
    expect(JSON.parse(await readFile(join(fixture.dir, 'judges/j1.json'), 'utf8')).reviews).toHaveLength(1)
  })
})
