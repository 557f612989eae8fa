import { realpath } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
import { glob } from 'tinyglobby'
import type { KindRegistry } from './registry.js'
import { isWithin } from '../json/read.js'

/** A fixture directory found on disk. */
export interface DiscoveredFixture {
  readonly kind: string
  /** Absolute path of the directory. */
  readonly dir: string
  /** Absolute path of the marker file, which is the directory's test module. */
  readonly moduleId: string
}

/** The files beside a marker in every kind: a directory holding them without a marker lost its rubric. */
function companionFiles(kinds: KindRegistry): string[] {
  return [...new Set(kinds.kinds.flatMap((kind) => [kind.files.cases, kind.files.annotations]))]
}

/** The marker files, one per kind: `rubric.json`, `evaluation_rubric.json`. */
export function markerFiles(kinds: KindRegistry): readonly string[] {
  return kinds.kinds.map((kind) => kind.files.rubric)
}

/** The marker files a fixture directory glob stands for: `fixtures/**` → `fixtures/**\/rubric.json`, … */
export function markerGlobs(kinds: KindRegistry, dirGlobs: readonly string[]): string[] {
  return dirGlobs.flatMap((dir) => markerFiles(kinds).map((marker) => `${dir}/${marker}`))
}

/** Globs that leave out everything below the excluded directories. */
export function excludeGlobs(dirGlobs: readonly string[]): string[] {
  return dirGlobs.flatMap((dir) => [dir, `${dir}/**`])
}

/** The fixture kind a module id stands for, if its file name is a marker. */
export function kindOfModule(kinds: KindRegistry, moduleId: string): string | undefined {
  return kinds.byMarker(basename(moduleId))?.name
}

/** Finds the fixture directories below `root` that the globs match, sorted by path. */
export async function discoverFixtures(
  kinds: KindRegistry,
  root: string,
  include: readonly string[],
  exclude: readonly string[],
): Promise<DiscoveredFixture[]> {
  return [...(await scanFixtures(kinds, root, include, exclude)).fixtures]
}

/** What a scan of the fixture globs found on disk. */
export interface FixtureScan {
  /** The fixture directories, each once, sorted by path. */
  readonly fixtures: readonly DiscoveredFixture[]
  /**
   * Marker files reached again through a symbolic link (a link to a fixture directory, or a link
   * loop such as `fixtures/a/up -> ..`): the same fixture under another path, left out.
   */
  readonly aliases: readonly string[]
  /** Directories that hold `cases.json` and `annotations.json` but no marker file: a fixture that lost its rubric. */
  readonly incomplete: readonly string[]
  /**
   * Fixtures (among `fixtures`) whose marker file's real path lies outside `root`, through a
   * symbolic link, with where it leads: refused, and never a test module, which Vite would read
   * where the link leads.
   */
  readonly outside: readonly (DiscoveredFixture & { readonly realPath: string })[]
}

/** Finds the fixture directories, the same directories reached through links, and directories that lost their rubric. */
export async function scanFixtures(kinds: KindRegistry, root: string, include: readonly string[], exclude: readonly string[]): Promise<FixtureScan> {
  const companions = companionFiles(kinds)
  const files = await glob(
    include.flatMap((dir) => [...markerGlobs(kinds, [dir]), ...companions.map((name) => `${dir}/${name}`)]),
    { cwd: root, absolute: true, ignore: ignored(exclude) },
  )
  files.sort()
  const found = files.flatMap((moduleId) => {
    const kind = kindOfModule(kinds, moduleId)
    return kind === undefined ? [] : [{ kind, dir: dirname(moduleId), moduleId }]
  })
  const fixtures: DiscoveredFixture[] = []
  const aliases: string[] = []
  const realPaths = await Promise.all(found.map((fixture) => realpath(fixture.moduleId).catch(() => fixture.moduleId)))
  const byRealPath = new Map<string, DiscoveredFixture[]>()
  found.forEach((fixture, index) => {
    const real = realPaths[index]!
    byRealPath.set(real, [...(byRealPath.get(real) ?? []), fixture])
  })
  for (const [real, same] of byRealPath) {
    // The path without links when the globs reach it, else the first in order.
    const kept = same.find((fixture) => fixture.moduleId === real) ?? same[0]!
    fixtures.push(kept)
    aliases.push(...same.filter((fixture) => fixture !== kept).map((fixture) => fixture.moduleId))
  }
  fixtures.sort((a, b) => (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0))
  const withMarker = new Set(found.map((fixture) => fixture.dir))
  const named = (name: string) => new Set(files.filter((file) => basename(file) === name).map((file) => dirname(file)))
  const incomplete = kinds.kinds.flatMap((kind) => {
    const { cases, annotations } = kind.files
    const annotated = named(annotations)
    return [...named(cases)].filter((dir) => annotated.has(dir) && !withMarker.has(dir))
  })
  incomplete.splice(0, incomplete.length, ...new Set(incomplete))
  const realRoot = await realpath(root).catch(() => root)
  const outside = found.flatMap((fixture, index) =>
    fixtures.includes(fixture) && !isWithin(realRoot, realPaths[index]!) ? [{ ...fixture, realPath: realPaths[index]! }] : [],
  )
  return { fixtures, aliases, incomplete, outside }
}

/** The include globs that match no fixture directory on their own (given what a scan of all of them found). */
export async function unmatchedIncludes(
  kinds: KindRegistry,
  root: string,
  include: readonly string[],
  exclude: readonly string[],
  scan: FixtureScan,
): Promise<string[]> {
  if (include.length === 1) return scan.fixtures.length === 0 ? [...include] : []
  const counts = await Promise.all(include.map(async (dir) => (await glob(markerGlobs(kinds, [dir]), { cwd: root, ignore: ignored(exclude) })).length))
  return include.filter((_, index) => counts[index] === 0)
}

function ignored(exclude: readonly string[]): string[] {
  return [...excludeGlobs(exclude), '**/node_modules/**', '**/.git/**']
}

/** A path as a glob that matches exactly that path. */
export function literalGlob(path: string): string {
  return path.replace(/[*?[\]{}()!+@]/g, (char) => `\\${char}`)
}
