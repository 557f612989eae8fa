import { displayPath } from '../../core/common/display-path.js'
import { mkdir, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { UsageError } from '../../core/common/errors.js'
import { formatJsonSchema } from '../../core/engine/json-schemas.js'
import { FIXTURE_SCHEMA_NAMES, fixtureJsonSchemas } from '../../core/registry.js'
import { writeFilesAtomically, type FileWrite } from '../../core/json/atomic-write.js'
import { sha256Hex } from '../../core/json/canonical-json.js'
import { usage, stringOption, type Command } from '../command.js'

/** `vitest-rubric schema [--out <dir>]`: the JSON Schemas of the fixture files. */
export const schema: Command = {
  name: 'schema',
  summary: 'print the JSON Schemas of the fixture files, or write them with --out',
  help: `Usage: vitest-rubric schema [--out <dir>]

Prints the JSON Schemas that editors validate fixture files against, as one JSON object keyed by
file name (${FIXTURE_SCHEMA_NAMES.join(', ')}).

Options:
  --out <dir>   write the six files into <dir> (created if needed) instead of printing them`,
  options: { out: { type: 'string' } },
  async run({ values, positionals }, io) {
    if (positionals.length > 0) throw usage('schema', 'schema takes no directories (use --out <dir> to write the files).')
    io.stdout(await schemaCommand({ out: stringOption(values, 'out'), cwd: io.cwd }))
    return 0
  },
}

export interface SchemaCommandOptions {
  /** The directory to write the schema files into, relative to `cwd`; `undefined` prints them. */
  readonly out: string | undefined
  readonly cwd: string
}

/**
 * `vitest-rubric schema [--out <dir>]`: without `out`, returns the six JSON Schemas as one JSON
 * object keyed by file name. With `out`, writes each schema file (atomically, and only when its
 * bytes differ) and returns one line per file: its path and `written`, `rewritten` or `up to date`.
 */
export async function schemaCommand(options: SchemaCommandOptions): Promise<string> {
  const schemas = fixtureJsonSchemas()
  if (options.out === undefined) return JSON.stringify(schemas, null, 2)
  const dir = resolve(options.cwd, options.out)
  await makeDirectory(dir, options.out)
  const lines: string[] = []
  const writes: FileWrite[] = []
  for (const name of FIXTURE_SCHEMA_NAMES) {
    const path = join(dir, name)
    const display = displayPath(options.cwd, path)
    const bytes = Buffer.from(formatJsonSchema(schemas[name]!))
    const before = await readExisting(path)
    if (before?.equals(bytes)) {
      lines.push(`${display}: up to date`)
      continue
    }
    writes.push({ path, display, contents: bytes, basedOn: before === undefined ? null : sha256Hex(before) })
    lines.push(`${display}: ${before === undefined ? 'written' : 'rewritten'}`)
  }
  // Readers of a file (an editor, a concurrent run) see the old bytes or the new, never half.
  await writeFilesAtomically(writes)
  return lines.join('\n')
}

async function makeDirectory(dir: string, shown: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true })
  } catch (error) {
    if (!isErrorCode(error, 'EEXIST') && !isErrorCode(error, 'ENOTDIR')) throw error
    throw new UsageError({
      code: 'USAGE',
      file: shown,
      summary: 'the output path is a file, not a directory.',
      hint: 'give --out a directory (it is created if missing).',
    })
  }
}

async function readExisting(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path)
  } catch (error) {
    if (isErrorCode(error, 'ENOENT')) return undefined
    throw error
  }
}

function isErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code
}
