// The server's builders and the page's client compile against one wire protocol (src/web/protocol.ts):
// a field renamed there fails the type-check of both sides, as `npm run typecheck` runs it.
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PROTOCOL = join(ROOT, 'src/web/protocol.ts')

/** The type errors of `files` under the project's tsconfig `config`, with protocol.ts read as `protocol` says. */
function typeErrors(config: string, files: readonly string[], protocol: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, config), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
  if (parsed === undefined) throw new Error(`${config} could not be read`)
  const host = ts.createCompilerHost(parsed.options)
  const readFile = host.readFile.bind(host)
  host.readFile = (file) => (file === PROTOCOL ? protocol : readFile(file))
  const checked = files.map((file) => join(ROOT, file))
  const program = ts.createProgram({ rootNames: checked, options: { ...parsed.options, noEmit: true }, host })
  return checked.flatMap((file) =>
    program.getSemanticDiagnostics(program.getSourceFile(file)).map((diagnostic) => {
      const where = diagnostic.file === undefined ? '' : relative(ROOT, diagnostic.file.fileName)
      return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n')[0]}`
    }),
  )
}

const protocol = readFileSync(PROTOCOL, 'utf8')
const renamed = protocol.replace('  readonly adjudicationOnly: boolean\n', '  readonly adjudicationOnlyRenamed: boolean\n')

describe('the wire protocol', () => {
  test('a field of a case renamed in protocol.ts fails the server that builds it and the client that reads it', () => {
    expect(renamed).not.toBe(protocol)
    const server = ['src/web/page-data.ts']
    const client = ['src/web/client/state.ts', 'src/web/client/criteria-form.ts']
    expect(typeErrors('tsconfig.json', server, protocol)).toEqual([])
    expect(typeErrors('tsconfig.web.json', client, protocol)).toEqual([])
    expect(typeErrors('tsconfig.json', server, renamed)).toEqual([expect.stringMatching(/^src\/web\/page-data\.ts: .*adjudicationOnly/)])
    expect(typeErrors('tsconfig.web.json', client, renamed)).toEqual([
      expect.stringMatching(/^src\/web\/client\/state\.ts: .*adjudicationOnly/),
      expect.stringMatching(/^src\/web\/client\/criteria-form\.ts: .*adjudicationOnly/),
    ])
  }, 120_000)
})
