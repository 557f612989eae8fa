/** ANSI styles, or plain text when the output is not a terminal. */
export interface Colors {
  readonly bold: (text: string) => string
  readonly dim: (text: string) => string
  readonly green: (text: string) => string
  readonly red: (text: string) => string
  readonly yellow: (text: string) => string
}

const style = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`
const plain = (text: string) => text

export const PLAIN: Colors = { bold: plain, dim: plain, green: plain, red: plain, yellow: plain }
export const ANSI: Colors = { bold: style(1, 22), dim: style(2, 22), green: style(32, 39), red: style(31, 39), yellow: style(33, 39) }

/** Colours only on a TTY, unless NO_COLOR or FORCE_COLOR says otherwise. */
export function colorsFor(stream: { isTTY?: boolean } | undefined, env: NodeJS.ProcessEnv = process.env): Colors {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return PLAIN
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') return ANSI
  return stream?.isTTY === true ? ANSI : PLAIN
}
