/** `vitest-rubric sample`: draws cases for human review and records the design in the fixture's `sample.json`. */
import { resolve } from 'node:path'
import { displayPath } from '../common/display-path.js'
import { valueAt } from '../common/json-path.js'
import { CanonicalJsonError } from '../common/errors.js'
import { fingerprint } from '../json/canonical-json.js'
import { withFixtureLock } from '../json/fixture-lock.js'
import type { WriteIo } from '../json/atomic-write.js'
import { evaluateFixture } from '../engine/evaluate.js'
import { loadFixture, type CaseEntry, type SomeFixture } from '../engine/fixture.js'
import type { SomeKindDefinition } from '../contract/kind.js'
import type { KindRegistry } from '../engine/registry.js'
import { designOf, drawSample, type Population } from './draw.js'
import { judgeDesign, requireConfidences, type JudgeDesign } from './judge-design.js'
import {
  readSampleFile,
  SAMPLE_FILE,
  sampleFileSha256,
  writeSampleFile,
  type SampledCase,
  type SampleFile,
  type SampleMethod,
  type SamplePlace,
  type SampleStrata,
} from './sample-file.js'
import { UsageError } from '../common/errors.js'

/**
 * The fingerprint of a case's answer as its reviews bind it: the value each review binding that
 * fingerprints a value of the case (`input.answer` for a criteria case) names, for every review
 * slot; one such value's own fingerprint, several as the fingerprint of their list. `null` when a
 * value has no canonical form.
 */
export function answerBinding(definition: SomeKindDefinition, caseValue: unknown): string | null {
  const hashes: string[] = []
  try {
    for (const row of definition.bindings) {
      if (row.in !== 'review' || !('fingerprintOf' in row.source)) continue
      for (const slot of definition.reviews.slots) hashes.push(fingerprint(valueAt(caseValue, row.source.fingerprintOf(slot))))
    }
  } catch (error) {
    if (error instanceof CanonicalJsonError) return null
    throw error
  }
  if (hashes.length === 0) return null
  return hashes.length === 1 ? hashes[0]! : fingerprint(hashes)
}

/** The answer bindings of a fixture's cases, by id. */
export function answerBindings(fixture: SomeFixture): Map<string, string | null> {
  return new Map(fixture.cases.map((entry: CaseEntry) => [entry.id, answerBinding(fixture.definition, entry.value)]))
}

/** Where a fixture's sample file is. */
export function samplePlace(fixture: SomeFixture, cwd: string): SamplePlace {
  return { dir: fixture.dir, displayDir: fixture.displayDir, root: cwd }
}

/** Options of {@link sampleFixture}. */
export interface SampleOptions {
  readonly size: number
  readonly seed: string
  /** @default 'uniform' */
  readonly method?: SampleMethod
  /** A stratified draw's strata: `decision` and `criterion` are the judge's, within each split. @default 'split' */
  readonly strata?: SampleStrata
  /** The judge whose labels an active draw, or one stratified by decision or criterion, is drawn by. */
  readonly judge?: string
  /** Replace the sample there is instead of extending it. @default false */
  readonly fresh?: boolean
  /** Draw, but write nothing. @default false */
  readonly dryRun?: boolean
  readonly cwd: string
  /** The time recorded with the draw. @default now */
  readonly now?: Date
  readonly io?: WriteIo
}

/** What a draw did. */
export interface SampleResult {
  /** `<dir>/sample.json`, as shown. */
  readonly file: string
  readonly fixture: string
  readonly sample: SampleFile
  /** The cases this draw added, in the order drawn. */
  readonly drawn: readonly SampledCase[]
  /** Whether a sample was there before: extended, or replaced with `fresh`. */
  readonly extended: boolean
  readonly replaced: boolean
  readonly written: boolean
}

/**
 * Draws `size` cases for review and records the design in `<dir>/sample.json`: a new sample, or an
 * extension of the one there is. The fixture is read, the draw made and the file written under the
 * fixture's lock, so the draw is made from the cases as they are when it is written.
 */
export async function sampleFixture(kinds: KindRegistry, dir: string, options: SampleOptions): Promise<SampleResult> {
  const absolute = resolve(options.cwd, dir)
  return withFixtureLock(
    absolute,
    async () => {
      const fixture = await loadFixture(kinds, dir, { cwd: options.cwd })
      const evaluation = evaluateFixture(fixture)
      const bindings = answerBindings(fixture)
      const place = samplePlace(fixture, options.cwd)
      const file = `${fixture.displayDir}/${SAMPLE_FILE}`
      const method = options.method ?? 'uniform'
      const design = judgeDesignFor(fixture, method, options.strata, options.judge, file)
      const population: Population = {
        cases: fixture.cases.map((entry) => ({
          id: entry.id,
          split: entry.split,
          answerSha256: bindings.get(entry.id) ?? null,
          ...(design === undefined ? {} : { judge: design.cases.get(entry.id)! }),
        })),
        caseSetSha256: evaluation.identities.caseSetSha256,
      }
      const fresh = options.fresh === true
      // A new sample replaces the file whatever it holds, a file refused as invalid included: that is the fix its refusal gives.
      const before = fresh ? { sample: undefined, sha256: await sampleFileSha256(place) } : await readSampleFile(place, { cases: fixture.cases })
      const { sample, drawn } = drawSample(before.sample, population, {
        size: options.size,
        seed: options.seed,
        method,
        strata: options.strata,
        judge: design?.judge,
        fresh,
        now: options.now ?? new Date(),
        file,
      })
      const written = options.dryRun !== true
      if (written) await writeSampleFile(place, sample, before.sha256, options.io)
      return {
        file,
        fixture: fixture.displayDir,
        sample,
        drawn,
        extended: before.sample !== undefined,
        replaced: fresh && before.sha256 !== null,
        written,
      }
    },
    displayPath(options.cwd, absolute),
  )
}

/**
 * The judge's design inputs for a design drawn by the judge (`undefined` for the others): a usage
 * error without a judge, or with one for a design that does not read it; `SAMPLE_NO_CONFIDENCE` for
 * a design drawn by confidence when the judge recorded none.
 */
function judgeDesignFor(
  fixture: SomeFixture,
  method: SampleMethod,
  strata: SampleStrata | undefined,
  judge: string | undefined,
  file: string,
): JudgeDesign | undefined {
  const design = designOf(method, method === 'stratified' ? strata : undefined)
  if (!design.byJudge) {
    if (judge === undefined) return undefined
    throw new UsageError({
      code: 'USAGE',
      file,
      summary: `a sample drawn ${design.words} does not read a judge's labels, and --judge ${judge} was given.`,
      expected: '--judge with --method active, --by decision or --by criterion',
      hint: 'leave --judge out, or draw with --method active, --by decision or --by criterion.',
    })
  }
  if (judge === undefined) {
    throw new UsageError({
      code: 'USAGE',
      file,
      summary: `a sample drawn ${design.words} is drawn by a judge's labels, and no --judge was given.`,
      expected: '--judge <name>: a judge with labels in judges/<name>.json (or the records layout)',
      hint: `pass --judge <name>${fixture.judges.names.length === 0 ? '' : ` (${fixture.judges.names.join(', ')})`}.`,
    })
  }
  const found = judgeDesign(fixture, judge)
  if (method === 'active') requireConfidences(found, 'an active draw')
  if (strata === 'criterion') requireConfidences(found, 'a draw stratified by the least-sure criterion')
  return found
}
