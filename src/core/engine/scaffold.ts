import { displayPath } from '../common/display-path.js'
import { readdir, stat } from 'node:fs/promises'
import { basename, join, relative, resolve, sep } from 'node:path'
import { RevisionError } from '../common/errors.js'
import type { FileWrite } from '../json/atomic-write.js'
import { writeProjectFiles } from '../json/project-write.js'
import { confineToProject, projectBoundary, readFixtureFile } from '../json/read.js'
import { fixtureKindsIn } from './fixture.js'
import type { SomeKindDefinition } from '../contract/kind.js'
import type { KindRegistry } from './registry.js'

/** Options of {@link initFixture}. */
export interface InitOptions {
  /** A fixture directory or a rubric file (`rubric.json`, `evaluation_rubric.json`) to copy the rubric from. */
  readonly from?: string | undefined
  /** How to name `from` in the result (`template docuctl`), in place of its path. */
  readonly fromLabel?: string | undefined
  /** Paths are resolved and shown relative to this directory. */
  readonly cwd: string
  /** Absolute path of the directory holding the JSON Schemas the new files reference. */
  readonly schemaDir: string
  /** The kinds a copied rubric may be of; a skeleton is of the first. */
  readonly kinds: KindRegistry
}

/** What `initFixture` created. */
export interface InitResult {
  readonly dir: string
  readonly kind: string
  /** The files created, as shown to the user. */
  readonly files: readonly string[]
  /** The rubric file copied, as shown to the user (or the label given for it); absent for a skeleton. */
  readonly copiedFrom?: string
}

/**
 * Scaffolds a fixture directory that evaluates at once: a rubric (a skeleton, or a byte-for-byte
 * copy of an existing one, so reviews bound to that rubric revision stay bound), its source, no
 * cases and no reviews, each file naming its JSON Schema for editors. Refuses a directory that
 * already holds anything: nothing is overwritten.
 */
export async function initFixture(dir: string, options: InitOptions): Promise<InitResult> {
  const target = resolve(options.cwd, dir)
  const display = displayPath(options.cwd, target)
  await checkEmpty(target, display)
  // A rubric the user names is read only inside the project, as every fixture file is; a shipped template is the package's own.
  const copy = options.from === undefined ? undefined : await rubricToCopy(options.kinds, options.from, options.cwd, options.fromLabel === undefined)
  const kind = copy?.kind ?? firstKind(options.kinds)
  const { scaffold } = kind
  const name = basename(target)
  const schema = (file: string) => relative(target, join(options.schemaDir, file)).split(sep).join('/')

  const files: Record<string, string | Uint8Array> = {}
  if (copy === undefined) Object.assign(files, scaffold.skeleton?.(name, schema))
  else for (const [file, bytes] of copy.files) files[file] = bytes
  const { cases, annotations } = kind.files
  files[cases] = json(scaffold.emptyCases(name, schema))
  files[annotations] = json(scaffold.emptyAnnotations(schema))

  const writes: FileWrite[] = Object.entries(files).map(([file, contents]) => ({
    path: join(target, file),
    display: join(display, file),
    contents,
    basedOn: null,
  }))
  // The folder is never made through a symbolic link that leads outside the project.
  await writeProjectFiles(writes, { boundary: projectBoundary(options.cwd, target), lockDir: target, display, folders: [target], cwd: options.cwd })
  return {
    dir: display,
    kind: kind.name,
    files: writes.map((write) => write.display),
    ...(copy === undefined ? {} : { copiedFrom: options.fromLabel ?? copy.display }),
  }
}

async function checkEmpty(target: string, display: string): Promise<void> {
  const info = await stat(target).catch(() => undefined)
  if (info === undefined) return
  const entries = info.isDirectory() ? await readdir(target) : undefined
  if (entries !== undefined && entries.length === 0) return
  throw new RevisionError({
    code: 'INIT_TARGET_NOT_EMPTY',
    file: display,
    summary:
      entries === undefined
        ? 'a file of that name exists; nothing was written.'
        : `the directory is not empty (${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', …' : ''}); nothing was written.`,
    hint: 'name a new or empty directory: init never overwrites files.',
  })
}

/** The rubric (and, for a kind that has one, its source) to copy, checked to load. */
function firstKind(kinds: KindRegistry): SomeKindDefinition {
  const [first] = kinds.kinds
  if (first === undefined) throw new TypeError('a registry without kinds scaffolds nothing')
  return first
}

async function rubricToCopy(
  kinds: KindRegistry,
  from: string,
  cwd: string,
  confined: boolean,
): Promise<{ kind: SomeKindDefinition; display: string; files: Map<string, Uint8Array> }> {
  const path = resolve(cwd, from)
  const display = displayPath(cwd, path)
  const info = await stat(path).catch(() => undefined)
  const kindByMarker = kinds.byMarker(basename(path))
  const dir = info?.isDirectory() === true ? path : info?.isFile() === true && kindByMarker !== undefined ? join(path, '..') : undefined
  const found = info?.isDirectory() === true ? await fixtureKindsIn(kinds, path) : kindByMarker === undefined ? [] : [kindByMarker]
  const kind = found.length === 1 ? found[0] : undefined
  if (dir === undefined || kind === undefined) {
    throw new RevisionError({
      code: 'INIT_SOURCE_INVALID',
      file: display,
      summary:
        info === undefined
          ? 'no such file or directory to copy the rubric from; nothing was written.'
          : 'this is neither a fixture directory nor a rubric file; nothing was written.',
      expected: `a fixture directory, or a file named ${kinds.kinds.map((each) => each.files.rubric).join(' or ')}`,
      hint: 'pass --from the directory of an existing fixture (or its rubric file).',
    })
  }
  const definition = kind
  const names = definition.scaffold.rubricFiles
  // A link leading out of the project (the folder, the rubric or the source) is refused before anything is read, as a load refuses it.
  const boundary = projectBoundary(cwd, dir)
  if (confined) await confineToProject(path, display, boundary)
  const raw = await Promise.all(
    names.map(async (name) => {
      const file = join(dir, name)
      if (confined) await confineToProject(file, displayPath(cwd, file), boundary)
      return readFixtureFile(file, displayPath(cwd, file))
    }),
  )
  const [rubric, source] = raw
  // The copied rubric must hold up on its own: a rubric that does not load is not worth copying.
  definition.bindRubric(source === undefined ? { rubric: rubric! } : { rubric: rubric!, source })
  const files = new Map(raw.map((file, index) => [names[index]!, file.bytes]))
  return { kind, display: displayPath(cwd, join(dir, definition.files.rubric)), files }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}
