import { basename, dirname } from 'node:path'
import { glob } from 'tinyglobby'
import { FIXTURE_KINDS, type FixtureKind } from '../core/fixture.js'

/** A fixture directory found on disk. */
export interface DiscoveredFixture {
  readonly kind: FixtureKind
  /** Absolute path of the directory. */
  readonly dir: string
  /** Absolute path of the marker file, which is the directory's test module. */
  readonly moduleId: string
}

const markers = new Map<string, FixtureKind>(
  (Object.entries(FIXTURE_KINDS) as [FixtureKind, { marker: string }][]).map(([kind, { marker }]) => [marker, kind]),
)

/** The marker files a fixture directory glob stands for: `fixtures/**` → `fixtures/**\/rubric.json`, … */
export function markerGlobs(dirGlobs: readonly string[]): string[] {
  return dirGlobs.flatMap((dir) => [...markers.keys()].map((marker) => `${dir}/${marker}`))
}

/** Globs that leave out everything below the excluded directories. */
export function excludeGlobs(dirGlobs: readonly string[]): string[] {
  return dirGlobs.flatMap((dir) => [dir, `${dir}/**`])
}

/** The fixture kind a module id stands for, if its file name is a marker. */
export function kindOfModule(moduleId: string): FixtureKind | undefined {
  return markers.get(basename(moduleId))
}

/** Finds the fixture directories below `root` that the globs match, sorted by path. */
export async function discoverFixtures(
  root: string,
  include: readonly string[],
  exclude: readonly string[],
): Promise<DiscoveredFixture[]> {
  const files = await glob(markerGlobs(include), {
    cwd: root,
    absolute: true,
    ignore: [...excludeGlobs(exclude), '**/node_modules/**', '**/.git/**'],
  })
  return files
    .sort()
    .flatMap((moduleId) => {
      const kind = kindOfModule(moduleId)
      return kind === undefined ? [] : [{ kind, dir: dirname(moduleId), moduleId }]
    })
}
