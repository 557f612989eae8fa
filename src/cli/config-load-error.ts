import { resolve } from 'node:path'
import { displayPath } from '../core/common/display-path.js'

/** Escape sequences of a terminal's colours, which the config loader writes into its messages. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is matched.
const COLOURS = /\u001b\[[0-9;]*m/g

/** `╭─[ broken.config.ts:3:22 ]`: where the bundler's code frame says the error is. */
const FRAME_HEAD = /╭─\[\s*(.+):(\d+):(\d+)\s*\]/

/**
 * What the bundler puts before line 1 of the config, on that line (its directory, file name and
 * URL), so that the other lines keep their numbers: a column of line 1 counts it, the file does not.
 */
const INJECTED = /^(?:const __vite_injected_original_\w+ = "(?:[^"\\]|\\.)*";)+/

/**
 * Why the Vitest config did not load, in one line: the bundler's error (`[PARSE_ERROR] Unexpected
 * token at broken.config.ts:3:22`) rather than the first line of its message ("Build failed with 1
 * error:"), which says neither what nor where. Any other error is its message's first line.
 */
export function configLoadReason(error: unknown, cwd: string): string {
  const text = error instanceof Error ? error.message.replace(COLOURS, '') : String(error)
  if (!/^Build failed with \d+ errors?:/.test(text)) return text.split('\n')[0] ?? ''
  // Each error of the build is a headline (`[CODE] what`), then its code frame.
  const blocks = text.split('\n').reduce<string[][]>((found, line) => {
    if (/^\[[A-Z_]+\] /.test(line)) found.push([line])
    else found[found.length - 1]?.push(line)
    return found
  }, [])
  if (blocks.length === 0) return text.split('\n')[0] ?? ''
  return blocks
    .map(([headline, ...frame]) => {
      const at = where(frame)
      if (at === undefined) return headline
      // The bundler names the file from the process's folder; the command names it from its own, as every path it prints.
      const shown = displayPath(cwd, resolve(process.cwd(), at.file))
      return `${headline!.replaceAll(at.file, shown)} at ${shown}:${at.line}:${at.column}`
    })
    .join('; ')
}

/** Where a code frame says the error is, the column counted in the file as written; `undefined` without a frame. */
function where(frame: readonly string[]): { readonly file: string; readonly line: string; readonly column: number } | undefined {
  const head = frame.map((line) => FRAME_HEAD.exec(line)).find((match) => match !== null)
  if (head === undefined || head === null) return undefined
  const [, file, line, column] = head
  let at = Number(column)
  if (line === '1') {
    const shown = frame.map((each) => /^\s*1 │ (.*)$/.exec(each)?.[1]).find((each) => each !== undefined)
    at -= INJECTED.exec(shown ?? '')?.[0].length ?? 0
  }
  return { file: file!, line: line!, column: at }
}
