import { displayPath } from '../../core/common/display-path.js'
import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { UsageError } from '../../core/common/errors.js'
import { formatJsonSchema } from '../../core/engine/json-schemas.js'
import { FIXTURE_SCHEMA_NAMES, fixtureJsonSchemas } from '../../core/registry.js'
import { makeFolder, readOutputFile, writeOutputFile, type OutputFile } from '../../core/json/output-file.js'
import { projectBoundary } from '../../core/json/read.js'
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
  const place = { boundary: projectBoundary(options.cwd, dir), cwd: options.cwd }
  if ((await stat(dir).catch(() => undefined))?.isDirectory() === false) {
    throw new UsageError({
      code: 'USAGE',
      file: options.out,
      summary: 'the output path is a file, not a directory.',
      hint: 'give --out a directory (it is created if missing).',
    })
  }
  await makeFolder(dir, place)
  const lines: string[] = []
  const writes: OutputFile[] = []
  for (const name of FIXTURE_SCHEMA_NAMES) {
    const path = join(dir, name)
    const display = displayPath(options.cwd, path)
    const bytes = Buffer.from(formatJsonSchema(schemas[name]!))
    const before = await readOutputFile(path, place)
    if (before?.equals(bytes)) {
      lines.push(`${display}: up to date`)
      continue
    }
    writes.push({ path, display, contents: bytes })
    lines.push(`${display}: ${before === undefined ? 'written' : 'rewritten'}`)
  }
  // Readers of a file (an editor, a concurrent run) see the old bytes or the new, never half.
  for (const write of writes) await writeOutputFile(write, place)
  return lines.join('\n')
}
