import { z } from 'zod'
import { UsageError } from '../core/common/errors.js'
import { EstimateGatesSchema, resolveEstimateGates, type EstimateGateOptions, type ResolvedEstimateGate } from './estimate-options.js'
import { refuseUnknownKey, unwrapUnions } from './options-issues.js'
import { globs } from './glob-option.js'
import { schemaError } from '../core/json/schema-error.js'
import { REVIEWER_NAME, reviewerName } from '../core/engine/panel.js'
import { FIXTURE_FILE_NAMES } from '../core/registry.js'
import { MIN_BOOTSTRAP_CASES } from '../core/stats/bootstrap.js'
import type { CompareGateOptions, ResolvedCompareGate } from './compare-options.js'

export type { CompareGateOptions, ResolvedCompareGate } from './compare-options.js'

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
   * The estimate gate, or several: per fixture, a check "acceptance rate on held-out cases (PPI++
   * with judge <judge>) is at least <min>", passing when the lower bound of the judge-assisted
   * acceptance rate's 95% interval is at least `min`; failing with the figures; todo while too few
   * sampled cases are reviewed or more than 10% of them are pending. Off unless given.
   */
  readonly estimate?: EstimateGateOptions | readonly EstimateGateOptions[]
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
  /** The estimate gates; empty when none is given. */
  readonly estimate: readonly ResolvedEstimateGate[]
  /** As text: a number is read as its decimal string, as the command line's `--seed` reads it. */
  readonly seed: string | undefined
  readonly marginGate: 'point' | 'lower-bound' | undefined
  readonly reporter: RubricReporterOptions | false
  readonly cache: boolean
  readonly matchers: boolean
  readonly chunks: { readonly size: number } | undefined
}

const KAPPA_OR_ALPHA = 'a number from -1 to 1'

const MIN_CASES = `a whole number of at least ${MIN_BOOTSTRAP_CASES}: below ${MIN_BOOTSTRAP_CASES} cases kappa has no 95% interval, so no lower bound, and the gate could never pass`

const PATH_OR_FALSE = 'a path relative to the project root, or false for none'

const FALSE_ACCEPT_LIMIT = 'a whole number of false accepts (at least 0), or { rate: r } with r from 0 to 1'

const RATE = 'a rate from 0 to 1, a share of the judgements the reviewers rated does_not_meet'

const JudgeGateSchema = z.strictObject({
  minKappa: z.number({ error: KAPPA_OR_ALPHA }).min(-1, { error: KAPPA_OR_ALPHA }).max(1, { error: KAPPA_OR_ALPHA }),
  // The gate needs kappa's interval, which the bootstrap gives from MIN_BOOTSTRAP_CASES cases on: a smaller minCases would read as met and never pass.
  minCases: z.int({ error: MIN_CASES }).refine((value) => value >= MIN_BOOTSTRAP_CASES, { error: MIN_CASES }),
  maxFalseAccepts: z
    .union([z.int().min(0), z.strictObject({ rate: z.number().min(0, { error: RATE }).max(1, { error: RATE }) })], { error: FALSE_ACCEPT_LIMIT })
    .optional(),
  fixtures: globs.optional(),
})

const CompareGateSchema = z.strictObject({
  against: z.string().min(1),
  split: z.enum(['held_out', 'development'], { error: 'one of "held_out", "development"' }).optional(),
  margin: z.number().min(0, { error: 'a proportion from 0 to 1 (0.05 is 5 points)' }).max(1, { error: 'a proportion from 0 to 1 (0.05 is 5 points)' }),
  fixtures: globs.optional(),
  judge: z.string().regex(REVIEWER_NAME, { error: 'a judge name (the name of its file judges/<name>.json)' }).optional(),
})

const OptionsSchema = z.strictObject({
  include: globs.optional(),
  exclude: globs.optional(),
  pending: z
    .union([z.literal('todo'), z.literal('fail'), z.strictObject({ max: z.int().min(0) })], {
      error: 'one of "todo", "fail", or { max: n } with n a whole number of at least 0',
    })
    .optional(),
  decisionRecord: z
    .string()
    .regex(/^[^/\\]+\.json$/, { error: 'a file name ending in .json, without a directory' })
    .refine((name) => !FIXTURE_FILE_NAMES.has(name), {
      error: 'a file name ending in .json that no fixture file has: the record is written over the file it names',
    })
    .optional(),
  reporter: z
    .union(
      [
        z.boolean(),
        z.strictObject({
          outputFile: z.union([z.string().min(1), z.boolean().refine((value) => !value, { error: PATH_OR_FALSE })], { error: PATH_OR_FALSE }).optional(),
          githubSummary: z.boolean().optional(),
          htmlReport: z.union([z.string().min(1), z.boolean().refine((value) => !value, { error: PATH_OR_FALSE })], { error: PATH_OR_FALSE }).optional(),
          reportUrl: z.url({ error: 'an absolute URL, such as https://example.com/report.html' }).optional(),
        }),
      ],
      { error: 'true, false, or { outputFile, githubSummary, htmlReport, reportUrl }' },
    )
    .optional(),
  cache: z.boolean().optional(),
  matchers: z.boolean().optional(),
  expect: z.enum(['acceptance', 'record'], { error: 'one of "acceptance", "record"' }).optional(),
  reviewers: z.strictObject({ min: z.int().min(0) }).optional(),
  agreement: z.strictObject({ min: z.number({ error: KAPPA_OR_ALPHA }).min(-1, { error: KAPPA_OR_ALPHA }).max(1, { error: KAPPA_OR_ALPHA }) }).optional(),
  judges: z
    .record(z.string().regex(REVIEWER_NAME), JudgeGateSchema, {
      error: (issue) =>
        issue.code === 'invalid_key' ? 'a judge name (the name of its file judges/<name>.json): letters and digits, then also ".", "_", "-"' : undefined,
    })
    .superRefine(oneKeyPerJudge)
    .optional(),
  compare: z
    .union([CompareGateSchema, z.array(CompareGateSchema)], { error: 'a compare gate { against, margin, split, fixtures, judge }, or a list of them' })
    .optional(),
  estimate: EstimateGatesSchema.optional(),
  seed: z.union([z.string(), z.number().finite()], { error: 'a string or a finite number' }).optional(),
  marginGate: z.enum(['point', 'lower-bound'], { error: 'one of "point", "lower-bound"' }).optional(),
  chunks: z.strictObject({ size: z.int().min(1) }).optional(),
})

/** Validates the plugin options: a mistake is a clear error at startup, not a silent default. */
export function resolveOptions(options: RubricPluginOptions = {}): ResolvedRubricOptions {
  const parsed = OptionsSchema.safeParse(options, { reportInput: true })
  if (!parsed.success) {
    refuseUnknownKey(OptionsSchema, parsed.error.issues)
    throw schemaError(
      {
        ErrorClass: UsageError,
        code: 'USAGE',
        file: 'rubric() options',
        basePath: [],
        hint: 'see the options of rubric() in docs/plugin.md: include, exclude, pending ("todo", "fail" or { max: n }), decisionRecord, expect ("acceptance" or "record"), reviewers ({ min: n }), agreement ({ min: alpha }), judges ({ <name>: { minKappa, minCases (≥ 10), maxFalseAccepts (a count, or { rate }), fixtures (globs) } }), compare ({ against, split, margin, fixtures, judge } or a list of them), estimate ({ judge, min, split, fixtures } or a list of them), seed, marginGate ("point" or "lower-bound"), reporter (true, false or { outputFile, githubSummary, htmlReport, reportUrl }), cache, matchers, chunks ({ size: n }, n ≥ 1 cases per module).',
      },
      unwrapUnions(parsed.error.issues),
    )
  }
  const value = parsed.data
  return {
    include: toList(value.include ?? 'fixtures/**').map(trimSlashes),
    exclude: toList(value.exclude ?? []).map(trimSlashes),
    pending: value.pending ?? 'todo',
    decisionRecord: value.decisionRecord ?? 'decisions.record.json',
    expect: value.expect ?? 'acceptance',
    reviewers: value.reviewers ?? { min: 0 },
    agreement: value.agreement,
    judges: value.judges === undefined ? undefined : resolveJudges(value.judges),
    compare: (value.compare === undefined ? [] : Array.isArray(value.compare) ? value.compare : [value.compare]).map((gate) => ({
      against: trimSlashes(gate.against),
      split: gate.split ?? 'held_out',
      margin: gate.margin,
      fixtures: gate.fixtures === undefined ? undefined : toList(gate.fixtures).map(trimSlashes),
      judge: gate.judge === undefined ? undefined : reviewerName(gate.judge),
    })),
    estimate: resolveEstimateGates(value.estimate, (globs) => toList(globs).map(trimSlashes)),
    seed: value.seed === undefined ? undefined : String(value.seed),
    marginGate: value.marginGate,
    cache: value.cache ?? true,
    matchers: value.matchers ?? false,
    chunks: value.chunks,
    // Cast: the options schema checked the reporter options' shape just above.
    reporter: value.reporter === false ? false : value.reporter === true || value.reporter === undefined ? {} : (value.reporter as RubricReporterOptions),
  }
}

function resolveJudges(judges: Readonly<Record<string, z.infer<typeof JudgeGateSchema>>>): Record<string, ResolvedJudgeGate> {
  return Object.fromEntries(
    Object.entries(judges).map(([name, gate]) => [
      reviewerName(name),
      {
        minKappa: gate.minKappa,
        minCases: gate.minCases,
        maxFalseAccepts: gate.maxFalseAccepts,
        fixtures: gate.fixtures === undefined ? undefined : toList(gate.fixtures).map(trimSlashes),
      },
    ]),
  )
}

/**
 * Judge names are read in NFC, as the judges' files are: `zoë` typed composed in one key and
 * decomposed in another names one judge twice, with two gates for one file.
 */
function oneKeyPerJudge(judges: Readonly<Record<string, unknown>>, context: z.RefinementCtx): void {
  const seen = new Map<string, string>()
  for (const name of Object.keys(judges)) {
    const other = seen.get(reviewerName(name))
    if (other === undefined) seen.set(reviewerName(name), name)
    else
      context.addIssue({
        code: 'custom',
        path: [name],
        message: `a judge name no other key has: ${JSON.stringify(name)} is ${JSON.stringify(other)} written with other code points (equal after Unicode NFC normalisation), so both name judges/${reviewerName(name)}.json`,
      })
  }
}

function toList(value: string | readonly string[]): string[] {
  return typeof value === 'string' ? [value] : [...value]
}

function trimSlashes(glob: string): string {
  return glob.replace(/^\.\//, '').replace(/\/+$/, '')
}
