import { formatLocation } from '../common/json-path.js'
import { judgeModuleOf } from '../common/origin.js'
import { shortSha, own } from '../common/primitives.js'
import { NULL_FINGERPRINT } from '../json/canonical-json.js'
import { acknowledgement, isStale, rowPath, shellWord, type BindingState } from './bindings.js'
import type { BindingTarget } from '../contract/bindings.js'
import { assessEntry, type CaseAssessment } from './assess.js'
import type { Decision } from '../contract/decision.js'
import { evaluateWithStates, type EvaluateOptions, type StatusReading } from './evaluate.js'
import { kindContext, type CaseEntry, type SomeFixture } from './fixture.js'
import { staleDetail } from './stale-detail.js'
import type { FixtureNote } from '../contract/results.js'
import { earlierRevisions, NO_HISTORY, type FixtureHistory } from './fixture-history.js'
import type { LabelSet } from './panel.js'
import { statusGroups, type StatusGroupEntry } from './status-groups.js'
export { statusGroups, type StatusGroupEntry } from './status-groups.js'

/** One thing a case needs, with what the files say about it. */
export interface CaseFinding {
  /** The key of its group. */
  readonly group: string
  /** One line: which hash, which criteria, which rating. */
  readonly detail: string
  /**
   * For a stale binding of a review, what its kind says changed, as data: for a criteria rubric,
   * the revision found in git and the criteria reworded, added, removed and unchanged. Left out
   * when the kind says nothing.
   */
  readonly changes?: readonly Readonly<Record<string, unknown>>[]
  /**
   * The command that acts on the finding, said so that it reads the same for every case it is found
   * for: `status` lists the cases under the command once.
   */
  readonly next?: NextCommand
}

/** A command for many cases at once, `<id>` standing for each case where it names one. */
export interface NextCommand {
  readonly command: string
  /** What it acts on, the same words for every case: the file, the fields, what changed. */
  readonly what: string
  /** Another way, when it fits: `if alice's judgements still hold, \`vitest-rubric bind … --reviewer alice\``. */
  readonly otherwise?: string
}

export interface CaseStatus {
  readonly id: string
  readonly findings: readonly CaseFinding[]
}

export interface FixtureStatus {
  readonly kind: string
  readonly dir: string
  readonly name: string
  /** The `expected` hashes a case added now records, before it has a review. */
  readonly newCase: Readonly<Record<string, string>>
  /** The groups, in the order they are listed. */
  readonly groups: readonly StatusGroupEntry[]
  readonly cases: readonly CaseStatus[]
  /** Once per file: a line-ending or byte-order-mark conversion that may explain its stale hashes. */
  readonly notes: readonly FixtureNote[]
  /** True when a case is in a blocking group (stale, new or edited and not bound, or refused), or its records forked. */
  readonly blocked: boolean
  /** The cases whose records forked (revised apart, in the records layout): each waits for `resolve`. */
  readonly forked: readonly string[]
  /** True when a case is in a blocking group (stale, new or edited and not bound, or refused), forks aside. */
  readonly unbound: boolean
}

/**
 * Every case of a fixture with what a reviewer must do next, read from the binding table. With the
 * `history` of the fixture's files (see `fixtureHistory`), a review bound to an earlier revision of
 * a file found there is told what changed since (for a rubric, which rule); without it, everything
 * such a review judged is said to need re-reading.
 */
export function fixtureStatus(fixture: SomeFixture, options: EvaluateOptions = {}, history = NO_HISTORY): FixtureStatus {
  return statusReading(fixture, options, history, {})
}

/**
 * Each case's findings without the judges and the history, by its assessment. A kept evaluation
 * (the page server's) hands the same assessment object for a case until it decides the case again,
 * which it does whenever anything the findings are made from changed: the case, its reviews, the
 * reviewers' reviews and adoptions of it, or the rubric and the files every case is bound to.
 */
const keptFindings = new WeakMap<CaseAssessment<Decision>, { readonly noted: string; readonly findings: CaseFinding[] }>()

/** One case's findings as the queue reads them (no judges, no history), kept by its assessment; `noted`: the files the notes name, `notedKey` joined by NUL. */
export function queueFindings(
  fixture: SomeFixture,
  entry: CaseEntry,
  assessment: CaseAssessment<Decision>,
  noted: ReadonlySet<string>,
  notedKey: string,
): CaseFinding[] {
  if (fixture.records?.forks.some((fork) => fork.caseId === entry.id) === true) return forkFindings(fixture, entry.id)
  const known = keptFindings.get(assessment)
  if (known !== undefined && known.noted === notedKey) return known.findings
  const own = caseFindings(fixture, assessment, fixture.reviews.get(entry.id) !== undefined, noted, NO_HISTORY)
  const findings = withPanelFindings(fixture, entry, assessment, own, NO_HISTORY, false)
  keptFindings.set(assessment, { noted: notedKey, findings })
  return findings
}

/** A case whose records were revised apart waits for `resolve` alone: what its records show meanwhile (no review) is not work to do. */
function forkFindings(fixture: SomeFixture, caseId: string): CaseFinding[] {
  const dir = shellWord(fixture.displayDir)
  const detail = `its records were revised apart: keep one revision with \`vitest-rubric resolve ${dir} ${shellWord(caseId)} --keep <save>\``
  return [{ group: 'forked', detail, next: { command: `vitest-rubric resolve ${dir} <id> --keep <save>`, what: 'the saves `status` names below' } }]
}

/** {@link fixtureStatus}, from the evaluation `reading` hands it, if any, and leaving the judges out if it says so: the queue's reading. */
export function statusReading(fixture: SomeFixture, options: EvaluateOptions, history: FixtureHistory, reading: StatusReading): FixtureStatus {
  const definition = fixture.definition
  const context = kindContext(fixture)
  const { assessments, evaluation } = reading.decided ?? evaluateWithStates(fixture, { ...options, allStates: true })
  const noted = new Set(evaluation.notes.map((note) => note.file))
  const groups = statusGroups(fixture.definition)
  const blockingKeys = new Set(groups.filter((group) => group.blocking).map((group) => group.key))
  // Read from a kept evaluation without the judges and the history (the queue's reading), a case's findings are kept by its assessment.
  const kept = reading.decided !== undefined && reading.judges === false && history === NO_HISTORY
  const notedKey = kept ? [...noted].join('\u0000') : ''
  const forked = new Set((fixture.records?.forks ?? []).map((fork) => fork.caseId))
  const cases = fixture.cases.map((entry, index): CaseStatus => {
    const assessment = assessments[index]!
    if (forked.has(entry.id)) return { id: entry.id, findings: forkFindings(fixture, entry.id) }
    if (kept) return { id: entry.id, findings: queueFindings(fixture, entry, assessment, noted, notedKey) }
    const own = caseFindings(fixture, assessment, fixture.reviews.get(entry.id) !== undefined, noted, history)
    return { id: entry.id, findings: withPanelFindings(fixture, entry, assessment, own, history, reading.judges) }
  })
  const newCase: Record<string, string> = {}
  for (const row of definition.bindings) {
    if (row.in !== 'case') continue
    for (const slot of typeof row.path === 'function' ? definition.reviews.slots : [definition.reviews.slots[0]]) {
      const key = rowPath(row, slot).at(-1)!
      if ('bytesOf' in row.source) newCase[key] = context.files[row.source.bytesOf]?.sha256 ?? ''
      else if ('reviewOf' in row.source) newCase[key] = NULL_FINGERPRINT
    }
  }
  const unbound = cases.some((each) => !forked.has(each.id) && each.findings.some((finding) => blockingKeys.has(finding.group)))
  return {
    kind: fixture.kind,
    dir: fixture.displayDir,
    name: fixture.name,
    newCase,
    groups,
    cases,
    notes: evaluation.notes,
    // A forked case waits for a person to keep one revision: as blocking as a stale binding.
    blocked: unbound || forked.size > 0,
    forked: [...forked],
    unbound,
  }
}

function caseFindings(
  fixture: SomeFixture,
  assessment: CaseAssessment<Decision>,
  reviewed: boolean,
  noted: ReadonlySet<string>,
  history: FixtureHistory,
): CaseFinding[] {
  const definition = fixture.definition
  const reviews = fixture.reviews.get(assessment.decision.id)
  const stale = assessment.states.filter(isStale)
  const acknowledgements = stale.filter((state) => 'reviewOf' in state.row.source)
  const newSlots = new Set(acknowledgements.filter((state) => acknowledgement(state, reviews?.[state.slot] !== undefined) === 'new').map((state) => state.slot))
  const findings: CaseFinding[] = []

  for (const slot of newSlots) {
    const review = reviews?.[slot]
    const where = review === undefined ? '' : ` at ${formatLocation(fixture.files.annotations?.display, review.path)}`
    findings.push({ group: 'new-review', detail: `${definition.reviews.slotName(slot).replace(/^an? /, 'the ')}${where}` })
  }
  // An adopted review stands for the independent reviews it resolved: the adjudication to come re-makes it and its
  // case's hashes, so its stale hashes are the adoption's finding (withPanelFindings), never a review to revise by hand.
  const adopted = adoptedSlots(fixture, assessment.decision.id)
  // A new review's placeholders are stamped by binding it, with the case's own hashes: they are not stale judgements.
  const hashes = stale.filter(
    (state) => !('reviewOf' in state.row.source) && !adopted.has(state.slot) && !(newSlots.size > 0 && (state.row.in === 'case' || newSlots.has(state.slot))),
  )
  for (const target of Object.keys(definition.targets)) {
    const fields = hashes.filter((state) => state.row.target === target)
    if (fields.length === 0) continue
    findings.push({ group: `stale-${target}`, ...staleDetail(fixture, fields, reviewed, target, reviews, noted, history) })
  }
  for (const state of acknowledgements) {
    const kind = acknowledgement(state, reviews?.[state.slot] !== undefined)
    const recorded = formatLocation(state.file, state.path)
    const name = definition.reviews.slotName(state.slot).replace(/^an? /, 'the ')
    if (kind === 'withdrawn') findings.push({ group: 'withdrawn', detail: `${name} was removed, but ${recorded} still records it` })
    if (kind === 'edited')
      findings.push({ group: 'unacknowledged', detail: `${name} at ${state.of.replace(/^fingerprint of /, '')} was edited since ${recorded} recorded it` })
  }
  const { decision } = assessment
  const bindingCodes = new Set(definition.bindings.map((row) => row.code))
  // A malformed case or review has no hashes worth listing (binding it is refused): what it needs is a fix.
  const malformed = [...assessment.caseProblems, ...Object.values(assessment.slotProblems).flat()].some(
    (problem) => problem.code === 'CASE_INVALID' || problem.code === 'REVIEW_INVALID',
  )
  if (malformed && newSlots.size === 0) findings.splice(0, findings.length)
  if (findings.length > 0) {
    // Beside a new review, anything else wrong with it: binding it would be refused until it is fixed.
    const other = [...assessment.caseProblems, ...Object.values(assessment.slotProblems).flat()].find(
      (problem) => !bindingCodes.has(problem.code) && problem.code !== 'NOT_CANONICAL_JSON',
    )
    if (newSlots.size > 0 && other !== undefined)
      findings.push({ group: 'refused', detail: `${formatLocation(other.file, other.path ?? [])}: ${other.summary}` })
    return findings
  }
  if (decision.status === 'refused') findings.push({ group: 'refused', detail: firstLine(decision.error.message) })
  else if (decision.status === 'pending' && assessment.panelWait !== undefined) {
    // An uncertain panel is pending like an uncertain review; the other waits are the panel's own.
    findings.push(
      assessment.panelWait === 'uncertain' ? { group: 'uncertain', detail: decision.reason } : { group: assessment.panelWait, detail: decision.reason },
    )
  } else if (decision.status === 'pending') findings.push(...definition.present.pendingFindings(decision))
  else findings.push({ group: 'current', detail: decision.status })
  findings.push(...definition.present.extraFindings(decision))
  return findings
}

/** The slots of a case whose review in the annotations is an adoption of independent reviews. */
function adoptedSlots(fixture: SomeFixture, id: string): ReadonlySet<string> {
  const adoptions = fixture.panel.adoptions.get(id)
  const byReviewer = fixture.panel.reviews.get(id)
  if (adoptions === undefined || byReviewer === undefined) return new Set()
  return new Set(Object.keys(adoptions).filter((slot) => [...byReviewer.values()].some((reviews) => reviews[slot] !== undefined)))
}

/**
 * The findings of a case with the stale files of its panel added: each reviewer's review and each
 * judge's label bound to older files, with the command that revises or re-binds it, and the
 * adoption that stands for them. A refusal that only repeats a stale review listed here goes.
 */
function withPanelFindings(
  fixture: SomeFixture,
  entry: CaseEntry,
  assessment: CaseAssessment<Decision>,
  findings: CaseFinding[],
  history: FixtureHistory,
  withJudges = true,
): CaseFinding[] {
  const { panel, judges } = fixture
  if (!panel.reviews.has(entry.id) && !(withJudges && judges.reviews.has(entry.id)) && !panel.adoptions.has(entry.id)) return findings
  const definition = fixture.definition
  const context = kindContext(fixture)
  const dir = shellWord(fixture.displayDir)
  const id = shellWord(entry.id)
  const casesFile = fixture.files.cases.display
  const staleFiles = new Set<string>()
  const added: CaseFinding[] = []
  const staleOf = (labels: Pick<LabelSet, 'files' | 'reviews'>, author: string) => {
    const site = { casesFile, annotationsFile: own(labels.files, author)!.display }
    const { states } = assessEntry(definition, context, entry, labels.reviews.get(entry.id)!.get(author), site, undefined, {
      reviewRowsOnly: true,
      allStates: true,
    })
    return states.filter((state) => state.row.in === 'review' && isStale(state))
  }
  const listed = (
    states: readonly BindingState[],
    review: unknown,
    group: (target: BindingTarget) => string,
    next: string,
    command: Omit<NextCommand, 'what'>,
  ) => {
    for (const target of Object.keys(definition.targets)) {
      const fields = states.filter((state) => state.row.target === target)
      if (fields.length === 0) continue
      const hashes = (state: BindingState) => `${state.recorded === undefined ? 'nothing' : shortSha(state.recorded)} → ${shortSha(state.current)}`
      const where = fields.map((state) => `${formatLocation(state.file, state.path)} ${hashes(state)}`)
      const change = definition.present.staleDetail?.(target, context, review, earlierRevisions(fields, history))
      const said = change === undefined ? '' : `; ${change.text}`
      // The same words for every case: the file and the field, without the review's place in it.
      const what = fields.map((state) => `${formatLocation(state.file, [state.path.at(-1)!])} ${hashes(state)}`).join('; ')
      added.push({
        group: group(target),
        detail: `${where.join('; ')}${said}; next: ${next}`,
        ...(change === undefined ? {} : { changes: [change.json] }),
        next: { ...command, what: `${what}${said}` },
      })
    }
  }
  let reviewersStale = false
  for (const reviewer of panel.reviews.get(entry.id)?.keys() ?? []) {
    const states = staleOf(panel, reviewer)
    if (states.length === 0) continue
    reviewersStale = true
    staleFiles.add(own(panel.files, reviewer)!.display)
    const who = shellWord(reviewer)
    const command = (caseId: string) => `vitest-rubric review ${dir} --case ${caseId} --reviewer ${who} --replace`
    const otherwise = (caseId: string) => `if ${reviewer}'s judgements still hold, \`vitest-rubric bind ${dir} --case ${caseId} --reviewer ${who}\``
    listed(
      states,
      panel.reviews.get(entry.id)?.get(reviewer)?.[states[0]!.slot]?.value,
      (target) => `stale-${target}`,
      `\`${command(id)}\` (or, ${otherwise(id)})`,
      // Said once for all of the reviewer's stale cases, each standing for <id>.
      { command: command('<id>'), otherwise: otherwise('<id>') },
    )
  }
  const adopted = assessment.states.some((state) => state.row.in === 'review' && isStale(state))
  // With every review current again, a reopened adoption leaves the case pending on a new adjudication: its
  // pending finding names it, as evaluate does, and nothing is left to bind.
  const reopened = !reviewersStale && assessment.decision.status === 'pending'
  for (const adoption of Object.values(panel.adoptions.get(entry.id) ?? {})) {
    if ((!reviewersStale && !adopted) || reopened) continue
    // The adopted review's staleness is this finding's: a refusal that says it is not listed again.
    if (fixture.files.annotations !== undefined) staleFiles.add(fixture.files.annotations.display)
    added.push({
      group: 'stale-adoption',
      detail: `${formatLocation(panel.adjudications!.display, adoption.path)} (by ${adoption.adjudicator}, resolving ${Object.keys(adoption.resolved).join(', ')}); next, once the reviews are current: \`vitest-rubric adjudicate ${dir} --case ${id} --adjudicator <name>\``,
    })
  }
  for (const judge of withJudges ? (judges.reviews.get(entry.id)?.keys() ?? []) : []) {
    const states = staleOf(judges, judge)
    if (states.length === 0) continue
    const command = judgeCommand(dir, judge, own(judges.files, judge)?.origin)
    listed(states, judges.reviews.get(entry.id)?.get(judge)?.[states[0]!.slot]?.value, () => 'stale-judge', `\`${command}\``, { command })
  }
  if (added.length === 0) return findings
  // A refusal that is a listed review's staleness is said by its own finding.
  const error = assessment.decision.status === 'refused' ? assessment.decision.error : undefined
  const repeated = error !== undefined && typeof error.file === 'string' && staleFiles.has(error.file)
  // A judge's stale label decides nothing: beside it, a current case stays current.
  const blocking = added.some((finding) => finding.group !== 'stale-judge')
  return [...findings.filter((finding) => !(repeated && finding.group === 'refused') && !(blocking && finding.group === 'current')), ...added]
}

/**
 * What re-judges a judge's stale labels, for every case at once: the judge module its labels'
 * origin names, run again (it calls the judge only for the labels that are not current, and after
 * a rubric revision only for the criteria it changed); else the import of labels made elsewhere.
 */
function judgeCommand(dir: string, judge: string, origin: string | undefined): string {
  const module = judgeModuleOf(origin)
  const who = shellWord(judge)
  return module === undefined
    ? `vitest-rubric review ${dir} --judge ${who} --replace --from <labels.jsonl>`
    : `vitest-rubric judge ${dir} --judge ${who} --run ${shellWord(module)}`
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!
}
