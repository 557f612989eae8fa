/**
 * `vitest-rubric sample B --like A`: B's sample with A's design, over the same tasks, so that the
 * two are one draw of the tasks and `compare A B --judge` can pair them
 * (docs/statistics.md#one-sample-of-tasks-for-both-fixtures).
 */
import { resolve } from 'node:path'
import { displayPath } from '../common/display-path.js'
import { FixtureError, RevisionError, UsageError } from '../common/errors.js'
import { plural } from '../common/primitives.js'
import type { WriteIo } from '../json/atomic-write.js'
import { withFixtureLock } from '../json/fixture-lock.js'
import { evaluateFixture } from '../engine/evaluate.js'
import { loadFixture } from '../engine/fixture.js'
import type { KindRegistry } from '../engine/registry.js'
import { populationFigures } from './draw.js'
import { answerBindings, samplePlace, type SampleResult } from './sample.js'
import { readSampleFile, SAMPLE_FILE, sampleFileSha256, writeSampleFile, type SampleFile, type SamplePlace } from './sample-file.js'

/** Options of {@link sampleLike}. */
export interface SampleLikeOptions {
  readonly cwd: string
  /** Replace B's sample when it has one. @default false */
  readonly fresh?: boolean
  /** Copy, but write nothing. @default false */
  readonly dryRun?: boolean
  readonly io?: WriteIo
}

/**
 * Writes `<dir>/sample.json` with the design of `like`'s sample: the same draws (each noting the
 * sample copied and the SHA-256 of its bytes) and the same tasks with the same inclusion
 * probabilities and strata, each with the fingerprint of this fixture's answer now. Refused when
 * this fixture's cases (ids and splits) are not those `like`'s sample was last drawn from
 * (`SAMPLE_POPULATION_CHANGED`), and when it has a sample already, unless `fresh`.
 */
export async function sampleLike(kinds: KindRegistry, dir: string, like: string, options: SampleLikeOptions): Promise<SampleResult> {
  const absolute = resolve(options.cwd, dir)
  const likeDir = resolve(options.cwd, like)
  const likePlace: SamplePlace = { dir: likeDir, displayDir: displayPath(options.cwd, likeDir), root: options.cwd }
  const likeFile = `${likePlace.displayDir}/${SAMPLE_FILE}`
  return withFixtureLock(
    absolute,
    async () => {
      const fixture = await loadFixture(kinds, dir, { cwd: options.cwd })
      const place = samplePlace(fixture, options.cwd)
      const file = `${fixture.displayDir}/${SAMPLE_FILE}`
      if (likeDir === fixture.dir)
        throw new UsageError({ code: 'USAGE', file, summary: '--like names the fixture itself.', hint: 'name the other fixture of the comparison.' })
      // This fixture's cases are the other's when they have the fingerprint its draws record: checked against them then.
      const source = await readSampleFile(likePlace, { cases: fixture.cases })
      if (source.sample === undefined || source.sha256 === null) {
        throw new FixtureError({
          code: 'SAMPLE_MISSING',
          file: likeFile,
          summary: `--like ${likePlace.displayDir} copies that fixture's sample, and it has none.`,
          expected: `${SAMPLE_FILE}, written by \`vitest-rubric sample\``,
          hint: `draw it first (\`vitest-rubric sample ${likePlace.displayDir} --size <n> --seed <s>\`), then copy its design.`,
        })
      }
      const last = source.sample.draws[source.sample.draws.length - 1]!
      const figures = populationFigures(fixture.cases.map((entry) => ({ id: entry.id, split: entry.split, answerSha256: null })))
      if (figures.population_sha256 !== last.population_sha256) {
        const ids = new Set(fixture.cases.map((entry) => entry.id))
        const missing = source.sample.cases.filter((entry) => !ids.has(entry.id)).map((entry) => entry.id)
        throw new RevisionError({
          code: 'SAMPLE_POPULATION_CHANGED',
          file: likeFile,
          path: ['draws', source.sample.draws.length - 1, 'population_sha256'],
          summary:
            `${fixture.displayDir} does not hold the tasks ${likeFile} was drawn from: ${plural(last.population, 'case')} there, ${plural(figures.population, 'case')} here, ` +
            `not the same ids in the same splits${missing.length === 0 ? '' : `; ${plural(missing.length, 'drawn task')} not here (${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''})`}. ` +
            'A copied design holds only over the same tasks.',
          expected: 'the same case ids, in the same splits, as the sample copied was drawn from',
          hint: 'give both fixtures the same tasks, or draw this fixture a sample of its own (its estimate then stands alone; a paired comparison needs one draw of the tasks).',
        })
      }
      const fresh = options.fresh === true
      // A new copy replaces the file whatever it holds, a file refused as invalid included.
      const before = fresh ? { sample: undefined, sha256: await sampleFileSha256(place) } : await readSampleFile(place)
      if (before.sample !== undefined) {
        throw new UsageError({
          code: 'USAGE',
          file,
          summary: 'the fixture has a sample already, and --like replaces it with a copy of another design.',
          expected: '--new with --like, to replace it',
          hint: `pass --new to replace ${file}, or leave out --like to extend it.`,
        })
      }
      const bindings = answerBindings(fixture)
      const sample: SampleFile = {
        format: source.sample.format,
        version: source.sample.version,
        draws: source.sample.draws.map((draw) => ({ ...draw, like: { file: likeFile, sha256: source.sha256! } })),
        cases: source.sample.cases.map((entry) => ({ ...entry, answer_sha256: bindings.get(entry.id) ?? null })),
      }
      // The evaluation identity is this fixture's: the case set is the same tasks with this system's answers.
      const identity = evaluateFixture(fixture).identities.caseSetSha256
      const own: SampleFile = { ...sample, draws: sample.draws.map((draw) => ({ ...draw, case_set_sha256: identity })) }
      const written = options.dryRun !== true
      if (written) await writeSampleFile(place, own, before.sha256, options.io)
      return {
        file,
        fixture: fixture.displayDir,
        sample: own,
        drawn: own.cases,
        extended: false,
        replaced: fresh && before.sha256 !== null,
        written,
      }
    },
    displayPath(options.cwd, absolute),
  )
}
