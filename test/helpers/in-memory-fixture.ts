import { readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { loadCriteriaFixture, type CriteriaFixture } from '../../src/core/criteria/load.js'
import type { FixtureFileReader } from '../../src/core/read.js'
import { loadScoredFixture, type ScoredFixture } from '../../src/core/scored/load.js'

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
export function loadCriteriaFromMemory(files: FixtureFiles): Promise<CriteriaFixture> {
  return loadCriteriaFixture('/in-memory/fixture', 'fixture', memoryReader(files))
}

/** Loads a scored fixture from files held in memory. */
export function loadScoredFromMemory(files: FixtureFiles): Promise<ScoredFixture> {
  return loadScoredFixture('/in-memory/fixture', 'fixture', memoryReader(files))
}

/** A JSON document as a fixture file: indented like the bundled ones, UTF-8. */
export function jsonFile(document: unknown): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(document, null, 2)}\n`)
}
