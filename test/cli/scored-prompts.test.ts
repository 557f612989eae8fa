import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { filesIn } from '../helpers/bad-input.js'
import { runCli } from '../helpers/cli.js'
import { copyDebate, type ReviewJson } from '../helpers/scored-copy.js'
import { KEY, scriptedTerminal } from '../helpers/terminal.js'

const json = async (path: string) => JSON.parse(await readFile(path, 'utf8'))
const BOUND = ['case_id', 'system', 'rubric_sha256', 'spec_sha256', 'output_sha256']

/** Runs a command of the CLI on a scripted terminal. */
async function onTerminal(dir: string, args: string[], steps: Parameters<typeof scriptedTerminal>[0]) {
  const script = scriptedTerminal(steps)
  let stdout = ''
  let stderr = ''
  const code = await main(args, { stdout: (text) => (stdout += `${text}\n`), stderr: (text) => (stderr += `${text}\n`), cwd: dir, terminal: script.terminal })
  script.finished()
  return { code, stdout, stderr, screen: script.screen() }
}

async function adoptedReview(dir: string, caseId: string, system: string): Promise<ReviewJson> {
  return (await json(join(dir, 'annotations.json'))).reviews.find((review: ReviewJson) => review.case_id === caseId && review.system === system)
}

const draftOf = (review: ReviewJson) => Object.fromEntries(Object.entries(review).filter(([key]) => !BOUND.includes(key)))

describe('vitest-rubric review of a scored case on a terminal', () => {
  test('shows the spec and the transcript, asks claim by claim and for the resolution, test and verdict, shows the decision, and writes after confirmation', async () => {
    const copy = await copyDebate()
    const adopted = await adoptedReview(copy.dir, 'partial-recall', 'debate')
    const [c1, c2] = adopted.claims as Extract<ReviewJson, { system: 'debate' }>['claims']
    const { code, stdout, stderr, screen } = await onTerminal(
      copy.dir,
      ['review', '.', '--case', 'partial-recall', '--system', 'debate', '--reviewer', 'alice'],
      [
        { expect: 'Does the critique make a claim?', keys: 'y' },
        { expect: 'C1: the excerpt of the critique', keys: `words no critique says${KEY.enter}` },
        // An excerpt the critique does not hold is refused on the spot and asked again.
        { expect: 'That text does not occur in the critique turns', keys: '\b'.repeat(40) + c1!.span + KEY.enter },
        { expect: 'Validity of C1', keys: KEY.enter },
        { expect: 'The planted issue C1 finds', keys: KEY.enter },
        { expect: 'Credit of C1', keys: KEY.enter },
        { expect: 'Why is C1 planted?', keys: `${c1!.reason}${KEY.enter}` },
        { expect: "The defense's final response to C1", keys: KEY.enter },
        { expect: 'The excerpt of the defense', keys: `${c1!.defense.span}${KEY.enter}` },
        { expect: 'After conceding C1, did the defense update', keys: 'y' },
        { expect: 'Another claim of the critique?', keys: 'y' },
        { expect: 'C2: the excerpt of the critique', keys: `${c2!.span}${KEY.enter}` },
        { expect: 'Validity of C2', keys: KEY.enter },
        { expect: 'The planted issue C2 finds', keys: KEY.down + KEY.enter },
        { expect: 'Credit of C2', keys: KEY.down + KEY.enter },
        { expect: 'Why is C2 planted?', keys: `${c2!.reason}${KEY.enter}` },
        { expect: "The defense's final response to C2", keys: KEY.enter },
        { expect: 'The excerpt of the defense', keys: `${c2!.defense.span}${KEY.enter}` },
        { expect: 'After conceding C2, did the defense update', keys: 'y' },
        { expect: 'Another claim of the critique?', keys: 'n' },
        { expect: "The resolution type of the critique's final explicit statement", keys: KEY.enter },
        { expect: "The resolution type of the defense's final explicit statement", keys: KEY.enter },
        { expect: 'Did the debate take more rounds than necessary?', keys: 'n' },
        { expect: 'Why is the resolution so?', keys: `${adopted.resolution.reason}${KEY.enter}` },
        { expect: 'Does the debate close on an empirical test?', keys: 'n' },
        { expect: 'The final verdict, an exact excerpt of the turns of the last round (2)', keys: `request changes${KEY.enter}` },
        { expect: 'Write the review to reviews/alice.json?', keys: 'y' },
      ],
    )
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(screen).toContain('P2 (paginate(): the start argument of slice): Pages are 1-based')
    expect(screen).toContain('Ideal resolution: critique_wins, within 4 rounds')
    expect(screen).toContain('round 2 · orchestrator:')
    expect(screen).toContain('[8] Final verdict: request changes')
    expect(screen).toContain('With this review the case is accepted.')
    expect(stdout).toContain('partial-recall (debate) by alice: recorded a review, which alone would decide accepted')
    // The same judgements as the adopted review, bound to the same files: the same review.
    const [alice] = (await json(join(copy.dir, 'reviews/alice.json'))).reviews
    expect(alice).toEqual(adopted)
  })

  test('an excerpt is given by the sentence numbers the transcript shows; a sentence of the other agent is refused', async () => {
    const copy = await copyDebate()
    const { code, stderr, screen } = await onTerminal(
      copy.dir,
      ['review', '.', '--case', 'partial-recall', '--system', 'debate', '--reviewer', 'bob'],
      [
        { expect: 'Does the critique make a claim?', keys: 'y' },
        { expect: 'C1: the excerpt of the critique', keys: `3${KEY.enter}` },
        { expect: 'Sentence 3 is not in the critique turns', keys: `\b1${KEY.enter}` },
        { expect: 'Excerpt: "The slice end', keys: '' },
        { expect: 'Validity of C1', keys: KEY.enter },
        { expect: 'The planted issue C1 finds', keys: KEY.enter },
        { expect: 'Credit of C1', keys: KEY.enter },
        { expect: 'Why is C1 planted?', keys: `It finds P1.${KEY.enter}` },
        { expect: "The defense's final response to C1", keys: KEY.enter },
        { expect: 'The excerpt of the defense', keys: `3${KEY.enter}` },
        { expect: 'After conceding C1, did the defense update', keys: 'y' },
        { expect: 'Another claim of the critique?', keys: 'n' },
        { expect: "The resolution type of the critique's final explicit statement", keys: KEY.enter },
        { expect: "The resolution type of the defense's final explicit statement", keys: KEY.enter },
        { expect: 'Did the debate take more rounds than necessary?', keys: 'n' },
        { expect: 'Why is the resolution so?', keys: `Both say critique wins.${KEY.enter}` },
        { expect: 'Does the debate close on an empirical test?', keys: 'n' },
        { expect: 'The final verdict, an exact excerpt of the turns of the last round (2)', keys: `8${KEY.enter}` },
        { expect: 'Write the review to reviews/bob.json?', keys: 'y' },
      ],
    )
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(screen).toContain('[1] The slice end `page * size + size - 1` excludes')
    const [bob] = (await json(join(copy.dir, 'reviews/bob.json'))).reviews
    expect(bob.claims[0].span).toBe('The slice end `page * size + size - 1` excludes the last item of every page, so each page returns size - 1 items.')
    expect(bob.claims[0].defense.span).toBe('Agreed on the slice end: it must be `page * size + size`, and my fix now says so.')
    expect(bob.final_verdict).toBe('Final verdict: request changes')
  })

  test('a baseline review replaced: it starts from the earlier review, so Enter through every question keeps it', async () => {
    const copy = await copyDebate()
    const before = await adoptedReview(copy.dir, 'partial-recall', 'baseline')
    const { code, stdout, stderr, screen } = await onTerminal(
      copy.dir,
      ['review', '.', '--case', 'partial-recall', '--system', 'baseline', '--replace'],
      [
        { expect: 'Does the self-critique make a claim?', keys: KEY.enter },
        { expect: 'B1: the excerpt of the self-critique', keys: KEY.enter },
        { expect: 'Validity of B1', keys: KEY.enter },
        { expect: 'The planted issue B1 finds', keys: KEY.enter },
        { expect: 'Credit of B1', keys: KEY.enter },
        { expect: 'Why is B1 planted?', keys: KEY.enter },
        { expect: 'Did the answer already handle B1?', keys: KEY.enter },
        { expect: 'Another claim of the self-critique?', keys: KEY.enter },
        { expect: 'The resolution type the self-critique reaches', keys: KEY.enter },
        { expect: 'Why is the resolution so?', keys: KEY.enter },
        { expect: 'Does the self-critique propose an empirical test?', keys: KEY.enter },
        { expect: 'The final verdict, an exact excerpt of the answer', keys: KEY.enter },
        { expect: 'Write the review to annotations.json?', keys: 'y' },
      ],
    )
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(screen).toContain("The baseline's answer and self-critique")
    expect(screen).toContain('[1] paginate() slices one page of items and looks correct.')
    expect(screen).toContain('[2] Verdict: approve.')
    expect(screen).toContain('[3] The slice end subtracts one, so each page loses its last item.')
    expect(stdout).toContain('partial-recall (baseline): replaced the review, which decides nothing by itself; the case is')
    expect(stdout).not.toContain('then decided')
    expect(await adoptedReview(copy.dir, 'partial-recall', 'baseline')).toEqual(before)
  })

  /** The questions a review's answers lead to, in order, each kept by Enter at its starting value. */
  function questionsOf(review: ReviewJson): string[] {
    const debate = review.system === 'debate'
    const critic = debate ? 'the critique' : 'the self-critique'
    const questions: string[] = []
    review.claims.forEach((claim, index) => {
      questions.push(index === 0 ? `Does ${critic} make a claim?` : `Another claim of ${critic}?`, `${claim.id}: the excerpt of`, `Validity of ${claim.id}`)
      if (claim.validity === 'planted') questions.push(`The planted issue ${claim.id} finds`, `Credit of ${claim.id}`)
      questions.push(`Why is ${claim.id} ${claim.validity}?`)
      if ('defense' in claim) {
        questions.push(`The defense's final response to ${claim.id}`)
        if (claim.defense.response !== 'no_engagement') questions.push('The excerpt of the defense giving')
        if (claim.defense.position_updated !== undefined) questions.push(`After conceding ${claim.id}`)
      } else if (claim.validity !== 'invalid') questions.push(`Did the answer already handle ${claim.id}?`)
    })
    questions.push(review.claims.length === 0 ? `Does ${critic} make a claim?` : `Another claim of ${critic}?`)
    questions.push(
      ...(debate
        ? ["critique's final explicit statement", "defense's final explicit statement", 'more rounds than necessary', 'Why is the resolution so?']
        : ['the self-critique reaches', 'Why is the resolution so?']),
    )
    questions.push('empirical test?')
    if (review.empirical_test !== null)
      questions.push(...(debate ? ['Who proposes the test?'] : []), 'The excerpt proposing the test', 'Quality of the test', 'Why is the test so?')
    questions.push('The final verdict', 'Write the review to annotations.json?')
    return questions
  }

  test('every bundled review, replaced with Enter alone, is kept as it was', { timeout: 120_000 }, async () => {
    const copy = await copyDebate()
    const reviews: ReviewJson[] = (await json(join(copy.dir, 'annotations.json'))).reviews
    for (const review of reviews) {
      const { code, stderr } = await onTerminal(
        copy.dir,
        ['review', '.', '--case', review.case_id, '--system', review.system, '--replace'],
        questionsOf(review).map((question) => ({ expect: question, keys: KEY.enter })),
      )
      expect({ code, stderr }, `${review.case_id} (${review.system})`).toEqual({ code: 0, stderr: '' })
    }
    expect((await json(join(copy.dir, 'annotations.json'))).reviews).toEqual(reviews)
  })

  test('a case that plants no issue offers no planted validity; cancelling writes nothing', async () => {
    const copy = await copyDebate()
    const before = await filesIn(copy.dir)
    const { code, stderr, screen } = await onTerminal(
      copy.dir,
      ['review', '.', '--case', 'zero-planted-issues', '--system', 'debate', '--reviewer', 'alice'],
      [
        { expect: 'Does the critique make a claim?', keys: 'y' },
        { expect: 'C1: the excerpt of the critique', keys: `${(await adoptedReview(copy.dir, 'zero-planted-issues', 'debate')).claims[0]!.span}${KEY.enter}` },
        { expect: 'Validity of C1', keys: KEY.ctrlC },
      ],
    )
    expect(code).toBe(1)
    expect(stderr).toBe('review cancelled: nothing was written\n')
    expect(screen).toContain('Planted issues: none')
    expect(screen.slice(screen.lastIndexOf('Validity of C1'))).not.toContain('planted')
    expect(await filesIn(copy.dir)).toEqual(before)
  })
})

describe('vitest-rubric adjudicate of a scored case on a terminal', () => {
  /** alice's review is the adopted one; bob gives C2 full credit. */
  async function twoReviewers() {
    const copy = await copyDebate()
    const draft = draftOf(await adoptedReview(copy.dir, 'partial-recall', 'debate'))
    const other = structuredClone(draft) as { claims: { credit?: string }[] }
    other.claims[1]!.credit = 'full'
    for (const [reviewer, review] of [
      ['alice', draft],
      ['bob', other],
    ] as const) {
      await writeFile(join(copy.dir, `${reviewer}.json`), JSON.stringify(review))
      const result = await runCli(
        ['review', '.', '--case', 'partial-recall', '--system', 'debate', '--reviewer', reviewer, '--from', `${reviewer}.json`],
        copy.dir,
      )
      expect(result.stderr).toBe('')
    }
    return { copy, other }
  }

  test("shows each reviewer's scores and review side by side, adopts the one chosen whole, after confirmation", async () => {
    const { copy, other } = await twoReviewers()
    const { code, stdout, stderr, screen } = await onTerminal(
      copy.dir,
      ['adjudicate', '.', '--case', 'partial-recall', '--system', 'debate', '--adjudicator', 'dana'],
      [
        { expect: 'Adopt whose review?', keys: KEY.down + KEY.enter },
        { expect: "Adopt bob's review?", keys: 'y' },
      ],
    )
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(screen).toMatch(/alice {2}bob[\s│]*issue_discovery_recall +0\.75 +1\s/)
    expect(screen).toContain('C2 planted P2 (partial), defense concede, position updated')
    expect(screen).toContain('C2 planted P2 (full), defense concede, position updated')
    expect(screen).toContain("With bob's review the case is accepted.")
    expect(stdout).toContain('partial-recall (debate): adopted a review resolving alice, bob, then decided accepted')
    expect(draftOf(await adoptedReview(copy.dir, 'partial-recall', 'debate'))).toEqual(other)
    const adjudications = await json(join(copy.dir, 'adjudications.json'))
    expect(JSON.stringify(adjudications)).toContain('dana')
    expect(JSON.parse((await runCli(['evaluate', '.', '--json'], copy.dir)).stdout).decisions['partial-recall'].status).toBe('accepted')
  })

  test('an adopted baseline review decides nothing by itself, and says so', async () => {
    const copy = await copyDebate()
    const draft = draftOf(await adoptedReview(copy.dir, 'partial-recall', 'baseline'))
    for (const reviewer of ['alice', 'bob']) {
      await writeFile(join(copy.dir, `${reviewer}.json`), JSON.stringify(draft))
      const result = await runCli(
        ['review', '.', '--case', 'partial-recall', '--system', 'baseline', '--reviewer', reviewer, '--from', `${reviewer}.json`],
        copy.dir,
      )
      expect(result.stderr).toBe('')
    }
    const adopted = await runCli(['adjudicate', '.', '--case', 'partial-recall', '--system', 'baseline', '--adjudicator', 'dana', '--take', 'bob'], copy.dir)
    expect(adopted.stderr).toBe('')
    expect(adopted.stdout).toContain('partial-recall (baseline): adopted a review resolving alice, bob, which decides nothing by itself; the case is')
    expect(adopted.stdout).not.toContain('then decided')
  })

  test('declining the adoption writes nothing', async () => {
    const { copy } = await twoReviewers()
    const before = await filesIn(copy.dir)
    const { code, stderr } = await onTerminal(
      copy.dir,
      ['adjudicate', '.', '--case', 'partial-recall', '--system', 'debate', '--adjudicator', 'dana'],
      [
        { expect: 'Adopt whose review?', keys: KEY.enter },
        { expect: "Adopt alice's review?", keys: 'n' },
      ],
    )
    expect(code).toBe(1)
    expect(stderr).toBe('adjudication cancelled: nothing was written\n')
    expect(await filesIn(copy.dir)).toEqual(before)
  })
})
