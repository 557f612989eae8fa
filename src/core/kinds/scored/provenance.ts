import { duplicateIdDetails, preview } from '../../common/errors.js'
import { formatLocation, type PathSegment } from '../../common/json-path.js'
import type { Problem } from '../../contract/kind.js'
import { lastRoundOf } from './transcript.js'
import { concedes } from './dimensions/calibration.js'
import type { BaselineReview, Claim, DebateReview, ScoredCase, Turn } from './schemas.js'

/** Where the review under check stands. */
export interface ReviewAt {
  readonly files: { readonly cases: string; readonly annotations: string }
  readonly caseId: string
  readonly casePath: readonly PathSegment[]
  readonly reviewPath: readonly PathSegment[]
  /** Where the problems found are collected: every one is reported, not only the first. */
  readonly problems: Problem[]
}

/** A text the review quotes from, and how messages name it. */
interface Quoted {
  readonly texts: readonly string[]
  readonly where: string
}

/**
 * Checks that a debate review describes its transcript: unique claim ids, planted issues that
 * exist, exact excerpts (claims from critique turns, responses from defense turns, the test from
 * its proposer's turns, the verdict from the last round) and the sub-judgements the rubric needs
 * where, and only where, they apply. These are provenance checks: a matching excerpt does not make
 * a judgement right, but a judgement that quotes nothing of the output is refused.
 */
export function checkDebateProvenance(at: ReviewAt, theCase: ScoredCase, review: DebateReview): void {
  const { transcript } = theCase.outputs.debate
  const transcriptAt = formatLocation(at.files.cases, [...at.casePath, 'outputs', 'debate', 'transcript'])
  const turnsOf = (agent: Turn['agent']): Quoted => ({
    texts: transcript.filter((turn) => turn.agent === agent).map((turn) => turn.text),
    where: `the ${agent} turns of ${transcriptAt}`,
  })
  checkClaims(at, theCase, review.claims, turnsOf('critique'))
  review.claims.forEach((claim, index) => {
    const path = ['claims', index, 'defense']
    const { response, span, position_updated: updated } = claim.defense
    if (response === 'no_engagement' && span !== '') {
      inconsistent(at, [...path, 'span'], {
        summary: 'a response of no_engagement quotes nothing: no defense turn answers the claim.',
        expected: '""',
        found: preview(span),
        hint: 'set span to "", or record the response the quoted turn gives.',
      })
    }
    if (response !== 'no_engagement' && span === '') {
      inconsistent(at, [...path, 'span'], {
        summary: `a ${response} response needs the excerpt of the defense turn that gives it.`,
        expected: 'an exact excerpt of a defense turn',
        found: '""',
        hint: 'quote the defense turn, or record no_engagement if the defense never answers the claim.',
      })
    }
    if (span !== '') quoted(at, [...path, 'span'], span, turnsOf('defense'))
    const updateJudged = claim.validity !== 'invalid' && concedes(response)
    if (updateJudged && updated === undefined) {
      inconsistent(at, [...path, 'position_updated'], {
        summary: `the defense concedes a valid claim (${response}), so the (C) position update must be judged.`,
        expected: 'true or false',
        found: 'nothing (the key is missing)',
        hint: 'record whether the defense updated its stated conclusion or proposed fix after the concession.',
      })
    }
    if (!updateJudged && updated !== undefined) {
      inconsistent(at, [...path, 'position_updated'], {
        summary: 'a position update is judged only after the defense concedes a valid claim (fully or hedged).',
        expected: 'no position_updated key',
        found: JSON.stringify(updated),
        hint: "remove position_updated, or correct the claim's validity or the response.",
      })
    }
  })
  if (review.empirical_test !== null) {
    quoted(at, ['empirical_test', 'span'], review.empirical_test.span, turnsOf(review.empirical_test.proposed_by))
  }
  if (review.final_verdict !== null) {
    const lastRound = lastRoundOf(transcript)
    quoted(at, ['final_verdict'], review.final_verdict, {
      texts: transcript.filter((turn) => turn.round === lastRound).map((turn) => turn.text),
      where: `the turns of the last round (${lastRound}) of ${transcriptAt}, where the debate closes`,
    })
  }
}

/**
 * Checks that a baseline review describes the baseline's output: the claims and the test quote the
 * self-critique, the verdict quotes the answer, and exactly the valid claims judge the answer's
 * handling.
 */
export function checkBaselineProvenance(at: ReviewAt, theCase: ScoredCase, review: BaselineReview): void {
  const outputAt = (key: string) => formatLocation(at.files.cases, [...at.casePath, 'outputs', 'baseline', key])
  const selfCritique: Quoted = { texts: [theCase.outputs.baseline.self_critique], where: outputAt('self_critique') }
  checkClaims(at, theCase, review.claims, selfCritique)
  review.claims.forEach((claim, index) => {
    const path = ['claims', index, 'answer_handling']
    if (claim.validity !== 'invalid' && claim.answer_handling === undefined) {
      inconsistent(at, path, {
        summary: 'the self-critique identifies a valid flaw, so whether the answer already handled it must be judged.',
        expected: '"already_correct" or "not_handled"',
        found: 'nothing (the key is missing)',
        hint: 'record whether the original answer already contained the correct handling.',
      })
    }
    if (claim.validity === 'invalid' && claim.answer_handling !== undefined) {
      inconsistent(at, path, {
        summary: 'an invalid claim identifies no flaw, so there is no handling to judge.',
        expected: 'no answer_handling key',
        found: JSON.stringify(claim.answer_handling),
        hint: "remove answer_handling, or correct the claim's validity.",
      })
    }
  })
  if (review.empirical_test !== null) quoted(at, ['empirical_test', 'span'], review.empirical_test.span, selfCritique)
  if (review.final_verdict !== null) {
    quoted(at, ['final_verdict'], review.final_verdict, { texts: [theCase.outputs.baseline.answer], where: outputAt('answer') })
  }
}

function checkClaims(at: ReviewAt, theCase: ScoredCase, claims: readonly Claim[], critique: Quoted): void {
  const planted = theCase.spec.ground_truth.planted_issues.map((issue) => issue.id)
  const seen = new Map<string, number>()
  claims.forEach((claim, index) => {
    const path = ['claims', index]
    const earlier = seen.get(claim.id)
    if (earlier !== undefined) {
      const hint = 'give every atomic claim its own id; a sentence that makes two claims is split into two atomic claims.'
      const where = { file: at.files.annotations, path: [...at.reviewPath, ...path, 'id'], caseId: at.caseId }
      at.problems.push(duplicateIdDetails({ code: 'DUPLICATE_CLAIM', ...where, what: 'claim', earlier: `claims[${earlier}]`, id: claim.id, hint }))
    }
    seen.set(claim.id, index)
    if (claim.validity === 'planted') {
      if (claim.planted_issue === undefined || claim.credit === undefined) {
        const missing = claim.planted_issue === undefined ? 'planted_issue' : 'credit'
        inconsistent(at, [...path, missing], {
          summary: 'a claim judged planted must name the planted issue it finds and the credit it earns.',
          expected:
            missing === 'credit' ? '"full" or "partial"' : planted.length === 0 ? 'a planted issue id, but the case plants none' : `one of ${listed(planted)}`,
          found: 'nothing (the key is missing)',
          hint: 'add the key, or judge the claim demonstrably_real or invalid.',
        })
      } else if (!planted.includes(claim.planted_issue)) {
        at.problems.push({
          code: 'UNKNOWN_PLANTED_ISSUE',
          file: at.files.annotations,
          path: [...at.reviewPath, ...path, 'planted_issue'],
          caseId: at.caseId,
          summary: `the claim names a planted issue that the case does not plant (${formatLocation(at.files.cases, [...at.casePath, 'spec', 'ground_truth', 'planted_issues'])}).`,
          expected: planted.length === 0 ? 'no planted claim: the case plants no issue' : `one of ${listed(planted)}`,
          found: JSON.stringify(claim.planted_issue),
          hint: 'correct the planted issue id, or judge the claim demonstrably_real or invalid.',
        })
      }
    } else {
      for (const key of ['planted_issue', 'credit'] as const) {
        if (claim[key] !== undefined) {
          inconsistent(at, [...path, key], {
            summary: `only a claim judged planted names a planted issue and a credit; this one is ${claim.validity}.`,
            expected: `no ${key} key`,
            found: JSON.stringify(claim[key]),
            hint: `remove ${key}, or judge the claim planted.`,
          })
        }
      }
    }
    quoted(at, [...path, 'span'], claim.span, critique)
  })
}

function quoted(at: ReviewAt, path: readonly PathSegment[], span: string, source: Quoted): void {
  if (source.texts.some((text) => text.includes(span))) return
  at.problems.push({
    code: 'SPAN_NOT_IN_OUTPUT',
    file: at.files.annotations,
    path: [...at.reviewPath, ...path],
    caseId: at.caseId,
    summary: `the excerpt does not occur in ${source.where}.`,
    expected: 'an exact excerpt of the output the review describes',
    found: preview(span, 400),
    hint: 'quote the output exactly (whitespace and punctuation included); if the output changed, re-review it.',
  })
}

interface Inconsistency {
  readonly summary: string
  readonly expected: string
  readonly found: string
  readonly hint: string
}

function inconsistent(at: ReviewAt, path: readonly PathSegment[], problem: Inconsistency): void {
  at.problems.push({
    code: 'ANNOTATION_INCONSISTENT',
    file: at.files.annotations,
    path: [...at.reviewPath, ...path],
    caseId: at.caseId,
    ...problem,
  })
}

function listed(ids: readonly string[]): string {
  return ids.map((id) => JSON.stringify(id)).join(', ')
}
