import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'
import { ROOT } from '../helpers/fixture-copy.js'

const options: ts.CompilerOptions = {
  noEmit: true,
  strict: true,
  exactOptionalPropertyTypes: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  types: ['node'],
  skipLibCheck: true,
}

// Each program is checked on its own, but the declaration files they share are parsed once.
const host = ts.createCompilerHost(options)
const parsed = new Map<string, ts.SourceFile | undefined>()
const parse = host.getSourceFile.bind(host)
host.getSourceFile = (fileName, languageVersion, ...rest) => {
  if (!parsed.has(fileName)) parsed.set(fileName, parse(fileName, languageVersion, ...rest))
  return parsed.get(fileName)
}

/**
 * Type-checks one program that imports the built package by its name (through `exports`, so
 * `npm run build` must have run, as `npm test` does). Each file holds `@ts-expect-error` lines,
 * so a clean check proves that what must not type-check does not, and the rest does.
 */
function typeCheck(file: string): string {
  const program = ts.createProgram([join(ROOT, 'test/fixtures/typings', file)], options, host)
  const diagnostics = ts.getPreEmitDiagnostics(program)
  return diagnostics.length === 0 ? 'no errors' : ts.formatDiagnostics(diagnostics, { ...host, getCurrentDirectory: () => ROOT })
}

describe('the published typings', { timeout: 60_000 }, () => {
  test('vitest-rubric/setup brings the matcher typings', () => {
    expect(typeCheck('setup-entry.ts')).toBe('no errors')
  })

  test('vitest-rubric/matchers brings them too, and its exports suit expect.extend', () => {
    expect(typeCheck('matchers-entry.ts')).toBe('no errors')
  })

  test('the main entry alone does not', () => {
    expect(typeCheck('main-entry-only.ts')).toBe('no errors')
  })
})
