import { z } from 'zod'
import { FixtureError, preview } from '../../common/errors.js'
import { SchemaReferenceSchema, plural } from '../../common/primitives.js'
import { requireWellFormedRubric } from '../../json/literals.js'
import { parseJsonFile, type RawFile } from '../../json/read.js'
import { checkFileDocument } from '../../json/schema-error.js'
import { DIMENSION_NAMES, isDimensionName, type DimensionName } from './dimensions/index.js'

// The two figures the rubric states only in prose, read by an exact phrase.
const SCOREABLE = /at least (\d+) of the (\d+) dimensions are applicable/
const MARGIN = /exceed the baseline mean score by (?:>=|≥) ?(\d+(?:\.\d+)?)/

const unit = z
  .number()
  .refine((value) => value >= 0 && value <= 1, { error: 'a number from 0 to 1' })
  // The refinement above, for editors.
  .meta({ minimum: 0, maximum: 1 })

/** `score_thresholds`: every key required, no other key allowed. */
export const ScoreThresholdsSchema = z.strictObject({
  per_dimension_pass: unit.describe('No applicable dimension of a passing case may score below this (0 to 1).'),
  overall_case_pass: unit.describe('The least mean score of a passing case, and of the benchmark (0 to 1).'),
  benchmark_pass_fraction: unit.describe('The least fraction of scoreable cases that must pass for the benchmark to pass (0 to 1).'),
})
export type ScoreThresholds = z.infer<typeof ScoreThresholdsSchema>

/** `evaluation_rubric.json`: the dimensions with their definitions, the rules in prose, the thresholds. */
export const EvaluationRubricSchema = z.strictObject({
  $schema: SchemaReferenceSchema.optional(),
  scoring_dimensions: z
    .record(z.string(), z.string().min(1))
    .refine((dimensions) => Object.keys(dimensions).length > 0, { error: 'at least one dimension' })
    // The refinement above, and the check of each name in bindEvaluationRubric, for editors.
    .meta({ minProperties: 1, propertyNames: { enum: [...DIMENSION_NAMES] } })
    .describe('The dimensions scored, in order, each with its definition; every name must be one vitest-rubric can compute.'),
  pass_fail_rule: z
    .string()
    .min(1)
    .meta({ pattern: SCOREABLE.source }) // what readMinApplicable needs, for editors
    .describe('The pass/fail rule in prose; the scoreable minimum is read from "at least N of the M dimensions are applicable".'),
  score_thresholds: ScoreThresholdsSchema.describe('The three thresholds of the pass/fail rule, each from 0 to 1.'),
  trivial_baseline_definition: z
    .string()
    .min(1)
    .meta({ pattern: MARGIN.source }) // what readBaselineMargin needs, for editors
    .describe('What the trivial baseline is; the margin the system must beat it by is read from "exceed the baseline mean score by >= X".'),
  notes: z.string().optional().describe('Free notes for readers.'),
})
/** A scored fixture's `evaluation_rubric.json`. */
export type EvaluationRubric = z.infer<typeof EvaluationRubricSchema>

/** The rules as the program applies them, every figure read from the rubric file. */
export interface RubricRules {
  /** The dimensions scored, in the file's order. */
  readonly dimensions: readonly DimensionName[]
  readonly thresholds: {
    /** No applicable dimension of a passing case may be below this. */
    readonly perDimensionPass: number
    /** The least mean of a passing case, and of the benchmark's scoreable cases. */
    readonly overallCasePass: number
    /** The least fraction of scoreable cases that pass for the benchmark to pass. */
    readonly benchmarkPassFraction: number
  }
  /** A case with fewer applicable dimensions is not scoreable (`pass_fail_rule`: "at least N of the M"). */
  readonly minApplicable: number
  /** How far the system's benchmark mean must exceed the baseline's (`trivial_baseline_definition`). */
  readonly baselineMargin: number
}

/** A scored fixture's rubric, validated, with the rules the program applies. */
export interface ScoredRubric {
  /** `evaluation_rubric.json` as parsed. */
  readonly document: EvaluationRubric
  readonly rules: RubricRules
}

/**
 * Reads `evaluation_rubric.json` and derives its rules: the dimensions (each must be one this
 * package can compute), the three thresholds, and the two figures the rubric states only in prose,
 * read by an exact phrase so that a rephrased rule is refused rather than replaced by a default.
 */
export function bindScoredRubric(files: { readonly rubric: RawFile }): ScoredRubric {
  const file = files.rubric
  const document = parseJsonFile(file)
  const parsedRubric = checkFileDocument(EvaluationRubricSchema, document, {
    file: file.display,
    code: 'RUBRIC_INVALID',
    hint: 'an evaluation rubric holds scoring_dimensions (name → definition), pass_fail_rule, score_thresholds { per_dimension_pass, overall_case_pass, benchmark_pass_fraction } (numbers in 0..1), trivial_baseline_definition and optional notes.',
  })
  requireWellFormedRubric(document, file.display)
  const rubric = parsedRubric
  // The names as written: zod leaves a "__proto__" key out of what it returns, and it must be refused like any unknown name.
  // Cast: the rubric schema accepted the document, so scoring_dimensions is an object.
  const names = Object.keys((document as { scoring_dimensions: object }).scoring_dimensions)
  const dimensions = names.map((name) => {
    if (isDimensionName(name)) return name
    throw new FixtureError({
      code: 'UNKNOWN_DIMENSION',
      file: file.display,
      path: ['scoring_dimensions', name],
      summary: 'the rubric names a dimension this package cannot compute.',
      expected: `one of ${DIMENSION_NAMES.map((known) => JSON.stringify(known)).join(', ')}`,
      found: JSON.stringify(name),
      hint: 'correct the dimension name; a dimension with another definition needs its computation added to vitest-rubric first.',
    })
  })
  return {
    document: rubric,
    rules: {
      dimensions,
      thresholds: {
        perDimensionPass: rubric.score_thresholds.per_dimension_pass,
        overallCasePass: rubric.score_thresholds.overall_case_pass,
        benchmarkPassFraction: rubric.score_thresholds.benchmark_pass_fraction,
      },
      minApplicable: readMinApplicable(rubric.pass_fail_rule, dimensions.length, file.display),
      baselineMargin: readBaselineMargin(rubric.trivial_baseline_definition, file.display),
    },
  }
}

function readMinApplicable(rule: string, dimensionCount: number, file: string): number {
  const match = SCOREABLE.exec(rule)
  const base = { code: 'RUBRIC_RULE_UNREADABLE' as const, file, path: ['pass_fail_rule'] }
  if (match === null) {
    throw new FixtureError({
      ...base,
      summary: 'the pass/fail rule does not state how many dimensions make a case scoreable.',
      expected: 'the phrase "at least N of the M dimensions are applicable"',
      found: preview(rule, 200),
      hint: 'keep that phrase in pass_fail_rule: the program reads the scoreable minimum from it rather than assuming one.',
    })
  }
  const least = Number(match[1])
  const of = Number(match[2])
  if (of !== dimensionCount || least < 1 || least > of) {
    throw new FixtureError({
      ...base,
      summary: `the pass/fail rule asks for at least ${least} of ${plural(of, 'dimension')}, but scoring_dimensions names ${dimensionCount}.`,
      expected: `"at least N of the ${dimensionCount} dimensions are applicable" with 1 ≤ N ≤ ${dimensionCount}`,
      found: JSON.stringify(match[0]),
      hint: 'make the rule and scoring_dimensions agree.',
    })
  }
  return least
}

function readBaselineMargin(definition: string, file: string): number {
  const match = MARGIN.exec(definition)
  if (match === null) {
    throw new FixtureError({
      code: 'RUBRIC_RULE_UNREADABLE',
      file,
      path: ['trivial_baseline_definition'],
      summary: 'the baseline definition does not state the margin by which the system must beat the baseline.',
      expected: 'the phrase "exceed the baseline mean score by >= X"',
      found: preview(definition, 200),
      hint: 'keep that phrase in trivial_baseline_definition: the program reads the margin from it rather than assuming one.',
    })
  }
  return Number(match[1])
}
