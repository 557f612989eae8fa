import { stat } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { FixtureError } from './errors.js'
import { readFixtureFile, type FixtureFileReader } from './read.js'
import { evaluateCriteriaFixture, type CriteriaEvaluation } from './criteria/evaluate.js'
import { loadCriteriaFixture, type CriteriaFixture } from './criteria/load.js'
import { planCriteriaTests } from './criteria/plan.js'
import { criteriaRecord, type CriteriaRecord } from './criteria/record.js'
import type { TestPlan } from './plan.js'
import { evaluateScoredFixture, type ScoredEvaluation } from './scored/evaluate.js'
import { loadScoredFixture, type ScoredFixture } from './scored/load.js'
import { planScoredTests } from './scored/plan.js'
import { scoredRecord, type ScoredRecord } from './scored/record.js'

/** The kinds of fixture directory, told apart by the file that marks them. */
export const FIXTURE_KINDS = {
  /** Hard criteria with hash-bound reviews (`rubric.json`, `source.txt`, `cases.json`, `annotations.json`). */
  criteria: { marker: 'rubric.json', files: ['rubric.json', 'source.txt', 'cases.json', 'annotations.json'] },
  /** Dimension scores of a debate benchmark and its baseline (`evaluation_rubric.json`, `cases.json`, `annotations.json`). */
  scored: { marker: 'evaluation_rubric.json', files: ['evaluation_rubric.json', 'cases.json', 'annotations.json'] },
} as const satisfies Record<string, { marker: string; files: readonly string[] }>

export type FixtureKind = keyof typeof FIXTURE_KINDS

/** Any loaded fixture. */
export type Fixture = CriteriaFixture | ScoredFixture

/** Any evaluated fixture. */
export type FixtureEvaluation = CriteriaEvaluation | ScoredEvaluation

/** Any evaluation as the JSON that `vitest-rubric evaluate --json` prints. */
export type FixtureRecord = CriteriaRecord | ScoredRecord

export interface LoadFixtureOptions {
  /**
   * Paths in messages are shown relative to this directory.
   * @default process.cwd()
   */
  readonly cwd?: string
}

/** Which kind of fixture a directory holds, by its marker file; `undefined` if none. */
export async function detectFixtureKind(dir: string): Promise<FixtureKind | undefined> {
  return (await fixtureKindsIn(dir))[0]
}

/** Every kind whose marker file the directory holds: more than one is a defect, never a guess. */
export async function fixtureKindsIn(dir: string): Promise<FixtureKind[]> {
  const kinds: FixtureKind[] = []
  for (const [kind, { marker }] of Object.entries(FIXTURE_KINDS) as [FixtureKind, { marker: string }][]) {
    if (await isFile(join(dir, marker))) kinds.push(kind)
  }
  return kinds
}

/**
 * Loads a fixture directory: its rubric, source, cases and reviews with their revision hashes.
 * A fixture-level defect throws a {@link FixtureError} naming the file, the JSON path and the fix.
 */
export async function loadFixture<K extends FixtureKind>(
  dir: string,
  options: LoadFixtureOptions & { readonly kind: K },
): Promise<Extract<Fixture, { kind: K }>>
export async function loadFixture(dir: string, options?: LoadFixtureOptions): Promise<Fixture>
export async function loadFixture(dir: string, options: LoadFixtureOptions & { readonly kind?: FixtureKind } = {}): Promise<Fixture> {
  return loadFixtureReading(dir, options, readFixtureFile)
}

/** {@link loadFixture}, reading the files through `read`: a revision is checked on its new contents before it is written. */
export async function loadFixtureReading(
  dir: string,
  options: LoadFixtureOptions & { readonly kind?: FixtureKind },
  read: FixtureFileReader,
): Promise<Fixture> {
  const cwd = options.cwd ?? process.cwd()
  const absolute = resolve(cwd, dir)
  const display = relative(cwd, absolute) || '.'
  if (!(await isDirectory(absolute))) {
    const isFileThere = await isFile(absolute)
    throw new FixtureError({
      code: 'FIXTURE_NOT_FOUND',
      file: display,
      summary: isFileThere ? 'the path is a file, not a fixture directory.' : 'no such fixture directory.',
      hint: isFileThere
        ? `pass the directory that holds the fixture's files (${relative(cwd, dirname(absolute)) || '.'}).`
        : 'pass the path of a directory that holds a fixture (for example fixtures/docuctl-rollback).',
    })
  }
  const kinds = await fixtureKindsIn(absolute)
  if (kinds.length > 1) {
    throw new FixtureError({
      code: 'FIXTURE_KIND_AMBIGUOUS',
      file: display,
      summary: `the directory holds the marker files of ${kinds.length} kinds of fixture, so which one it is would be a guess.`,
      found: kinds.map((each) => FIXTURE_KINDS[each].marker).join(' and '),
      hint: 'keep one fixture per directory: move one of the rubrics, with its cases and annotations, to a directory of its own.',
    })
  }
  const kind: FixtureKind | undefined = kinds[0]
  if (options.kind !== undefined && kind !== undefined && kind !== options.kind) {
    throw new FixtureError({
      code: 'FIXTURE_KIND_UNKNOWN',
      file: display,
      summary: `the directory holds a ${kind} fixture, not a ${options.kind} fixture.`,
      expected: `${FIXTURE_KINDS[options.kind].marker} (a ${options.kind} fixture)`,
      found: `${FIXTURE_KINDS[kind].marker} (a ${kind} fixture)`,
      hint: `load it without { kind: '${options.kind}' }, or point at a ${options.kind} fixture.`,
    })
  }
  switch (kind) {
    case 'criteria':
      return loadCriteriaFixture(absolute, display, read)
    case 'scored':
      return loadScoredFixture(absolute, display, read)
    case undefined: {
      const present = await fixtureFilesIn(absolute)
      throw new FixtureError({
        code: 'FIXTURE_KIND_UNKNOWN',
        file: display,
        summary:
          present.length === 0
            ? 'the directory holds no fixture.'
            : `the directory holds fixture files but no rubric: neither ${Object.values(FIXTURE_KINDS)
                .map(({ marker }) => marker)
                .join(' nor ')} is a file there.`,
        expected: Object.values(FIXTURE_KINDS)
          .map(({ files }) => files.join(', '))
          .join('; or '),
        found: present.length === 0 ? undefined : present.join(', '),
        hint:
          present.length === 0
            ? 'point at a fixture directory, or add the files of a fixture (see the README).'
            : 'restore the rubric file (from version control, if it was deleted or renamed): the rubric is what makes the directory a fixture.',
      })
    }
  }
}

/** The names of fixture files a directory holds, each directory among them marked: what a message shows as found. */
async function fixtureFilesIn(dir: string): Promise<string[]> {
  const names = [...new Set(Object.values(FIXTURE_KINDS).flatMap(({ files }) => files))]
  const found = await Promise.all(
    names.map(async (name) => {
      const stats = await stat(join(dir, name)).catch(() => undefined)
      return stats === undefined ? undefined : stats.isDirectory() ? `${name} (a directory)` : name
    }),
  )
  return found.filter((name) => name !== undefined)
}

/** The evaluation of each kind of fixture. */
interface EvaluationByKind {
  readonly criteria: CriteriaEvaluation
  readonly scored: ScoredEvaluation
}

/** The evaluation type of a fixture type: a criteria fixture gives a criteria evaluation. */
export type EvaluationOf<F extends Fixture> = EvaluationByKind[F['kind']]

/** Decides every case of a loaded fixture. */
export function evaluateFixture<F extends Fixture>(fixture: F): EvaluationOf<F>
export function evaluateFixture(fixture: Fixture): FixtureEvaluation {
  switch (fixture.kind) {
    case 'criteria':
      return evaluateCriteriaFixture(fixture)
    case 'scored':
      return evaluateScoredFixture(fixture)
  }
}

/** The JSON record of an evaluation: coverage, every decision and the identities of the files. */
export function fixtureRecord(evaluation: FixtureEvaluation): FixtureRecord {
  return byKind<FixtureRecord>(evaluation, { criteria: criteriaRecord, scored: scoredRecord })
}

/** The tests an evaluation becomes in Vitest. */
export function planFixtureTests(evaluation: FixtureEvaluation): TestPlan {
  return byKind<TestPlan>(evaluation, { criteria: planCriteriaTests, scored: planScoredTests })
}

/**
 * Hands an evaluation to the function of its kind. The kind sits on `evaluation.fixture`, where a
 * `switch` cannot narrow the evaluation itself; a record of handlers keeps the check that every
 * kind is handled.
 */
function byKind<R>(evaluation: FixtureEvaluation, handlers: { readonly [K in FixtureKind]: (evaluation: EvaluationByKind[K]) => R }): R {
  const handler = handlers[evaluation.fixture.kind] as (evaluation: FixtureEvaluation) => R
  return handler(evaluation)
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false
}
