// Which fixture files a directory holds, and what a directory that holds no fixture is told.
import { stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { displayPath } from '../common/display-path.js'
import { FixtureError } from '../common/errors.js'
import type { SomeKindDefinition } from '../contract/kind.js'
import { RECORDS_DIR } from '../store/records.js'
import type { KindRegistry } from './registry.js'
import { fileKind } from '../json/regular-file.js'

/** The files of a kind, marker first. */
export function fileNamesOf(kind: Pick<SomeKindDefinition, 'files'>): string[] {
  const { rubric, source, cases, annotations } = kind.files
  return [rubric, ...(source === undefined ? [] : [source]), cases, annotations]
}

/** Every kind of the registry whose marker file a directory holds: more than one is a defect, never a guess. */
export async function fixtureKindsIn(kinds: KindRegistry, dir: string): Promise<SomeKindDefinition[]> {
  const found: SomeKindDefinition[] = []
  for (const kind of kinds.kinds) {
    if (await isFile(join(dir, kind.files.rubric))) found.push(kind)
  }
  return found
}

/**
 * The refusal of a directory with no kind's marker file: what it holds of a fixture, what a fixture
 * holds in either layout, and, for the `records/` folder of a fixture, the fixture's directory.
 */
export async function noFixtureError(registry: KindRegistry, absolute: string, display: string, cwd: string): Promise<FixtureError> {
  const present = await fixtureFilesIn(registry, absolute)
  const marker = (kind: SomeKindDefinition) => kind.files.rubric
  const parent = dirname(absolute)
  const recordsOf = basename(absolute) === RECORDS_DIR && (await fixtureKindsIn(registry, parent)).length > 0 ? displayPath(cwd, parent) : undefined
  const { cases, annotations } = registry.kinds[0]!.files
  return new FixtureError({
    code: 'FIXTURE_KIND_UNKNOWN',
    file: display,
    summary:
      recordsOf !== undefined
        ? `the directory is the ${RECORDS_DIR}/ folder of the fixture ${recordsOf}, not a fixture.`
        : present.length === 0
          ? 'the directory holds no fixture.'
          : `the directory holds fixture files but no rubric: neither ${registry.kinds.map(marker).join(' nor ')} is a file there.`,
    expected: `${registry.kinds.map((each) => fileNamesOf(each).join(', ')).join('; or ')}; in the records layout, ${RECORDS_DIR}/ in place of ${cases} and ${annotations}`,
    found: present.length === 0 || recordsOf !== undefined ? undefined : present.join(', '),
    hint:
      recordsOf !== undefined
        ? `pass the fixture's directory, ${recordsOf}: ${RECORDS_DIR}/ holds its records (see docs/format.md).`
        : present.length === 0
          ? 'point at a fixture directory, or add the files of a fixture (see docs/format.md).'
          : 'restore the rubric file (from version control, if it was deleted or renamed): the rubric is what makes the directory a fixture.',
  })
}

/** The names of fixture files a directory holds, each that is no regular file marked (a directory, a named pipe): what a message shows as found. */
async function fixtureFilesIn(registry: KindRegistry, dir: string): Promise<string[]> {
  const names = [...new Set(registry.kinds.flatMap(fileNamesOf)), RECORDS_DIR]
  const found = await Promise.all(
    names.map(async (name) => {
      const stats = await stat(join(dir, name)).catch(() => undefined)
      if (stats === undefined) return undefined
      if (name === RECORDS_DIR) return stats.isDirectory() ? `${RECORDS_DIR}/` : undefined
      return stats.isFile() ? name : `${name} (${fileKind(stats)})`
    }),
  )
  return found.filter((name) => name !== undefined)
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false
}
