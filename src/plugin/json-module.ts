import { parseJsonText, type RawFile } from '../core/json/read.js'

// Words that cannot name an exported binding: such keys stay reachable through the default export.
const RESERVED = new Set(
  (
    'await break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'implements import in instanceof interface let new null package private protected public return static super switch this throw true ' +
    'try typeof var void while with yield arguments eval'
  ).split(' '),
)

/**
 * A fixture's marker file as an ordinary JSON module, for a module that imports it (the test
 * module of the fixture is generated instead): the parsed value as the default export, and each
 * top-level key that is a plain identifier as a named export, as Vite's JSON support gives them.
 * The file is parsed with the fixture format's own reader, so a defect is named as evaluation names it.
 */
export function jsonModule(file: RawFile): string {
  const { value } = parseJsonText(file)
  const lines = [`const json = ${JSON.stringify(value)}`, 'export default json']
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const key of Object.keys(value)) {
      if (/^[A-Za-z_$][\w$]*$/.test(key) && !RESERVED.has(key)) lines.push(`export const ${key} = json[${JSON.stringify(key)}]`)
    }
  }
  return `${lines.join('\n')}\n`
}
