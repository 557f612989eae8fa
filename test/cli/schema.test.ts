import { readFileSync } from 'node:fs'
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { schema, schemaCommand } from '../../src/cli/commands/schema.js'
import { formatJsonSchema } from '../../src/core/engine/json-schemas.js'
import { FIXTURE_SCHEMA_NAMES, fixtureJsonSchemas } from '../../src/core/registry.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { schemaNamed, validatorFor } from '../helpers/json-schema.js'
import { scratchDir } from '../helpers/scratch.js'

describe('vitest-rubric schema --out <dir>', () => {
  test('creates the directory and writes the six schemas, then finds them up to date', async () => {
    const cwd = await scratchDir('schema')
    const first = await schemaCommand({ out: 'editor/schemas', cwd })
    expect(first).toMatchInlineSnapshot(`
      "editor/schemas/rubric.schema.json: written
      editor/schemas/cases.schema.json: written
      editor/schemas/annotations.schema.json: written
      editor/schemas/evaluation_rubric.schema.json: written
      editor/schemas/scored-cases.schema.json: written
      editor/schemas/scored-annotations.schema.json: written"
    `)
    const dir = join(cwd, 'editor/schemas')
    // Only the six files: no temporary file is left behind.
    expect((await readdir(dir)).sort()).toEqual([...FIXTURE_SCHEMA_NAMES].sort())
    const schemas = fixtureJsonSchemas()
    for (const name of FIXTURE_SCHEMA_NAMES) {
      expect(await readFile(join(dir, name), 'utf8')).toBe(formatJsonSchema(schemaNamed(schemas, name)))
    }
    const modified = await Promise.all(FIXTURE_SCHEMA_NAMES.map(async (name) => (await stat(join(dir, name))).mtimeMs))

    const second = await schemaCommand({ out: 'editor/schemas', cwd })
    expect(second.split('\n')).toEqual(FIXTURE_SCHEMA_NAMES.map((name) => `editor/schemas/${name}: up to date`))
    // Identical bytes are not rewritten.
    expect(await Promise.all(FIXTURE_SCHEMA_NAMES.map(async (name) => (await stat(join(dir, name))).mtimeMs))).toEqual(modified)
  })

  test('rewrites only a file whose bytes differ', async () => {
    const cwd = await scratchDir('schema')
    await schemaCommand({ out: '.', cwd })
    await writeFile(join(cwd, 'cases.schema.json'), '{}\n')
    const report = await schemaCommand({ out: cwd, cwd })
    expect(report.split('\n')).toEqual(FIXTURE_SCHEMA_NAMES.map((name) => `${name}: ${name === 'cases.schema.json' ? 'rewritten' : 'up to date'}`))
    expect(await readFile(join(cwd, 'cases.schema.json'), 'utf8')).toBe(formatJsonSchema(schemaNamed(fixtureJsonSchemas(), 'cases.schema.json')))
    expect((await readdir(cwd)).sort()).toEqual([...FIXTURE_SCHEMA_NAMES].sort())
  })

  test('an output path that is a file is a usage error', async () => {
    const cwd = await scratchDir('schema')
    await writeFile(join(cwd, 'schemas'), 'not a directory')
    await expect(schemaCommand({ out: 'schemas', cwd })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [UsageError: schemas: the output path is a file, not a directory.
        fix:      give --out a directory (it is created if missing).]
    `)
  })
})

describe('vitest-rubric schema', () => {
  test('prints one JSON object of the six schemas, keyed by file name, indented by two spaces', async () => {
    const output = await schemaCommand({ out: undefined, cwd: ROOT })
    const printed = JSON.parse(output) as Record<string, Record<string, unknown>>
    expect(Object.keys(printed)).toEqual([...FIXTURE_SCHEMA_NAMES])
    expect(output).toBe(JSON.stringify(printed, null, 2))
    for (const name of FIXTURE_SCHEMA_NAMES) {
      expect(printed[name]?.['$schema']).toBe('https://json-schema.org/draft/2020-12/schema')
      expect(() => validatorFor(printed[name]!)).not.toThrow()
    }
  })

  test('has a usage text naming the command and its option', () => {
    expect(schema.help).toMatch(/^Usage: vitest-rubric schema \[--out <dir>\]$/m)
    expect(schema.help).toMatch(/^ {2}--out <dir> {3}\S/m)
  })
})

test('the package exports the committed schemas as vitest-rubric/schemas/*, copied by the build', () => {
  const require = createRequire(join(ROOT, 'package.json'))
  for (const name of FIXTURE_SCHEMA_NAMES) {
    const path = require.resolve(`vitest-rubric/schemas/${name}`)
    expect(path).toBe(join(ROOT, 'dist/schemas', name))
    expect(readFileSync(path, 'utf8')).toBe(readFileSync(join(ROOT, 'src/schemas', name), 'utf8'))
  }
})
