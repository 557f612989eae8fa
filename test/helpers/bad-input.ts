import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fingerprint, sha256Hex } from '../../src/core/json/canonical-json.js'
import { FixtureError } from '../../src/core/common/errors.js'
import { evaluateFixture } from '../../src/core/engine/evaluate.js'
import { loadFixture } from '../../src/core/registry.js'
import type { FixtureKind } from '../../src/core/registry.js'
import { copyFixture, DOCUCTL, type FixtureCopy } from './fixture-copy.js'
import { DEBATE } from './scored-copy.js'

/** The bundled fixture of each kind, which every scenario edits a copy of. */
export const BUNDLED: Readonly<Record<FixtureKind, string>> = { criteria: DOCUCTL, scored: DEBATE }

/** The file that holds the rubric in each kind. */
export const RUBRIC_FILE: Readonly<Record<FixtureKind, string>> = { criteria: 'rubric.json', scored: 'evaluation_rubric.json' }

/** An edit of a fixture copy. */
export type Edit = (copy: FixtureCopy) => Promise<void>

// Fixture files are JSON of any shape here: the point is to write what the format forbids.
type Json = any

/** Edits a JSON file of the copy: `edit` changes the document in place or returns a new one. */
export function editJson(file: string, edit: (document: Json) => unknown): Edit {
  return async (copy) => {
    const document = await copy.readJson<Json>(file)
    const replaced = edit(document)
    await copy.writeJson(file, replaced === undefined ? document : replaced)
  }
}

/** Replaces the bytes of a file of the copy. */
export function editBytes(file: string, edit: (bytes: Buffer) => Buffer | string): Edit {
  return async (copy) => writeFile(join(copy.dir, file), edit(await readFile(join(copy.dir, file))))
}

/** Several edits, in order. */
export function edits(...steps: Edit[]): Edit {
  return async (copy) => {
    for (const step of steps) await step(copy)
  }
}

/**
 * Sets an own, enumerable key, as `JSON.parse` does: an assignment or an object literal would set
 * the prototype for `__proto__` instead of writing the key.
 */
export function setKey(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/** A copy of an object with one key renamed, in its place. */
export function renameKey(source: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const renamed = {}
  for (const [key, value] of Object.entries(source)) setKey(renamed, key === from ? to : key, value)
  return renamed
}

/** Records in each case the revision of its reviews as they are now: an acknowledged review edit. */
export function acknowledgeReviews(kind: FixtureKind): Edit {
  return async (copy) => {
    const annotations = await copy.readJson<Json>('annotations.json')
    const cases = await copy.readJson<Json>('cases.json')
    for (const entry of cases.cases) {
      if (kind === 'criteria') {
        entry.expected.review_sha256 = fingerprint(annotations.reviews.find((review: Json) => review.answer_id === entry.id) ?? null)
      } else {
        for (const system of ['debate', 'baseline']) {
          const review = annotations.reviews.find((each: Json) => each.case_id === entry.id && each.system === system) ?? null
          entry.expected[`${system}_review_sha256`] = fingerprint(review)
        }
      }
    }
    await copy.writeJson('cases.json', cases)
  }
}

/** Binds every case and review to the rubric and source files as they are now, then acknowledges the reviews. */
export function rebindFiles(kind: FixtureKind): Edit {
  return async (copy) => {
    const hash = async (file: string) => sha256Hex(await readFile(join(copy.dir, file)))
    const hashes: Record<string, string> =
      kind === 'criteria'
        ? { rubric_sha256: await hash('rubric.json'), source_sha256: await hash('source.txt') }
        : { rubric_sha256: await hash('evaluation_rubric.json') }
    const cases = await copy.readJson<Json>('cases.json')
    const annotations = await copy.readJson<Json>('annotations.json')
    for (const entry of cases.cases) Object.assign(entry.expected, hashes)
    for (const review of annotations.reviews) Object.assign(review, hashes)
    await copy.writeJson('cases.json', cases)
    await copy.writeJson('annotations.json', annotations)
    await acknowledgeReviews(kind)(copy)
  }
}

/** A copy of a bundled fixture with an edit applied. */
export async function editedCopy(kind: FixtureKind, edit: Edit): Promise<FixtureCopy> {
  const copy = await copyFixture(BUNDLED[kind])
  await edit(copy)
  return copy
}

/** Every file directly in a directory, with its bytes: to show that nothing was written. */
export async function filesIn(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { withFileTypes: true })
  const files: Record<string, string> = {}
  for (const entry of entries) {
    if (entry.isFile()) files[entry.name] = sha256Hex(await readFile(join(dir, entry.name)))
  }
  return files
}

/** What a user meets: a refused fixture, or every case's decision with the errors of those refused. */
export type Outcome =
  | { readonly refused: 'fixture'; readonly error: FixtureError }
  | { readonly refused: 'cases'; readonly statuses: Record<string, string>; readonly errors: Record<string, { code: string; message: string }> }

/** Loads and evaluates a fixture directory, paths in messages shown relative to it. */
export async function outcomeOf(dir: string): Promise<Outcome> {
  let fixture: Awaited<ReturnType<typeof loadFixture>>
  try {
    fixture = await loadFixture(dir, { cwd: dir })
  } catch (error) {
    if (error instanceof FixtureError) return { refused: 'fixture', error }
    throw error
  }
  const { decisions } = evaluateFixture(fixture)
  const statuses: Record<string, string> = {}
  const errors: Record<string, { code: string; message: string }> = {}
  // Keys set as JSON.parse sets them: an assignment to "__proto__" would be lost.
  for (const decision of decisions) {
    setKey(statuses, decision.id, decision.status)
    if (decision.status === 'refused') setKey(errors, decision.id, { code: decision.error.code, message: decision.error.message })
  }
  return { refused: 'cases', statuses, errors }
}

/** A message without its fix, which is checked apart: where, what, what was expected and found, and further problems. */
export function headOf(message: string): string {
  return message
    .split('\n')
    .filter((line) => !line.startsWith('  fix:'))
    .join('\n')
}

/**
 * An outcome in one text: `[CODE] message head` for a refused fixture; for refused cases, each with
 * its code and message head, then every other case whose decision differs from `untouched`.
 */
export function describeOutcome(outcome: Outcome, untouched: Readonly<Record<string, string>>): string {
  if (outcome.refused === 'fixture') return `[${outcome.error.code}] ${headOf(outcome.error.message)}`
  const lines = Object.entries(outcome.errors).map(([id, error]) => `${id}: [${error.code}] ${headOf(error.message)}`)
  for (const [id, status] of Object.entries(outcome.statuses)) {
    const before = Object.hasOwn(untouched, id) ? untouched[id] : 'absent'
    if (!Object.hasOwn(outcome.errors, id) && status !== before) lines.push(`${id}: ${before} → ${status}`)
  }
  return lines.length === 0 ? 'decided as before' : lines.join('\n')
}

/** Every message in an outcome. */
export function messagesOf(outcome: Outcome): string[] {
  return outcome.refused === 'fixture' ? [outcome.error.message] : Object.values(outcome.errors).map((error) => error.message)
}
