/**
 * Finds where a JSON text stops being JSON, for error messages: the engine's own messages do not
 * always give a position. Only called after `JSON.parse` has failed; returns the offset of the
 * first character that cannot continue the document, and what was expected there.
 */
export function locateJsonSyntaxError(text: string): { offset: number; expected: string } {
  let at = 0
  const fail = (expected: string): never => {
    throw new SyntaxLocation(at, expected)
  }
  const skipSpace = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++
  }
  const literal = (word: string) => {
    for (const char of word) {
      if (text[at] !== char) fail(`"${word}"`)
      at++
    }
  }
  const string = () => {
    at++ // opening quote
    for (;;) {
      const char = text[at]
      if (char === undefined) fail('a closing quote')
      if (char === '"') {
        at++
        return
      }
      if (char!.charCodeAt(0) < 0x20) fail('an escaped control character (\\n, \\t, \\u00XX)')
      if (char === '\\') {
        at++
        const escaped = text[at]
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail('four hexadecimal digits after \\u')
          at += 5
          continue
        }
        if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) fail('a valid escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)')
      }
      at++
    }
  }
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at))
    // Called on '-' or a digit: the pattern matches at least one digit, or nothing.
    if (match === null) fail('a value')
    at += match![0].length
  }
  /** Reads one scalar, or opens a container: returns whether a value is complete. */
  const open = (containers: ('{' | '[')[]): boolean => {
    skipSpace()
    const char = text[at]
    if (char === '{' || char === '[') {
      at++
      skipSpace()
      if (text[at] === (char === '{' ? '}' : ']')) {
        at++
        return true
      }
      containers.push(char)
      if (char === '{') key()
      return false
    }
    if (char === '"') string()
    else if (char === 't') literal('true')
    else if (char === 'f') literal('false')
    else if (char === 'n') literal('null')
    else if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) number()
    else fail('a value')
    return true
  }
  /** A property name and its colon: what an object holds before each value. */
  const key = () => {
    skipSpace()
    if (text[at] !== '"') fail('a property name in double quotes')
    string()
    skipSpace()
    if (text[at] !== ':') fail('":" after the property name')
    at++
  }
  // A loop over a stack of open containers rather than recursion: a file nested deeper than the
  // call stack allows is located like any other.
  const value = (): void => {
    const containers: ('{' | '[')[] = []
    for (;;) {
      if (!open(containers)) continue
      // A value is complete: close the containers it completes, until one continues.
      for (;;) {
        const container = containers.at(-1)
        if (container === undefined) return
        skipSpace()
        const close = container === '{' ? '}' : ']'
        if (text[at] === close) {
          at++
          containers.pop()
          continue
        }
        if (text[at] !== ',') fail(container === '{' ? '"," or "}" after the property value' : '"," or "]" after the array element')
        at++
        if (container === '{') key()
        break
      }
    }
  }
  try {
    value()
    skipSpace()
    if (at < text.length) fail('the end of the file after the JSON value')
  } catch (error) {
    if (error instanceof SyntaxLocation) return { offset: error.offset, expected: error.expected }
    throw error
  }
  return { offset: at, expected: 'valid JSON' }
}

class SyntaxLocation {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

/** `line 4, column 13` (1-based) of an offset in a text. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let start = 0
  for (let index = 0; index < offset; index++) {
    if (text.charCodeAt(index) === 10) {
      line++
      start = index + 1
    }
  }
  return { line, column: offset - start + 1 }
}
