import { NULL_FINGERPRINT } from '../canonical-json.js'
import type { CriteriaDecision } from '../criteria/decision.js'
import type { CriteriaFixture } from '../criteria/load.js'
import { evaluateFixture, type Fixture } from '../fixture.js'
import { formatLocation } from '../json-path.js'
import { staleBytesNote, type ConvertedRevisions } from '../line-endings.js'
import type { ScoredDecision } from '../scored/decision.js'
import type { ScoredFixture } from '../scored/load.js'
import { criteriaCaseRevisions, criteriaChange } from './criteria.js'
import { staleness, type Binding, type CaseRevisions, type HashField } from './model.js'
import { scoredCaseRevisions } from './scored.js'

/**
 * What a case needs next, in the order `status` lists them. The first group names recorded hashes
 * that no longer match (the case is refused until a reviewer revises and binds it); then a refusal
 * of another kind; then the reviewer's open work on pending cases; then nothing.
 */
export const CASE_STATES = [
  'stale-answer',
  'stale-output',
  'stale-source',
  'stale-spec',
  'stale-rubric',
  'unacknowledged',
  'refused',
  'unreviewed',
  'incomplete',
  'uncertain',
  'manual-review',
  'current',
] as const
export type CaseState = (typeof CASE_STATES)[number]

/** The states that make `status` fail, the first in the list: a judgement that no longer applies, or a refused case. */
export const BLOCKING_STATES: ReadonlySet<CaseState> = new Set(CASE_STATES.slice(0, CASE_STATES.indexOf('refused') + 1))

/** One thing a case needs, with what the files say about it. */
export interface CaseFinding {
  readonly state: CaseState
  /** One line: which hash, which criteria, which rating. */
  readonly detail: string
}

export interface CaseStatus {
  readonly id: string
  readonly findings: readonly CaseFinding[]
}

export interface FixtureStatus {
  readonly kind: Fixture['kind']
  readonly dir: string
  readonly name: string
  /** The `expected` hashes of a case added now, before it has a review: the files' revisions and the fingerprint of null. */
  readonly newCase: Readonly<Record<string, string>>
  readonly cases: readonly CaseStatus[]
  /** True when a case is stale, unacknowledged or refused. */
  readonly blocked: boolean
}

/** Every case of a fixture with what a reviewer must do next. */
export function fixtureStatus(fixture: Fixture): FixtureStatus {
  const cases = fixture.kind === 'criteria' ? criteriaStatus(fixture) : scoredStatus(fixture)
  return {
    kind: fixture.kind,
    dir: fixture.displayDir,
    name: fixture.name,
    newCase:
      fixture.kind === 'criteria'
        ? { source_sha256: fixture.bound.sourceSha256, rubric_sha256: fixture.bound.rubricSha256, review_sha256: NULL_FINGERPRINT }
        : { rubric_sha256: fixture.rubric.sha256, debate_review_sha256: NULL_FINGERPRINT, baseline_review_sha256: NULL_FINGERPRINT },
    cases,
    blocked: cases.some((each) => each.findings.some((finding) => BLOCKING_STATES.has(finding.state))),
  }
}

function criteriaStatus(fixture: CriteriaFixture): CaseStatus[] {
  const decisions = evaluateFixture(fixture).decisions
  const { files, conversions } = fixture.bound
  // A fixture loaded from its directory always has conversions; only a rubric bound from contents lacks them.
  const converted: FileConversions = {
    // Stryker disable next-line OptionalChaining: see above
    source: { file: files.source, revisions: conversions?.source },
    // Stryker disable next-line OptionalChaining: see above
    rubric: { file: files.rubric, revisions: conversions?.rubric },
  }
  return fixture.cases.map((entry, index) => {
    const revisions = criteriaCaseRevisions(fixture, entry)
    const decision = decisions[index]!
    const stale = revisions === undefined ? [] : staleFindings(revisions, files.cases, files.annotations, converted)
    const rubricFinding = stale.find((finding) => finding.state === 'stale-rubric')
    if (rubricFinding !== undefined) {
      const review = fixture.reviews.get(entry.id)
      const change = review === undefined ? undefined : criteriaChange(fixture, review.value)
      if (change !== undefined) stale[stale.indexOf(rubricFinding)] = { ...rubricFinding, detail: `${rubricFinding.detail}; ${describeChange(change)}` }
    }
    return { id: entry.id, findings: stale.length > 0 ? stale : [criteriaFinding(decision)] }
  })
}

function scoredStatus(fixture: ScoredFixture): CaseStatus[] {
  const decisions = evaluateFixture(fixture).decisions
  const converted: FileConversions = { rubric: { file: fixture.fileNames.rubric, revisions: fixture.rubric.conversions } }
  return fixture.cases.map((entry, index) => {
    const revisions = scoredCaseRevisions(fixture, entry)
    const stale = revisions === undefined ? [] : staleFindings(revisions, fixture.fileNames.cases, fixture.fileNames.annotations, converted)
    return { id: entry.id, findings: stale.length > 0 ? stale : scoredFindings(decisions[index]!) }
  })
}

const STALE_STATE: Readonly<Record<Binding, CaseState>> = {
  answer: 'stale-answer',
  output: 'stale-output',
  source: 'stale-source',
  spec: 'stale-spec',
  rubric: 'stale-rubric',
}

/** The files bound by their bytes, with what their bytes would hash to once converted (line endings, BOM). */
type FileConversions = Partial<Record<Binding, { readonly file: string; readonly revisions: ConvertedRevisions | undefined }>>

/**
 * One finding per stale binding (the case's and its reviews' together), then one per unacknowledged
 * review. A file binding that may be stale through converted line endings says so.
 */
function staleFindings(revisions: CaseRevisions, casesFile: string, annotationsFile: string, converted: FileConversions): CaseFinding[] {
  const { stale, unacknowledged } = staleness(revisions)
  const file = (field: HashField) => (field.file === 'cases' ? casesFile : annotationsFile)
  const findings: CaseFinding[] = []
  for (const binds of Object.keys(STALE_STATE) as Binding[]) {
    const fields = stale.filter((field) => field.binds === binds)
    if (fields.length === 0) continue
    const where = fields.map((field) => `${formatLocation(file(field), field.path)} ${short(field.recorded)} → ${short(field.current)}`)
    const unreviewed = revisions.reviews.every((review) => review.path === null)
    const bytes = converted[binds]
    const notes = bytes === undefined ? [] : [...new Set(fields.map((field) => staleBytesNote(bytes.file, field.recorded, bytes.revisions)))]
    const note = notes.filter((each) => each !== undefined).join('; ')
    findings.push({
      state: STALE_STATE[binds],
      detail: `${where.join('; ')}${unreviewed ? ' (no review yet: review the case under the current files, then bind it)' : ''}${note === '' ? '' : ` (${note})`}`,
    })
  }
  for (const review of unacknowledged) {
    const recorded = formatLocation(casesFile, review.acknowledgement.path)
    const detail =
      review.path === null
        ? `the ${review.label} was removed but ${recorded} still records it: restore it, or set that hash to ${NULL_FINGERPRINT} (the fingerprint of null) to withdraw it`
        : review.acknowledgement.recorded === NULL_FINGERPRINT
          ? `the ${review.label} at ${formatLocation(annotationsFile, review.path)} was added; ${recorded} still records none`
          : `the ${review.label} at ${formatLocation(annotationsFile, review.path)} was edited since ${recorded} recorded it`
    findings.push({ state: 'unacknowledged', detail })
  }
  return findings
}

/** The finding of a graded or refused decision; each kind describes its pending cases itself. */
function settledFinding(decision: Exclude<CriteriaDecision | ScoredDecision, { status: 'pending' }>): CaseFinding {
  if (decision.status === 'refused') return { state: 'refused', detail: firstLine(decision.error.message) }
  return { state: 'current', detail: decision.status }
}

function criteriaFinding(decision: CriteriaDecision): CaseFinding {
  if (decision.status !== 'pending') return settledFinding(decision)
  const uncertain = decision.uncertain.map((item) => item.criterion).join(', ')
  if (!decision.reviewed) return { state: 'unreviewed', detail: 'no review' }
  if (decision.missing.length === 0) return { state: 'uncertain', detail: `uncertain on ${uncertain}` }
  return { state: 'incomplete', detail: `no judgement for ${decision.missing.join(', ')}${uncertain === '' ? '' : `; uncertain on ${uncertain}`}` }
}

/** The debate system's finding, then the baseline's when its review is missing or refused. */
function scoredFindings(decision: ScoredDecision): CaseFinding[] {
  const findings = [
    decision.status !== 'pending'
      ? settledFinding(decision)
      : decision.card === null
        ? { state: 'unreviewed' as const, detail: 'no debate review' }
        : { state: 'manual-review' as const, detail: decision.reason },
  ]
  const { baseline } = decision
  // A refused case refuses its baseline with the same error: that is one refusal, not the baseline review's.
  const refusedWithCase = decision.status === 'refused' && baseline.status === 'refused' && baseline.error.message === decision.error.message
  if (baseline.status === 'refused' && !refusedWithCase) findings.push({ state: 'refused', detail: `baseline review: ${firstLine(baseline.error.message)}` })
  if (baseline.status === 'not_reviewed') findings.push({ state: 'unreviewed', detail: 'no baseline review' })
  return findings
}

function describeChange(change: { unjudged: readonly string[]; removed: readonly string[]; requoted: readonly string[] }): string {
  const parts = [
    ...change.requoted.map((id) => `${id} (reference quote changed)`),
    ...change.unjudged.map((id) => `${id} (new: not judged)`),
    ...change.removed.map((id) => `${id} (judged, no longer in the rubric)`),
  ]
  return parts.length === 0
    ? 'no criterion was added, removed or re-quoted: the change is in a rule, the task or the acceptance text, so re-read every criterion'
    : `criteria affected: ${parts.join(', ')}`
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!
}

function short(sha: string): string {
  return `${sha.slice(0, 12)}…`
}
