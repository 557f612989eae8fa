import { stripVTControlCharacters } from 'node:util'

/**
 * The message an assertion fails with, colours stripped so that snapshots do not depend on the
 * terminal. An assertion that passes is itself a failure of the test.
 */
export function failureOf(assertion: () => unknown): string {
  try {
    assertion()
  } catch (error) {
    return stripVTControlCharacters(error instanceof Error ? error.message : String(error))
  }
  throw new Error('the assertion passed, but the test expects it to fail')
}

/** A copy of a case's answer as written in the fixture, to regenerate or edit. */
export function answerOf(fixtureCase: { readonly entry: { readonly value: unknown } }): { text: string; citation: string } {
  return structuredClone((fixtureCase.entry.value as { input: { answer: { text: string; citation: string } } }).input.answer)
}
