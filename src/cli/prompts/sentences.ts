/** One sentence of an answer: its number (from 1) and where it stands in the text. */
export interface Sentence {
  readonly number: number
  /** Offset of its first character in the answer. */
  readonly start: number
  /** Offset just after its last character (closing punctuation and quotes included, spaces not). */
  readonly end: number
  readonly text: string
}

const ENDS = new Set(['.', '!', '?'])
const CLOSERS = new Set(['"', "'", '`', ')', ']', '”', '’'])

/**
 * The sentences of an answer, numbered from 1: a sentence ends at `.`, `!` or `?` (with any closing
 * quotes or brackets) before a space or the end, or at a line break. Each is an exact excerpt of the
 * answer, so a run of them is one too.
 */
export function sentencesOf(text: string): Sentence[] {
  const sentences: Sentence[] = []
  let at = 0
  while (at < text.length) {
    while (at < text.length && /\s/u.test(text[at]!)) at++
    if (at >= text.length) break
    const start = at
    let end = text.length
    while (at < text.length) {
      const char = text[at]!
      if (char === '\n') {
        end = at
        break
      }
      at++
      if (ENDS.has(char)) {
        while (at < text.length && (ENDS.has(text[at]!) || CLOSERS.has(text[at]!))) at++
        if (at >= text.length || /\s/u.test(text[at]!)) {
          end = at
          break
        }
      }
    }
    while (end > start && /\s/u.test(text[end - 1]!)) end--
    sentences.push({ number: sentences.length + 1, start, end, text: text.slice(start, end) })
    at = Math.max(at, end)
  }
  return sentences
}

/** The answer as numbered sentences, one a line: `[1] Get release approval …`. */
export function numberedAnswer(sentences: readonly Sentence[]): string {
  return sentences.map((sentence) => `[${sentence.number}] ${sentence.text}`).join('\n')
}

/** What a span answer asks for: a sentence number (`2`), a range (`2-3`), or an exact excerpt. */
const SENTENCE_RANGE = /^\s*(\d+)\s*(?:[-–]\s*(\d+)\s*)?$/u

/**
 * The span an answer to the span question means: sentences by number (`2`, `2-3`: the answer's
 * text from the first to the last, as written), or the text typed, which must occur in the answer;
 * empty for an omission. A message saying what is wrong when it means none.
 */
export function resolveSpan(typed: string, answer: string, sentences: readonly Sentence[]): { span: string } | { problem: string } {
  const range = SENTENCE_RANGE.exec(typed)
  if (range !== null) {
    const first = Number(range[1])
    const last = range[2] === undefined ? first : Number(range[2])
    if (first < 1 || last > sentences.length || first > last)
      return {
        problem: `The answer has sentences 1 to ${sentences.length}: give one (2) or a range (2-3) among them, or type an exact excerpt.`,
      }
    return { span: answer.slice(sentences[first - 1]!.start, sentences[last - 1]!.end) }
  }
  if (answer.includes(typed)) return { span: typed }
  return { problem: 'That text does not occur in the answer: give sentence numbers (2 or 2-3), copy the text exactly, or leave it empty for an omission.' }
}
