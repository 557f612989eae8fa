import { isObject } from '../common/primitives.js'
import type { DocumentStyle } from './records.js'

/** The list member of a seed document: `cases` in `cases.json`, `adoptions` in `adjudications.json`, `reviews` elsewhere. */
export function listOf(doc: string): string {
  return doc === 'cases.json' ? 'cases' : doc === 'adjudications.json' ? 'adoptions' : 'reviews'
}

/** A seed document's text split into its list's entries and its other members (the list kept at its place, empty). */
export function parseDocument(doc: string, text: string): { list: string; members: Record<string, unknown>; items: readonly unknown[] } {
  const value: unknown = JSON.parse(text)
  const list = listOf(doc)
  const items: unknown = isObject(value) ? value[list] : undefined
  if (!isObject(value) || !Array.isArray(items)) throw new TypeError(`${doc}: a document without its ${list} list cannot be recorded`)
  return { list, members: { ...value, [list]: [] }, items }
}

/** How a document's text is laid out: its indentation, whether it escapes non-ASCII characters, whether it ends with a line break. */
export function detectStyle(text: string): DocumentStyle {
  const indent = /^\{\r?\n( +)\S/.exec(text)?.[1]?.length ?? 0
  const ascii = !/[^ -~\t\n\r]/.test(text) && /\\u(?:00[89a-f]|0[1-9a-f]|[1-9a-f])[0-9a-f]{2}/i.test(text)
  return { indent, ascii, newline: text.endsWith('\n') }
}

/** A document written in a style: what `detectStyle` read it as. */
export function styled(value: unknown, style: DocumentStyle): string {
  let text = JSON.stringify(value, null, style.indent)
  if (style.ascii) text = text.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return style.newline ? `${text}\n` : text
}

/**
 * The text {@link styled} makes of a document, in pieces (each member, and each entry of its list),
 * whose concatenation is that text: a document longer than a JavaScript string can be is hashed
 * piece by piece. JSON.stringify indents a value by its depth, so a piece made alone is indented
 * after each line break by the depth it stands at (a line break in a JSON text is never in a string).
 */
export function* styledPieces(value: Readonly<Record<string, unknown>>, list: string, style: DocumentStyle): Generator<string> {
  const toAscii = (text: string) => (style.ascii ? text.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`) : text)
  const indent = style.indent
  const at = (depth: number) => (indent === 0 ? '' : `\n${' '.repeat(indent * depth)}`)
  const nested = (member: unknown, depth: number) => {
    const text = JSON.stringify(member, null, indent)
    return indent === 0 ? text : text.replaceAll('\n', at(depth))
  }
  const entries = Object.entries(value).filter(([, member]) => member !== undefined)
  if (entries.length === 0) {
    yield style.newline ? '{}\n' : '{}'
    return
  }
  const colon = indent === 0 ? ':' : ': '
  yield '{'
  for (const [index, [key, member]] of entries.entries()) {
    const head = `${index === 0 ? '' : ','}${at(1)}${toAscii(JSON.stringify(key))}${colon}`
    const items: readonly unknown[] | undefined = key === list && Array.isArray(member) ? member : undefined
    if (items === undefined || items.length === 0) {
      yield head + toAscii(nested(member, 1))
      continue
    }
    yield `${head}[`
    for (const [position, item] of items.entries()) yield `${position === 0 ? '' : ','}${at(2)}${toAscii(nested(item, 2))}`
    yield `${at(1)}]`
  }
  yield `${at(0)}}${style.newline ? '\n' : ''}`
}
