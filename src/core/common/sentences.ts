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
 * answer, so a run of them is one too. `first` is the number of the first sentence.
 */
export function sentencesOf(text: string, first = 1): Sentence[] {
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
    sentences.push({ number: first + sentences.length, start, end, text: text.slice(start, end) })
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

/** A text with its sentences numbered, one of several numbered in one sequence (the turns of a transcript). */
export interface NumberedText {
  readonly text: string
  readonly sentences: readonly Sentence[]
}

/** Several texts, shown one after another, with their sentences numbered in one sequence. */
export function numberTexts(texts: readonly string[]): NumberedText[] {
  let next = 1
  return texts.map((text) => {
    const sentences = sentencesOf(text, next)
    next += sentences.length
    return { text, sentences }
  })
}

/**
 * As {@link resolveSpan}, over several numbered texts of which only some may be quoted (`allowed`,
 * described as `where`): a range stays within one text, and a sentence of another text is refused.
 */
export function resolveSpanAmong(
  typed: string,
  numbered: readonly NumberedText[],
  allowed: readonly string[],
  where: string,
): { span: string } | { problem: string } {
  const range = SENTENCE_RANGE.exec(typed)
  if (range !== null) {
    const first = Number(range[1])
    const last = range[2] === undefined ? first : Number(range[2])
    const piece = numbered.find((each) => each.sentences.some((sentence) => sentence.number === first))
    const from = piece?.sentences.find((sentence) => sentence.number === first)
    const to = piece?.sentences.find((sentence) => sentence.number === last)
    if (piece === undefined || from === undefined || to === undefined || first > last)
      return {
        problem: `Sentences ${first}${last === first ? '' : `-${last}`} are not one passage of one turn: give sentences of a single turn, or type an exact excerpt.`,
      }
    if (!allowed.includes(piece.text)) return { problem: `Sentence ${first} is not in ${where}: give one that is, or type an exact excerpt.` }
    return { span: piece.text.slice(from.start, to.end) }
  }
  if (allowed.some((text) => text.includes(typed))) return { span: typed }
  return { problem: `That text does not occur in ${where}: give sentence numbers (2 or 2-3), or copy it exactly.` }
}
