import { z } from 'zod'
import { UsageError } from '../core/common/errors.js'
import { formatLocation } from '../core/common/json-path.js'
import { closestName } from '../core/common/suggest.js'
import { schemaError } from '../core/json/schema-error.js'
import { REVIEWER_NAME } from '../core/engine/panel.js'
import { MIN_BOOTSTRAP_CASES } from '../core/stats/bootstrap.js'
import type { ResolvedJudgeGate, RubricReporterOptions, RubricPluginOptions, ResolvedRubricOptions } from './plugin-options.js'

export type {
  PendingPolicy,
  FalseAcceptLimit,
  JudgeGateOptions,
  ResolvedJudgeGate,
  RubricReporterOptions,
  CompareGateOptions,
  ResolvedCompareGate,
  RubricPluginOptions,
  ResolvedRubricOptions,
} from './plugin-options.js'

const globs = z.union([z.string().min(1), z.array(z.string().min(1))], { error: 'a glob, or a list of globs' })

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
    .optional(),
  compare: z
    .union([CompareGateSchema, z.array(CompareGateSchema)], { error: 'a compare gate { against, margin, split, fixtures }, or a list of them' })
    .optional(),
  seed: z.union([z.string(), z.number().finite()], { error: 'a string or a finite number' }).optional(),
  marginGate: z.enum(['point', 'lower-bound'], { error: 'one of "point", "lower-bound"' }).optional(),
  chunks: z.strictObject({ size: z.int().min(1) }).optional(),
})

/** Validates the plugin options: a mistake is a clear error at startup, not a silent default. */
export function resolveOptions(options: RubricPluginOptions = {}): ResolvedRubricOptions {
  const parsed = OptionsSchema.safeParse(options, { reportInput: true })
  if (!parsed.success) {
    refuseUnknownKey(parsed.error.issues)
    throw schemaError(
      {
        ErrorClass: UsageError,
        code: 'USAGE',
        file: 'rubric() options',
        basePath: [],
        hint: 'see the options of rubric() in docs/plugin.md: include, exclude, pending ("todo", "fail" or { max: n }), decisionRecord, expect ("acceptance" or "record"), reviewers ({ min: n }), agreement ({ min: alpha }), judges ({ <name>: { minKappa, minCases (≥ 10), maxFalseAccepts (a count, or { rate }), fixtures (globs) } }), compare ({ against, split, margin, fixtures } or a list of them), seed, marginGate ("point" or "lower-bound"), reporter (true, false or { outputFile, githubSummary, htmlReport, reportUrl }), cache, matchers, chunks ({ size: n }, n ≥ 1 cases per module).',
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
    })),
    seed: value.seed,
    marginGate: value.marginGate,
    cache: value.cache ?? true,
    matchers: value.matchers ?? false,
    chunks: value.chunks,
    // Cast: the options schema checked the reporter options' shape just above.
    reporter: value.reporter === false ? false : value.reporter === true || value.reporter === undefined ? {} : (value.reporter as RubricReporterOptions),
  }
}

const OPTIONS_HINT = 'see the options of rubric() in docs/plugin.md.'

/**
 * An unknown key is named first, with the key it most likely meant: `judges › j › minkappa` would
 * otherwise be reported as a missing `minKappa`, which hides the typo.
 */
function refuseUnknownKey(issues: readonly z.core.$ZodIssue[]): void {
  for (const issue of withinUnions(issues)) {
    if (issue.code !== 'unrecognized_keys') continue
    const path = issue.path.map((key) => (typeof key === 'number' ? key : String(key)))
    const known = keysAt(OptionsSchema, path)
    const [key] = issue.keys
    const meant = key === undefined ? undefined : closestName(key, known)
    throw new UsageError({
      code: 'USAGE',
      file: formatLocation('rubric() options', [...path, ...(key === undefined ? [] : [key])]),
      summary: `unknown key ${JSON.stringify(key)}${meant === undefined ? '' : ` (did you mean ${JSON.stringify(meant)}?)`}.`,
      expected: known.length === 0 ? undefined : `one of ${known.map((name) => JSON.stringify(name)).join(', ')}`,
      hint: meant === undefined ? OPTIONS_HINT : `write ${JSON.stringify(meant)}; ${OPTIONS_HINT}`,
    })
  }
}

/**
 * A value that matched no option of a union is reported by the one option of its shape (a gate
 * object rather than a list of them), with that option's own issues; when no option or several
 * are of its shape, by the union's message.
 */
function unwrapUnions(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union') return [issue]
    const shaped = issue.errors.filter((option) => !option.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0))
    if (shaped.length !== 1) return [issue]
    return unwrapUnions(shaped[0]!.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })))
  })
}

/** The issues and, for a value that matched no option of a union, each option's issues, at their full paths. */
function withinUnions(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) =>
    issue.code === 'invalid_union'
      ? [issue, ...withinUnions(issue.errors.flatMap((option) => option.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }))))]
      : [issue],
  )
}

/** The keys an object of the options schema may have at `path`, read through optional values, unions and records. */
function keysAt(schema: z.ZodType, path: readonly (string | number)[]): string[] {
  // Cast: zod types the parts of a classic schema with its core types; every part here is a classic schema.
  if (schema instanceof z.ZodOptional) return keysAt(schema.unwrap() as z.ZodType, path)
  // Cast: as above, for the options of a union.
  if (schema instanceof z.ZodUnion) return [...new Set((schema.options as readonly z.ZodType[]).flatMap((option) => keysAt(option, path)))]
  // Cast: as above, for the elements of an array.
  if (schema instanceof z.ZodArray) return path.length === 0 ? [] : keysAt(schema.element as z.ZodType, path.slice(1))
  // Cast: as above, for the values of a record.
  if (schema instanceof z.ZodRecord) return path.length === 0 ? [] : keysAt(schema.valueType as z.ZodType, path.slice(1))
  if (schema instanceof z.ZodObject) {
    // Cast: as above, for the properties of an object.
    const shape = schema.shape as Record<string, z.ZodType>
    if (path.length === 0) return Object.keys(shape)
    const next = shape[String(path[0])]
    return next === undefined ? [] : keysAt(next, path.slice(1))
  }
  return []
}

function resolveJudges(judges: Readonly<Record<string, z.infer<typeof JudgeGateSchema>>>): Record<string, ResolvedJudgeGate> {
  return Object.fromEntries(
    Object.entries(judges).map(([name, gate]) => [
      name,
      {
        minKappa: gate.minKappa,
        minCases: gate.minCases,
        maxFalseAccepts: gate.maxFalseAccepts,
        fixtures: gate.fixtures === undefined ? undefined : toList(gate.fixtures).map(trimSlashes),
      },
    ]),
  )
}

function toList(value: string | readonly string[]): string[] {
  return typeof value === 'string' ? [value] : [...value]
}

function trimSlashes(glob: string): string {
  return glob.replace(/^\.\//, '').replace(/\/+$/, '')
}
