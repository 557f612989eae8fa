/** `vitest-rubric sample`: draws cases for human review and records the design in the fixture's `sample.json`. */
import { resolve } from 'node:path'
import { displayPath } from '../common/display-path.js'
import { valueAt } from '../common/primitives.js'
import { CanonicalJsonError } from '../common/errors.js'
import { fingerprint } from '../json/canonical-json.js'
import { withFixtureLock } from '../json/fixture-lock.js'
import type { WriteIo } from '../json/atomic-write.js'
import { evaluateFixture } from '../engine/evaluate.js'
import { loadFixture, type CaseEntry, type SomeFixture } from '../engine/fixture.js'
import type { SomeKindDefinition } from '../contract/kind.js'
import type { KindRegistry } from '../engine/registry.js'
import { drawSample, type Population } from './draw.js'
import { readSampleFile, SAMPLE_FILE, writeSampleFile, type SampledCase, type SampleFile, type SampleMethod, type SamplePlace } from './sample-file.js'

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
      const population: Population = {
        cases: fixture.cases.map((entry) => ({ id: entry.id, split: entry.split, answerSha256: bindings.get(entry.id) ?? null })),
        caseSetSha256: evaluation.identities.caseSetSha256,
      }
      const place = samplePlace(fixture, options.cwd)
      const file = `${fixture.displayDir}/${SAMPLE_FILE}`
      const before = await readSampleFile(place)
      const fresh = options.fresh === true
      const { sample, drawn } = drawSample(before.sample, population, {
        size: options.size,
        seed: options.seed,
        method: options.method ?? 'uniform',
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
        extended: before.sample !== undefined && !fresh,
        replaced: before.sample !== undefined && fresh,
        written,
      }
    },
    displayPath(options.cwd, absolute),
  )
}
