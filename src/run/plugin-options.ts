// The options of rubric() as a user writes them, and as the run reads them once every default is applied. Types only.

/** What pending cases do to a run. */
export type PendingPolicy = 'todo' | 'fail' | { readonly max: number }

/**
 * How many false accepts (the judge says `meets` where the adopted review says `does_not_meet`) a
 * judge gate allows on a criterion: a whole number is a count; `{ rate }` is a share (0 to 1) of
 * the judgements the reviewers rated `does_not_meet`. A bare number is always a count.
 */
export type FalseAcceptLimit = number | { readonly rate: number }

/** One judge's gate: the options of `rubric({ judges: { <name>: … } })`. */
export interface JudgeGateOptions {
  /** The lower bound of Cohen's kappa's 95% interval must reach this. */
  readonly minKappa: number
  /**
   * At least this many cases with a current adopted review and a current label: at least 10, as
   * below 10 cases kappa has no interval and the gate could never pass.
   */
  readonly minCases: number
  /**
   * The most false accepts allowed on each criterion: a count, or `{ rate }`. No limit when left out.
   */
  readonly maxFalseAccepts?: FalseAcceptLimit
  /**
   * Globs of the fixture directories the gate checks, matched as `include` is. A named fixture
   * without this judge's labels fails the gate. Left out, the gate checks the fixtures that hold
   * the judge's labels (`judges/<name>.json`), and no other.
   */
  readonly fixtures?: string | readonly string[]
}

/** A judge gate with its `fixtures` globs as a list. */
export interface ResolvedJudgeGate {
  readonly minKappa: number
  readonly minCases: number
  readonly maxFalseAccepts: FalseAcceptLimit | undefined
  /** `undefined`: the fixtures that hold the judge's labels. */
  readonly fixtures: readonly string[] | undefined
}

/**
 * Options of the rubric coverage reporter (`RubricReporter`), which the plugin's `reporter` option
 * passes on; they are here, beside their validation, so that the reporter imports the plugin's
 * options and never the reverse.
 */
export interface RubricReporterOptions {
  /**
   * Where to write the JSON report, relative to the project root; `false` writes none.
   * @default '.vitest-rubric/report.json'
   */
  readonly outputFile?: string | false
  /**
   * Append a Markdown table to the file named by `GITHUB_STEP_SUMMARY`, when that is set.
   * @default true
   */
  readonly githubSummary?: boolean
  /**
   * Also write the static HTML report (the review page's overview and case views, read-only, one
   * self-contained file) to this path, relative to the project root; `false` writes none.
   * @default false
   */
  readonly htmlReport?: string | false
  /** Where CI publishes the HTML report: the GitHub job summary links to it. */
  readonly reportUrl?: string
}

/**
 * One compare gate: each compared fixture (B) is not worse than `against` (A) by more than
 * `margin`, on one split, as `vitest-rubric compare A B` measures it.
 */
export interface CompareGateOptions {
  /** Fixture A's directory, relative to the project root: the system B must not fall behind. */
  readonly against: string
  /**
   * The split compared. Held-out cases give the result; development cases are development
   * material, so their check is always todo, never a pass.
   * @default 'held_out'
   */
  readonly split?: 'held_out' | 'development'
  /**
   * How far B's acceptance rate may fall below A's, as a proportion from 0 to 1 (`0.05`: 5 points).
   * The check passes when the lower bound of the paired 95% interval of B − A (a one-sided test at
   * the 2.5% level) is at least −margin, over the decided pairs and with every undecided pair
   * counted against B; it is todo when only the decided pairs clear it.
   */
  readonly margin: number
  /**
   * Globs of the fixture directories compared with `against`, matched as `include` is; a named
   * fixture on another rubric or source fails. Left out: every included fixture whose rubric
   * (and source) are byte-identical to `against`'s, but `against` itself.
   */
  readonly fixtures?: string | readonly string[]
}

/** A compare gate with its defaults applied and its globs as a list. */
export interface ResolvedCompareGate {
  readonly against: string
  readonly split: 'held_out' | 'development'
  readonly margin: number
  /** `undefined`: every included fixture on the same rubric and source. */
  readonly fixtures: readonly string[] | undefined
}

/** Options of the {@link rubric} plugin. */
export interface RubricPluginOptions {
  /**
   * Globs of the directories that hold fixtures, relative to the project root. Every directory they
   * match that holds a fixture's marker file (`rubric.json`, …) becomes one test module.
   * @default ['fixtures/**']
   */
  readonly include?: string | readonly string[]
  /**
   * Globs of directories to leave out.
   * @default []
   */
  readonly exclude?: string | readonly string[]
  /**
   * What pending cases (no review, a missing criterion, an uncertain rating) do to the run:
   * `'todo'` reports them as todo and keeps the run green; `'fail'` fails the run when any case is
   * pending; `{ max: n }` fails it when more than `n` are. Pending cases are always todo tests,
   * never passes or failures: the policy decides only the run's outcome.
   * @default 'todo'
   */
  readonly pending?: PendingPolicy
  /**
   * Name of the decision record a fixture directory may keep. A run whose decisions or bindings
   * differ from an existing record fails with a diff; `vitest -u` rewrites it.
   * @default 'decisions.record.json'
   */
  readonly decisionRecord?: string
  /**
   * What a case's test asserts. `'acceptance'`: the case is accepted (a rejected case fails), the
   * check of a fixture that ships answers. `'record'`: the case decides as the fixture's decision
   * record says (status, reason, ratings or scores), the check of a fixture of authored contrasts,
   * which is meant to hold rejected answers; a changed decision fails with a diff, and `vitest -u`
   * rewrites the record. In both, a pending case is todo and a refused one fails.
   * @default 'acceptance'
   */
  readonly expect?: 'acceptance' | 'record'
  /**
   * The independent reviews a case needs (`reviews/<reviewer>.json`) before it is decided: a case
   * with fewer stays pending, whatever its adopted review says.
   * @default { min: 0 }
   */
  readonly reviewers?: { readonly min: number }
  /**
   * The agreement gate: one check per criterion, "reviewers agree on <criterion> (α ≥ min)", failing
   * with the figures and the disagreeing cases when Krippendorff's alpha is lower, todo while there
   * is no figure. Off unless given.
   */
  readonly agreement?: { readonly min: number }
  /**
   * The judge gate: per automated judge (`judges/<name>.json`) and criterion, a check "judge <name>
   * agrees with reviewers on <criterion>", passing when at least `minCases` cases have both a
   * current adopted review and a current label, the lower bound of Cohen's kappa's 95% interval
   * is at least `minKappa` and the false accepts are within `maxFalseAccepts`; failing otherwise,
   * with the confusion matrix and the false accepts. It checks the fixtures that hold the judge's
   * labels, or those its `fixtures` globs name; a scored fixture is skipped with a note. Off unless
   * given.
   */
  readonly judges?: Readonly<Record<string, JudgeGateOptions>>
  /**
   * The compare gate, or several: per compared fixture, a check "<B> is not worse than <A> by more
   * than <margin> points on held-out cases", passing when the lower bound of the paired difference
   * of acceptance (B − A, Newcombe's interval) is at least `−margin`; failing with the paired table
   * and the discordant cases; todo while no pair of the split is decided. Off unless given.
   */
  readonly compare?: CompareGateOptions | readonly CompareGateOptions[]
  /**
   * The seed of every bootstrap interval (agreement, calibration, the paired margin).
   * @default 'vitest-rubric'
   */
  readonly seed?: number | string
  /**
   * How a scored fixture's baseline gate reads the margin over the baseline. `'point'`: the point
   * estimate must reach the rubric's margin, as the rubric states it. `'lower-bound'`: the lower
   * bound of the paired-bootstrap 95% interval must reach it too.
   * @default 'point'
   */
  readonly marginGate?: 'point' | 'lower-bound'
  /**
   * Add the rubric coverage reporter after the configured reporters (not when `blob` is the only
   * one, as in a shard, nor when it is already listed). Options are passed to the reporter.
   * @default true
   */
  readonly reporter?: boolean | RubricReporterOptions
  /**
   * Reuse the decisions of an earlier run (in Vite's cache directory) when no fixture file and no
   * deciding code has changed, compared by SHA-256 of their contents.
   * @default true
   */
  readonly cache?: boolean
  /**
   * Split every fixture of more than `size` cases into several test modules of at most `size`
   * cases each (`.vitest-rubric/chunks/<fixture>/rubric.json.2-of-4`), so that `--shard` spreads
   * one large fixture over machines. Each module decides only its own cases; the fixture's own
   * checks (a scored fixture's gates, the agreement and judge gates) and its decision record's
   * identities are checked once for the whole fixture, where every chunk's results meet: an
   * unsharded run, or `vitest --merge-reports`. Off unless given.
   */
  readonly chunks?: { readonly size: number }
  /**
   * Register the matchers (`toMeetRubric`, `toBeBoundTo`, …) in every test file, as
   * `setupFiles: ['vitest-rubric/setup']` would. Their typings come with `vitest-rubric/setup`.
   * @default false
   */
  readonly matchers?: boolean
}

/** {@link RubricPluginOptions} with every default applied. */
export interface ResolvedRubricOptions {
  readonly include: readonly string[]
  readonly exclude: readonly string[]
  readonly pending: PendingPolicy
  readonly decisionRecord: string
  readonly expect: 'acceptance' | 'record'
  readonly reviewers: { readonly min: number }
  readonly agreement: { readonly min: number } | undefined
  readonly judges: Readonly<Record<string, ResolvedJudgeGate>> | undefined
  /** The compare gates; empty when none is given. */
  readonly compare: readonly ResolvedCompareGate[]
  readonly seed: number | string | undefined
  readonly marginGate: 'point' | 'lower-bound' | undefined
  readonly reporter: RubricReporterOptions | false
  readonly cache: boolean
  readonly matchers: boolean
  readonly chunks: { readonly size: number } | undefined
}
