import { readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import type { CriteriaFixture } from '../../src/core/kinds/criteria/access.js'
import type { FixtureFileReader } from '../../src/core/json/read.js'
import { loadFixtureAs } from '../../src/core/engine/fixture.js'
import type { LoadedFixture } from '../../src/core/registry.js'
import type { AnnotationsJson, CasesJson } from './fixture-copy.js'
import { KINDS } from '../../src/core/registry.js'

/** A fixture's files by name, as bytes. */
export type FixtureFiles = Readonly<Record<string, Uint8Array>>

/** Reads the named files of a fixture directory into memory. */
export async function readFixtureFiles(dir: string, names: readonly string[]): Promise<Record<string, Uint8Array>> {
  const entries = await Promise.all(names.map(async (name) => [name, new Uint8Array(await readFile(join(dir, name)))] as const))
  return Object.fromEntries(entries)
}

/** A loader's file reader that serves the given bytes, so that an edited fixture never touches the disk. */
export function memoryReader(files: FixtureFiles): FixtureFileReader {
  return async (path, display) => {
    const bytes = files[basename(path)]
    if (bytes === undefined) throw new Error(`no file ${basename(path)} in memory`)
    return { display, bytes }
  }
}

/** Loads a criteria fixture from files held in memory. */
export async function loadCriteriaFromMemory(files: FixtureFiles): Promise<CriteriaFixture> {
  return (await loadFixtureAs(KINDS.criteria, '/in-memory/fixture', 'fixture', memoryReader(files))) as CriteriaFixture
}

/** Loads a scored fixture from files held in memory. */
export async function loadScoredFromMemory(files: FixtureFiles): Promise<LoadedFixture<'scored'>> {
  return (await loadFixtureAs(KINDS.scored, '/in-memory/fixture', 'fixture', memoryReader(files))) as LoadedFixture<'scored'>
}

/** A JSON document as a fixture file: indented like the bundled ones, UTF-8. */
export function jsonFile(document: unknown): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(document, null, 2)}\n`)
}

/** Edits to the JSON files of a criteria fixture held in memory. */
export interface CriteriaEdits {
  readonly cases?: (cases: CasesJson) => void
  readonly annotations?: (annotations: AnnotationsJson) => void
  /** Re-encodes rubric.json, so the rubric is a new revision. */
  readonly rubric?: (rubric: { ratings: string[]; criteria: { id: string }[] }) => void
  /** A case whose review edit is acknowledged: its review_sha256 is set to its review's fingerprint now. */
  readonly acknowledge?: string
}

/** The files of a criteria fixture with its JSON files edited; unedited files keep their bytes. */
export function editCriteriaFiles(files: FixtureFiles, edits: CriteriaEdits): Record<string, Uint8Array> {
  const read = <T>(name: string): T => JSON.parse(new TextDecoder().decode(files[name])) as T
  const cases = read<CasesJson>('cases.json')
  const annotations = read<AnnotationsJson>('annotations.json')
  edits.cases?.(cases)
  edits.annotations?.(annotations)
  if (edits.acknowledge !== undefined) {
    const id = edits.acknowledge
    const entry = cases.cases.find((item) => item.id === id)
    if (entry === undefined) throw new Error(`no case ${id}`)
    entry.expected.review_sha256 = fingerprint(annotations.reviews.find((item) => item.answer_id === id) ?? null)
  }
  const edited: Record<string, Uint8Array> = { ...files, 'cases.json': jsonFile(cases), 'annotations.json': jsonFile(annotations) }
  if (edits.rubric !== undefined) {
    const rubric = read<{ ratings: string[]; criteria: { id: string }[] }>('rubric.json')
    edits.rubric(rubric)
    edited['rubric.json'] = jsonFile(rubric)
  }
  return edited
}
