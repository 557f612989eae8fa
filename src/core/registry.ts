import { relative, sep } from 'node:path'
import { displayPath } from './common/display-path.js'
import { UsageError } from './common/errors.js'
import { addCases as addIn, type AddResult } from './engine/authoring/add.js'
import { openReviewTarget as openIn } from './engine/authoring/open-target.js'
import type { ReviewTarget } from './engine/authoring/target.js'
import { recordReview as recordIn, type RecordedReview, type RecordReviewOptions as EngineRecordReviewOptions } from './engine/authoring/review.js'
import type { AuthoringOptions as EngineAuthoringOptions } from './engine/authoring/options.js'
import type { DraftSource } from './engine/authoring/draft.js'
import { bindFixture as bindIn, type BindOptions as EngineBindOptions, type BindResult } from './engine/bind.js'
import type { Evaluation } from './engine/evaluate.js'
import { initFixture as initIn, type InitOptions as EngineInitOptions, type InitResult } from './engine/scaffold.js'
import {
  adjudicateCase as adjudicateIn,
  adjudicateConsensus as consensusIn,
  type AdjudicateOptions as EngineAdjudicateOptions,
  type AdjudicationResult,
} from './engine/adjudicate.js'
import {
  recordJudgeLabels as recordLabelsIn,
  type JudgeLabelDraft,
  type RecordedJudgeLabels,
  type RecordJudgeLabelsOptions as EngineRecordJudgeLabelsOptions,
} from './judges/judge-labels.js'
import { runJudge as runJudgeIn } from './judges/judge-run.js'
import type { JudgeCaseInput, JudgeCriterionInput, JudgeRunResult, JudgeVerdict, RunJudgeOptions as EngineRunJudgeOptions } from './judges/judge-types.js'
import {
  detectFixtureKind as detectIn,
  fileNamesOf as filesOf,
  fixtureKindsIn as kindsIn,
  loadFixture as loadIn,
  loadFixtureReading as loadReadingIn,
  type FixtureOf,
  type LoadFixtureOptions,
  type SomeFixture,
} from './engine/fixture.js'
import type { KindDefinition, SomeKindDefinition } from './contract/kind.js'
import type { TestPlan as PlanOfSummary } from './engine/plan.js'
import { createRegistry, type KindRegistry } from './engine/registry.js'
import { ADJUDICATIONS_FILE, type DirectoryLister, JUDGES_DIR, REVIEWS_DIR } from './engine/panel.js'
import { SAMPLE_FILE } from './sample/sample-file.js'
import { RECORDS_DIR } from './store/records.js'
import type { FixtureFileReader } from './json/read.js'
import { jsonSchemasOf, schemaNamesOf, type FixtureSchemaName, type JsonSchema } from './engine/json-schemas.js'
import { criteriaKind } from './kinds/criteria/index.js'
import type { CriteriaFixtureComparison } from './kinds/criteria/compare.js'
import { scoredKind } from './kinds/scored/index.js'
import type { ScoredFixtureComparison } from './kinds/scored/compare.js'

/**
 * Every kind of fixture directory this package ships, each defined once. The entry points, the
 * plugin, the CLI and the page look a kind up here; the engine never does: it is handed the
 * registry where it starts from a directory, and reads the definition off the loaded fixture
 * after. A new kind is one folder under `kinds/`, one row here and its entry file.
 */
export const KINDS = {
  /** Hard criteria with hash-bound reviews (`rubric.json`, `source.txt`, `cases.json`, `annotations.json`). */
  criteria: criteriaKind,
  /** Dimension scores of a debate benchmark and its baseline (`evaluation_rubric.json`, `cases.json`, `annotations.json`). */
  scored: scoredKind,
} as const

/** The registry of the shipped kinds, in the order listings show them. */
export const kinds: KindRegistry = createRegistry(Object.values(KINDS))

/**
 * The names of the files a fixture directory holds, of every shipped kind, beside its `reviews/`,
 * `judges/` and `records/` folders: what no file the package writes of its own may be named in one.
 */
export const FIXTURE_FILE_NAMES: ReadonlySet<string> = new Set([...kinds.kinds.flatMap((kind) => Object.values(kind.files)), ADJUDICATIONS_FILE, SAMPLE_FILE])

/** The folders of a fixture directory that hold its files, one per author or bucket. */
export const FIXTURE_FOLDERS: readonly string[] = [REVIEWS_DIR, JUDGES_DIR, RECORDS_DIR]

/**
 * Refuses an output path of the package's own that names a file of one of the fixture directories
 * `dirs` (`cases.json`, `reviews/alice.json`), where the output would be written over the fixture's
 * data; `option` is how the user named the path (`--out`, the reporter's `htmlReport`).
 */
export function refuseOutputOverFixture(dirs: readonly string[], path: string, place: { readonly option: string; readonly cwd: string }): void {
  const { option, cwd } = place
  for (const dir of dirs) {
    const parts = relative(dir, path).split(sep)
    const named = parts.length === 1 ? FIXTURE_FILE_NAMES.has(parts[0]!) : parts.length === 2 && FIXTURE_FOLDERS.includes(parts[0]!)
    if (!named) continue
    throw new UsageError({
      code: 'USAGE',
      file: displayPath(cwd, path),
      summary: `${option} would be written over a file of the fixture ${displayPath(cwd, dir)} (${parts.join('/')}); nothing was written.`,
      expected: 'a path that no fixture file has, such as a file in .vitest-rubric/',
      hint: `give ${option} another path.`,
    })
  }
}

/** The kinds of fixture directory, told apart by the file that marks them. */
export type FixtureKind = keyof typeof KINDS

/** The kinds, in the order listings show them. */
export const FIXTURE_KINDS: readonly FixtureKind[] = ['criteria', 'scored'] satisfies readonly (keyof typeof KINDS)[]

/** The type parameters of a shipped kind's definition: its bound rubric, case, review, decision and summary. */
export type KindParameters<K extends FixtureKind> =
  (typeof KINDS)[K] extends KindDefinition<infer R, infer C, infer V, infer D, infer S>
    ? { readonly rubric: R; readonly case: C; readonly review: V; readonly decision: D; readonly summary: S }
    : never

/** The bound rubric of a kind. */
export type RubricOf<K extends FixtureKind> = KindParameters<K>['rubric']
/** A case of a kind, as parsed. */
export type CaseOf<K extends FixtureKind> = KindParameters<K>['case']
/** A review of a kind, as parsed. */
export type ReviewOf<K extends FixtureKind> = KindParameters<K>['review']
/** The decisions of a kind. */
export type DecisionOf<K extends FixtureKind> = KindParameters<K>['decision']
/** The fixture-level summary of a kind (`null` for a kind without one). */
export type SummaryOf<K extends FixtureKind> = KindParameters<K>['summary']

/** A fixture directory of a shipped kind, loaded. */
export type LoadedFixture<K extends FixtureKind> = FixtureOf<(typeof KINDS)[K]> & { readonly kind: K }

/** A loaded fixture of any shipped kind, tagged by its kind. */
export type Fixture = { readonly [K in FixtureKind]: LoadedFixture<K> }[FixtureKind]

/** The comparison of two fixtures of a shipped kind (`vitest-rubric compare`), tagged by its kind. */
export type FixtureComparison = CriteriaFixtureComparison | ScoredFixtureComparison

/** The evaluation of a fixture of a shipped kind. */
export type EvaluationOfKind<K extends FixtureKind> = Evaluation<RubricOf<K>, CaseOf<K>, ReviewOf<K>, DecisionOf<K>, SummaryOf<K>, LoadedFixture<K>>

/** Any evaluated fixture of a shipped kind. */
export type FixtureEvaluation = { readonly [K in FixtureKind]: EvaluationOfKind<K> }[FixtureKind]

/** The test plan of a fixture of a shipped kind, tagged by its kind. */
export type TestPlan = { readonly [K in FixtureKind]: PlanOfSummary<SummaryOf<K>> & { readonly kind: K } }[FixtureKind]

/** Whether a string names a shipped kind. */
export function isFixtureKind(name: string): name is FixtureKind {
  return Object.hasOwn(KINDS, name)
}

/** Which kind of fixture a directory holds, by its marker file; `undefined` if none (or several). */
export async function detectFixtureKind(dir: string): Promise<FixtureKind | undefined> {
  const kind = await detectIn(kinds, dir)
  return kind !== undefined && isFixtureKind(kind) ? kind : undefined
}

/**
 * Loads a fixture directory: its rubric, source, cases and reviews with their revision hashes.
 * A fixture-level defect throws a `FixtureError` naming the file, the JSON path and the fix;
 * everything about a single case is left to its assessment.
 */
export async function loadFixture<K extends FixtureKind>(dir: string, options: LoadFixtureOptions & { readonly kind: K }): Promise<LoadedFixture<K>>
export async function loadFixture(dir: string, options?: LoadFixtureOptions): Promise<Fixture>
export async function loadFixture(dir: string, options: LoadFixtureOptions & { readonly kind?: FixtureKind } = {}): Promise<Fixture> {
  return shipped(await loadIn(kinds, dir, options))
}

/** {@link loadFixture}, reading the files through `read`. */
export async function loadFixtureReading(dir: string, options: LoadFixtureOptions, read: FixtureFileReader, list?: DirectoryLister): Promise<Fixture> {
  return shipped(await loadReadingIn(kinds, dir, options, read, list))
}

/** A fixture loaded through {@link kinds}, with the type of its kind. */
function shipped(fixture: SomeFixture): Fixture {
  // The registry holds exactly the definitions of KINDS, so the definition a fixture was loaded with is KINDS[fixture.kind]: its types are that kind's.
  // Cast: see above.
  return fixture as Fixture
}

/** The file names of the shipped kinds' JSON Schemas, criteria kind first. */
export const FIXTURE_SCHEMA_NAMES: readonly FixtureSchemaName[] = schemaNamesOf(kinds)

/** The JSON Schemas of the shipped kinds' files, by file name (see {@link jsonSchemasOf}). */
export function fixtureJsonSchemas(): Record<FixtureSchemaName, JsonSchema> {
  return jsonSchemasOf(kinds)
}

// A public entry works among the shipped kinds, so its options leave out what only the package
// passes the engine: `kinds`, the writer `io` its crash tests fail on purpose, and the review
// server's parse cache `memo`. The package calls the engine's entries for those.

/** Options of {@link bindFixture}: which cases to bind, and where. */
export type BindOptions = Omit<EngineBindOptions, 'kinds' | 'io'>

/** Options of {@link addCases}. */
export type AuthoringOptions = Omit<EngineAuthoringOptions, 'kinds' | 'io' | 'memo'>

/** Options of {@link recordReview}: which case and slot, and where the review goes. */
export type RecordReviewOptions = Omit<EngineRecordReviewOptions, 'kinds' | 'io' | 'memo'>

/** Options of {@link initFixture}. */
export type InitOptions = Omit<EngineInitOptions, 'kinds'>

/** Options of {@link runJudge}: the judge, its function, and how it is run. */
export type RunJudgeOptions<ItemInput = JudgeCriterionInput, CaseInput = JudgeCaseInput, Verdict = JudgeVerdict> = Omit<
  EngineRunJudgeOptions<ItemInput, CaseInput, Verdict>,
  'kinds' | 'io'
>

/** Options of {@link adjudicateCase}: the case, the adjudicator and what they take. */
export type AdjudicateOptions = Omit<EngineAdjudicateOptions, 'kinds' | 'io' | 'memo'>

/** Options of {@link adjudicateConsensus}: who adjudicates, and how many reviews a case needs. */
export type ConsensusOptions = AuthoringOptions & { readonly adjudicator: string; readonly minReviews?: number }

/** Options of {@link recordJudgeLabels}: the judge, and where its labels go. */
export type RecordJudgeLabelsOptions = Omit<EngineRecordJudgeLabelsOptions, 'kinds' | 'io' | 'memo'>

/** Binds a fixture's stale hashes (see the engine's `bindFixture`) of a shipped kind. */
export function bindFixture(dir: string, options: BindOptions): Promise<BindResult> {
  return bindIn(dir, { ...options, kinds })
}

/** Adds cases to a fixture (see the engine's `addCases`) of a shipped kind. */
export function addCases(dir: string, drafts: readonly unknown[], source: DraftSource, options: AuthoringOptions): Promise<AddResult> {
  return addIn(dir, drafts, source, { ...options, kinds })
}

/** Records a review (see the engine's `recordReview`) in a fixture of a shipped kind. */
export function recordReview(dir: string, draft: unknown, source: DraftSource, options: RecordReviewOptions): Promise<RecordedReview> {
  return recordIn(dir, draft, source, { ...options, kinds })
}

/**
 * Runs an automated judge over a fixture of a shipped kind (see the engine's `runJudge`): a judge
 * of the criteria kind, or of the kind whose judge's input and verdict types are given
 * (`runJudge<ItemInput, CaseInput, Verdict>(…)`, see {@link JudgeItemInput}).
 */
export function runJudge(dir: string, options: RunJudgeOptions): Promise<JudgeRunResult>
// The types default to `never`, which no judge returns: another kind's judge is run only with its kind's types said.
export function runJudge<ItemInput = never, CaseInput = never, Verdict = never>(
  dir: string,
  options: RunJudgeOptions<NoInfer<ItemInput>, NoInfer<CaseInput>, NoInfer<Verdict>>,
): Promise<JudgeRunResult>
export function runJudge(dir: string, options: RunJudgeOptions<never, never, unknown>): Promise<JudgeRunResult> {
  return runJudgeIn(dir, { ...options, kinds })
}

/** Adjudicates one case (see the engine's `adjudicateCase`) in a fixture of a shipped kind. */
export function adjudicateCase(dir: string, options: AdjudicateOptions, source: DraftSource): Promise<AdjudicationResult> {
  return adjudicateIn(dir, { ...options, kinds }, source)
}

/** Adjudicates every case the panel agrees on (see the engine's `adjudicateConsensus`) in a fixture of a shipped kind. */
export function adjudicateConsensus(dir: string, options: ConsensusOptions, source: DraftSource): Promise<AdjudicationResult> {
  return consensusIn(dir, { ...options, kinds }, source)
}

/** Records an automated judge's labels (see the engine's `recordJudgeLabels`) in a fixture of a shipped kind. */
export function recordJudgeLabels(dir: string, labels: readonly JudgeLabelDraft[], options: RecordJudgeLabelsOptions): Promise<RecordedJudgeLabels> {
  return recordLabelsIn(dir, labels, { ...options, kinds })
}

/** Opens a case to review (see the engine's `openReviewTarget`) in a fixture of a shipped kind. */
export function openReviewTarget(dir: string, caseId: string, slot: string | undefined, cwd: string, reviewer?: string): Promise<ReviewTarget> {
  return openIn(kinds, dir, caseId, slot, cwd, reviewer)
}

/** Scaffolds a fixture directory (see the engine's `initFixture`): a criteria skeleton, or a copy of a shipped kind's rubric. */
export function initFixture(dir: string, options: InitOptions): Promise<InitResult> {
  return initIn(dir, { ...options, kinds })
}

/** The shipped kind of a name that a plan, a record or a report carries; a `TypeError` for a name no shipped kind has. */
export function kindNamed(name: string): SomeKindDefinition {
  const kind = kinds.get(name)
  if (kind === undefined) throw new TypeError(`no kind of fixture is named ${JSON.stringify(name)} (the kinds are ${kinds.names.join(', ')})`)
  return kind
}

/** The files of a shipped kind, marker first. */
export function fileNamesOf(kind: FixtureKind): string[] {
  return filesOf(KINDS[kind])
}

/** Every shipped kind whose marker file a directory holds: more than one is a defect, never a guess. */
export async function fixtureKindsIn(dir: string): Promise<FixtureKind[]> {
  return (await kindsIn(kinds, dir)).map((kind) => kind.name).filter(isFixtureKind)
}
