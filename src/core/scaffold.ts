import { mkdir, readdir, stat } from 'node:fs/promises'
import { basename, join, relative, resolve, sep } from 'node:path'
import { writeFilesAtomically, type FileWrite } from './atomic-write.js'
import { RATINGS } from './criteria/schemas.js'
import { RevisionError } from './errors.js'
import { bindRubric, DEFAULT_FILE_NAMES } from './criteria/rubric.js'
import { FIXTURE_KINDS, fixtureKindsIn, type FixtureKind } from './fixture.js'
import { readFixtureFile } from './read.js'
import { bindEvaluationRubric } from './scored/rubric.js'

export interface InitOptions {
  /** A fixture directory or a rubric file (`rubric.json`, `evaluation_rubric.json`) to copy the rubric from. */
  readonly from?: string | undefined
  /** Paths are resolved and shown relative to this directory. */
  readonly cwd: string
  /** Absolute path of the directory holding the JSON Schemas the new files reference. */
  readonly schemaDir: string
}

export interface InitResult {
  readonly dir: string
  readonly kind: FixtureKind
  /** The files created, as shown to the user. */
  readonly files: readonly string[]
  /** The rubric file copied, as shown to the user; absent for a skeleton. */
  readonly copiedFrom?: string
}

/** The placeholder the skeleton's criterion quotes: the source file starts with it. */
const SKELETON_SOURCE = 'Replace this file with the source text the criteria quote.\n'

/**
 * Scaffolds a fixture directory that evaluates at once: a rubric (a skeleton, or a byte-for-byte
 * copy of an existing one, so reviews bound to that rubric revision stay bound), its source, no
 * cases and no reviews, each file naming its JSON Schema for editors. Refuses a directory that
 * already holds anything: nothing is overwritten.
 */
export async function initFixture(dir: string, options: InitOptions): Promise<InitResult> {
  const target = resolve(options.cwd, dir)
  const display = relative(options.cwd, target) || '.'
  await checkEmpty(target, display)
  const copy = options.from === undefined ? undefined : await rubricToCopy(options.from, options.cwd)
  const kind = copy?.kind ?? 'criteria'
  const name = basename(target)
  const schema = (file: string) => relative(target, join(options.schemaDir, file)).split(sep).join('/')

  const files: Record<string, string | Uint8Array> = {}
  if (copy === undefined) {
    files['rubric.json'] = json({
      $schema: schema('rubric.schema.json'),
      id: name,
      version: 1,
      task: 'The question every case of this fixture asks: replace it with yours.',
      acceptance: 'Acceptable when every criterion is judged meets; a missing or uncertain judgement keeps the case pending.',
      ratings: [...RATINGS],
      criteria: [
        {
          id: 'example',
          rule: 'Replace with a requirement an acceptable answer meets.',
          reference_quote: SKELETON_SOURCE.trim(),
        },
      ],
    })
    files['source.txt'] = SKELETON_SOURCE
  } else {
    for (const [file, bytes] of copy.files) files[file] = bytes
  }
  files['cases.json'] =
    kind === 'criteria'
      ? json({ $schema: schema('cases.schema.json'), name, task: name, cases: [] })
      : json({ $schema: schema('scored-cases.schema.json'), name, cases: [] })
  files['annotations.json'] = json({
    $schema: schema(kind === 'criteria' ? 'annotations.schema.json' : 'scored-annotations.schema.json'),
    origin: 'Say who or what made these judgements (a reviewer, a rating study, an authored example).',
    reviews: [],
  })

  await mkdir(target, { recursive: true })
  const writes: FileWrite[] = Object.entries(files).map(([file, contents]) => ({
    path: join(target, file),
    display: join(display, file),
    contents,
    basedOn: null,
  }))
  await writeFilesAtomically(writes)
  return {
    dir: display,
    kind,
    files: writes.map((write) => write.display),
    ...(copy === undefined ? {} : { copiedFrom: copy.display }),
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
    summary: entries === undefined ? 'a file of that name exists; nothing was written.' : `the directory is not empty (${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', …' : ''}); nothing was written.`,
    hint: 'name a new or empty directory: init never overwrites files.',
  })
}

/** The rubric (and, for the criteria kind, its source) to copy, checked to load. */
async function rubricToCopy(from: string, cwd: string): Promise<{ kind: FixtureKind; display: string; files: Map<string, Uint8Array> }> {
  const path = resolve(cwd, from)
  const display = relative(cwd, path) || '.'
  const info = await stat(path).catch(() => undefined)
  const kindByMarker = (Object.entries(FIXTURE_KINDS) as [FixtureKind, { marker: string }][]).find(([, { marker }]) => marker === basename(path))?.[0]
  const dir = info?.isDirectory() === true ? path : info?.isFile() === true && kindByMarker !== undefined ? join(path, '..') : undefined
  const kinds = info?.isDirectory() === true ? await fixtureKindsIn(path) : kindByMarker === undefined ? [] : [kindByMarker]
  const kind = kinds.length === 1 ? kinds[0] : undefined
  if (dir === undefined || kind === undefined) {
    throw new RevisionError({
      code: 'INIT_SOURCE_INVALID',
      file: display,
      summary: info === undefined ? 'no such file or directory to copy the rubric from; nothing was written.' : 'this is neither a fixture directory nor a rubric file; nothing was written.',
      expected: `a fixture directory, or a file named ${Object.values(FIXTURE_KINDS)
        .map(({ marker }) => marker)
        .join(' or ')}`,
      hint: 'pass --from the directory of an existing fixture (or its rubric file).',
    })
  }
  const names = kind === 'criteria' ? ['rubric.json', 'source.txt'] : ['evaluation_rubric.json']
  const raw = await Promise.all(names.map((name) => readFixtureFile(join(dir, name), relative(cwd, join(dir, name)))))
  // The copied rubric must hold up on its own: a rubric that does not load is not worth copying.
  if (kind === 'criteria') bindRubric(raw[0]!, raw[1]!, { ...DEFAULT_FILE_NAMES, rubric: raw[0]!.display, source: raw[1]!.display })
  else bindEvaluationRubric(raw[0]!)
  const files = new Map(raw.map((file, index) => [names[index]!, file.bytes]))
  return { kind, display: relative(cwd, join(dir, FIXTURE_KINDS[kind].marker)), files }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}
