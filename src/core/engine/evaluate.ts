import { createHash, type Hash } from 'node:crypto'
import { CanonicalJsonError } from '../common/errors.js'
import { DEFAULT_SEED } from '../stats/bootstrap.js'
import { canonicalJson, canonicalJsonKeeping, compareCodePoints } from '../json/canonical-json.js'
import { own } from '../common/primitives.js'
import { valueAt } from '../common/json-path.js'
import { fileConversionNote } from '../json/line-endings.js'
import { assessEntry, type CaseAssessment } from './assess.js'
import { isStale } from './bindings.js'
import { countCoverage } from './coverage.js'
import type { Coverage } from '../contract/results.js'
import { isGraded } from './decision.js'
import type { Decision } from '../contract/decision.js'
import { forkReasons, recordNotes } from './records-view.js'
import { kindContext, type CaseEntry, type KindFixture, type SomeFixture } from './fixture.js'
import type { FixtureIdentities, FixtureNote } from '../contract/results.js'
import type { FileRole, Problem } from '../contract/kind.js'
import { ADJUDICATIONS_FILE, REVIEWS_DIR } from './panel.js'
import { decideWithPanel, NO_PANEL_POLICY, type PanelPolicy } from './panel-rule.js'

/** Every case of a fixture decided, with its coverage, the identities of its case sets and the kind's summary. */
export interface Evaluation<
  R = unknown,
  C = unknown,
  V = unknown,
  D extends Decision = Decision,
  S = unknown,
  F extends KindFixture<R, C, V, D, S> = KindFixture<R, C, V, D, S>,
> {
  readonly fixture: F
  /** One decision per case, in the order of `cases.json`. */
  readonly decisions: readonly D[]
  readonly coverage: Coverage
  readonly identities: FixtureIdentities
  readonly summary: S
  /** Explanations given once for the fixture (a file whose line endings changed). */
  readonly notes: readonly FixtureNote[]
  /** The several-reviewer rule the cases were decided under (`{ minReviews: 0 }`: no minimum). */
  readonly panel: PanelPolicy
}

/** The evaluation of a fixture of some kind. */
export type SomeEvaluation = Evaluation

/** A fixture's evaluation and each case's assessment, with at least its stale binding states: what `status` and the queue read. */
export interface DecidedWithStates {
  readonly evaluation: SomeEvaluation
  readonly assessments: readonly CaseAssessment<Decision>[]
}

/** How `fixtureStatus` reads a fixture: from the evaluation the caller holds, if any, and with the judges' stale labels unless `judges` is `false`. */
export interface StatusReading {
  readonly decided?: DecidedWithStates | undefined
  readonly judges?: boolean
}

/** The evaluation type of a fixture type: a criteria fixture gives a criteria evaluation. */
export type EvaluationOf<F extends SomeFixture> = F extends KindFixture<infer R, infer C, infer V, infer D, infer S> ? Evaluation<R, C, V, D, S, F> : never

/**
 * Decides every case of a loaded fixture: the binding table, the kind's checks and its decision
 * rule, case by case; one refused case never stops the others. In the same pass it fingerprints
 * the full case set (the `cases.json` document less `$schema`) and the graded subset, case by
 * case, so that neither canonical text is ever held whole.
 */
export function evaluateFixture<F extends SomeFixture>(fixture: F, options?: EvaluateOptions): EvaluationOf<F>
export function evaluateFixture(fixture: SomeFixture, options: EvaluateOptions = {}): SomeEvaluation {
  return evaluateWithStates(fixture, options).evaluation
}

/** What an evaluation asks beyond the files. */
export interface EvaluateOptions {
  /** The several-reviewer rule: how many independent reviews a case needs. */
  readonly panel?: PanelPolicy
  /** The seed of the summary's bootstrap intervals. @default 'vitest-rubric' */
  readonly seed?: number | string
  /** `'lower-bound'`: a margin gate (the scored kind's baseline margin) needs its interval's lower bound to clear the margin. @default 'point' */
  readonly marginGate?: 'point' | 'lower-bound'
}

/** {@link evaluateFixture}, with what each case's checks found: `status` and `bind` read the binding states. */
export function evaluateWithStates<R, C, V, D extends Decision, S>(
  fixture: KindFixture<R, C, V, D, S>,
  options: EvaluateOptions & { readonly allStates?: boolean } = {},
): { evaluation: Evaluation<R, C, V, D, S>; assessments: readonly CaseAssessment<D>[] } {
  const definition = fixture.definition
  const context = kindContext(fixture)
  const { head, tail, broken } = caseSetEnds(fixture)
  const full = new SetFingerprint(head)
  full.broken = broken
  const graded = new SetFingerprint('[')

  // Only `status` and `bind` keep every case's assessment; an evaluation keeps its decisions, and the
  // stale hashes of files whose conversion a note may explain.
  const assessments: CaseAssessment<D>[] = []
  const decisions: D[] = []
  const staleFiles = new Map<FileRole, string[]>()
  decideEntries(fixture, fixture.cases, options, (assessment, text) => {
    if (text === undefined) full.broken = true
    else {
      // One text with its separator for both sets, so that it is flattened for hashing once.
      const separated = `,${text}`
      full.add(text, separated)
      if (isGraded(assessment.decision)) graded.add(text, separated)
    }
    decisions.push(assessment.decision)
    if (options.allStates === true) assessments.push(assessment)
    for (const [role, hash] of staleHashesOf(assessment)) {
      const hashes = staleFiles.get(role)
      if (hashes === undefined) staleFiles.set(role, [hash])
      else hashes.push(hash)
    }
  })
  const evaluation: Evaluation<R, C, V, D, S> = {
    fixture,
    decisions,
    coverage: countCoverage(decisions),
    identities: identitiesOf(full.digest(tail), graded.digest(']'), fixture),
    summary: definition.summarize(context, decisions, { seed: options.seed ?? DEFAULT_SEED, marginGate: options.marginGate ?? 'point' }),
    notes: conversionNotes(fixture, staleFiles),
    panel: options.panel ?? NO_PANEL_POLICY,
  }
  return { evaluation, assessments }
}

/**
 * The identities of an evaluation, the files' hashes taken when first asked for: a document the
 * records layout makes is hashed only where an identity is shown (`evaluate --json`, a decision
 * record, the page's version), never to decide.
 */
function identitiesOf(caseSetSha256: string | null, gradedSetSha256: string | null, fixture: SomeFixture): FixtureIdentities {
  // The files are kept, not the fixture: a test plan holds its identities, and would hold every parsed document with them.
  const named = identityFiles(fixture)
  let files: Record<string, string> | undefined
  return {
    caseSetSha256,
    gradedSetSha256,
    get files() {
      files ??= Object.fromEntries(named.map(([name, file]) => [name, file.sha256]))
      return files
    },
  }
}

/** A chunk of a fixture's cases decided: their decisions, in the order of `cases.json`, and their coverage. */
export interface CaseRangeEvaluation<D extends Decision = Decision> {
  readonly decisions: readonly D[]
  readonly coverage: Coverage
}

/**
 * Decides the cases of a fixture from index `start` up to `end` (a chunk of a fixture split over
 * several test modules), each exactly as {@link evaluateFixture} decides it: the same binding
 * table, checks, several-reviewer rule and decision rule. What needs every case (the case-set
 * identities, the kind's summary, the notes) is left to the evaluation of the whole fixture.
 */
export function evaluateCases<R, C, V, D extends Decision, S>(
  fixture: KindFixture<R, C, V, D, S>,
  range: { readonly start: number; readonly end: number },
  options: EvaluateOptions = {},
): CaseRangeEvaluation<D> {
  const decisions: D[] = []
  decideEntries(fixture, fixture.cases.slice(range.start, range.end), options, (assessment) => {
    decisions.push(assessment.decision)
  })
  return { decisions, coverage: countCoverage(decisions) }
}

/**
 * The one pass over cases that every evaluation makes: each case's canonical text (which also
 * gives the fingerprints its bindings compare), its assessment, and the several-reviewer rule.
 * `visit` gets each assessment with the case's canonical text, `undefined` when it has none.
 */
function decideEntries<R, C, V, D extends Decision, S>(
  fixture: KindFixture<R, C, V, D, S>,
  entries: readonly CaseEntry[],
  options: EvaluateOptions & { readonly allStates?: boolean },
  visit: (assessment: CaseAssessment<D>, text: string | undefined) => void,
): void {
  const decide = caseDecider(fixture, options)
  for (const entry of entries) {
    const { assessment, text } = decide(entry)
    visit(assessment, text)
  }
}

/** One case decided: its assessment, and its canonical text (`undefined` when it has none). */
export interface DecidedEntry<D extends Decision> {
  readonly assessment: CaseAssessment<D>
  readonly text: string | undefined
}

/**
 * How every evaluation decides one case of a fixture: what {@link evaluateFixture} does for each,
 * and an incremental evaluation for the cases an edit touched.
 */
export function caseDecider<R, C, V, D extends Decision, S>(
  fixture: KindFixture<R, C, V, D, S>,
  options: EvaluateOptions & { readonly allStates?: boolean },
): (entry: CaseEntry) => DecidedEntry<D> {
  const definition = fixture.definition
  const context = kindContext(fixture)
  const site = { casesFile: fixture.files.cases.display, annotationsFile: fixture.files.annotations.display }
  // The values the binding table fingerprints (an answer, a spec, an output) are written once, inside the case's text.
  const fingerprinted = definition.bindings.flatMap(({ source }) =>
    'fingerprintOf' in source ? definition.reviews.slots.map((slot) => source.fingerprintOf(slot)) : [],
  )
  // Independent reviews, adoptions or a minimum of reviews: the several-reviewer rule has its say on each case.
  const policy = options.panel ?? NO_PANEL_POLICY
  const panelActive = isPanelActive(fixture, options)
  // A case whose records were revised apart is shown unreviewed: pending, for the fork's reason rather than `no review`.
  const forked = forkReasons(fixture)
  const wanted = new Set<unknown>()
  const texts = new Map<unknown, string>()
  return (entry) => {
    let text: string | undefined
    let problem: Problem | undefined
    wanted.clear()
    texts.clear()
    try {
      for (const path of fingerprinted) {
        const value = valueAt(entry.value, path)
        if (typeof value === 'object' && value !== null) wanted.add(value)
      }
      text = canonicalJsonKeeping(entry.value, wanted, texts)
    } catch (error) {
      if (!(error instanceof CanonicalJsonError)) throw error
      problem = {
        code: error.code,
        file: site.casesFile,
        path: [...entry.path, ...error.path],
        caseId: entry.id,
        summary: error.summary,
        found: error.found,
        hint: error.hint,
      }
    }
    let assessment = assessEntry(definition, context, entry, fixture.reviews.get(entry.id), site, problem === undefined ? undefined : { problem }, {
      texts,
      allStates: options.allStates === true,
    })
    if (panelActive) {
      const { decision, wait } = decideWithPanel(definition, context, entry, assessment, fixture.reviews.get(entry.id), fixture.panel, site, policy)
      if (decision !== assessment.decision) assessment = { ...assessment, decision, ...(wait === undefined ? {} : { panelWait: wait }) }
    }
    const fork = forked.size === 0 ? undefined : forked.get(entry.id)
    if (fork !== undefined && assessment.decision.status === 'pending') assessment = { ...assessment, decision: { ...assessment.decision, reason: fork } }
    return { assessment, text }
  }
}

/** Whether the several-reviewer rule has its say on the cases of a fixture: independent reviews, adoptions or a minimum of reviews. */
export function isPanelActive(fixture: SomeFixture, options: EvaluateOptions): boolean {
  const policy = options.panel ?? NO_PANEL_POLICY
  return fixture.panel.reviewers.length > 0 || fixture.panel.adoptions.size > 0 || policy.minReviews > 0
}

/**
 * The text around the cases of the full case set's canonical form: the members of `cases.json`
 * before `cases` and after it. `broken` when a member has no canonical form (a lone surrogate).
 */
export function caseSetEnds(fixture: SomeFixture): { readonly head: string; readonly tail: string; readonly broken: boolean } {
  const members = Object.keys(fixture.casesDocument).sort(compareCodePoints)
  const before = members.filter((key) => compareCodePoints(key, 'cases') < 0)
  const after = members.filter((key) => compareCodePoints(key, 'cases') > 0)
  try {
    return {
      head: `{${before.map((key) => `${member(key, fixture.casesDocument[key])},`).join('')}"cases":[`,
      tail: `]${after.map((key) => `,${member(key, fixture.casesDocument[key])}`).join('')}}`,
      broken: false,
    }
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error
    return { head: '{"cases":[', tail: ']}', broken: true } // a name or task holding a lone surrogate: the set has no fingerprint
  }
}

/** The stale recorded hashes of files bound by their bytes in one case's assessment, by the file's role: what a conversion note may explain. */
export function staleHashesOf(assessment: CaseAssessment<Decision>): (readonly [FileRole, string])[] {
  const found: (readonly [FileRole, string])[] = []
  for (const state of assessment.states) {
    if (!('bytesOf' in state.row.source) || state.recorded === undefined || !isStale(state)) continue
    found.push([state.row.source.bytesOf, state.recorded])
  }
  return found
}

/** SHA-256 of each file the decisions were made from, by its name in the fixture directory. */
export function fileIdentities(fixture: SomeFixture): Record<string, string> {
  return Object.fromEntries(identityFiles(fixture).map(([name, file]) => [name, file.sha256]))
}

/** The files a fixture's identity names, each by its name in the fixture (its hash taken when read from it). */
function identityFiles(fixture: SomeFixture): (readonly [string, { readonly sha256: string }])[] {
  const named: (readonly [string, { readonly sha256: string }])[] = Object.values(fixture.files).map((file) => [file.name, file] as const)
  const { panel } = fixture
  for (const reviewer of panel.reviewers) named.push([`${REVIEWS_DIR}/${reviewer}.json`, own(panel.files, reviewer)!])
  if (panel.adjudications !== undefined) named.push([ADJUDICATIONS_FILE, panel.adjudications])
  return named
}

/** One note per file bound by its bytes whose stale hashes a line-ending or byte-order-mark conversion may explain. */
export function conversionNotes(fixture: SomeFixture, staleFiles: ReadonlyMap<FileRole, readonly string[]>): FixtureNote[] {
  const notes: FixtureNote[] = recordNotes(fixture)
  for (const [role, hashes] of staleFiles) {
    const file = fixture.files[role]
    if (file === undefined) continue
    const text = fileConversionNote(file.display, hashes, fixture.conversions[role])
    if (text !== undefined) notes.push({ file: file.display, text })
  }
  return notes
}

function member(key: string, value: unknown): string {
  return `${canonicalJson(key)}:${canonicalJson(value)}`
}

/** A fingerprint of a JSON array of canonical texts, fed one item at a time. */
export class SetFingerprint {
  private readonly hash: Hash
  private empty = true
  /** Set when an item has no canonical form: then the set has no fingerprint. */
  broken = false

  constructor(head: string) {
    this.hash = createHash('sha256').update(head)
  }

  /** Adds an item: `separated` is `text` after a comma, as every item but the first is written. */
  add(text: string, separated: string): void {
    this.hash.update(this.empty ? text : separated)
    this.empty = false
  }

  digest(tail: string): string | null {
    const hex = this.hash.update(tail).digest('hex')
    return this.broken ? null : hex
  }
}
