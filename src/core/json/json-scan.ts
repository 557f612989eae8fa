// The characters and the string skip that the two scanners of JSON text share: json-edit.ts,
// which finds a list's items to edit in place, and json-structure.ts, which checks nesting and keys.

export const OPEN_BRACE = 0x7b
export const CLOSE_BRACE = 0x7d
export const OPEN_BRACKET = 0x5b
export const CLOSE_BRACKET = 0x5d
export const QUOTE = 0x22
export const COLON = 0x3a
export const COMMA = 0x2c
export const BACKSLASH = 0x5c

/** The offset after the string whose opening quote is at `from`; -1 when it does not end. */
export function skipString(text: string, from: number): number {
  let search = from + 1
  for (;;) {
    const quote = text.indexOf('"', search)
    if (quote === -1) return -1
    let backslashes = 0
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return quote + 1
    search = quote + 1
  }
}
