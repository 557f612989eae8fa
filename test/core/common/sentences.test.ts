import { describe, expect, test } from 'vitest'
import { numberedAnswer, numberTexts, resolveSpan, resolveSpanAmong, sentencesOf } from '../../../src/core/common/sentences.js'

const ANSWER =
  'Get release approval and confirm you are on staging, then run `docuctl releases rollback r41 --environment staging`. It changes the service version and leaves database contents as they are. Check service health afterwards.'

describe('the sentences of an answer', () => {
  test('are numbered from 1, each an exact excerpt, split after a full stop before a space and at a line break', () => {
    const sentences = sentencesOf(ANSWER)
    expect(sentences.map((sentence) => sentence.text)).toEqual([
      'Get release approval and confirm you are on staging, then run `docuctl releases rollback r41 --environment staging`.',
      'It changes the service version and leaves database contents as they are.',
      'Check service health afterwards.',
    ])
    for (const sentence of sentences) expect(ANSWER.slice(sentence.start, sentence.end)).toBe(sentence.text)
    expect(sentencesOf('Version 3.2 is out! Is it? "Yes."  Next\nline  ').map((sentence) => sentence.text)).toEqual([
      'Version 3.2 is out!',
      'Is it?',
      '"Yes."',
      'Next',
      'line',
    ])
    expect(numberedAnswer(sentencesOf('One. Two.'))).toBe('[1] One.\n[2] Two.')
  })

  test('a span is a sentence, a range of sentences as written, or text that occurs in the answer; anything else is refused', () => {
    const sentences = sentencesOf(ANSWER)
    expect(resolveSpan('2', ANSWER, sentences)).toEqual({ span: 'It changes the service version and leaves database contents as they are.' })
    expect(resolveSpan(' 2-3 ', ANSWER, sentences)).toEqual({
      span: 'It changes the service version and leaves database contents as they are. Check service health afterwards.',
    })
    expect(resolveSpan('database contents', ANSWER, sentences)).toEqual({ span: 'database contents' })
    expect(resolveSpan('', ANSWER, sentences)).toEqual({ span: '' })
    expect(resolveSpan('4', ANSWER, sentences)).toEqual({
      problem: 'The answer has sentences 1 to 3: give one (2) or a range (2-3) among them, or type an exact excerpt.',
    })
    expect(resolveSpan('3-2', ANSWER, sentences)).toHaveProperty('problem')
    expect(resolveSpan('words it never says', ANSWER, sentences)).toHaveProperty('problem')
  })

  test('over several texts numbered in one sequence, a range stays within one text, and only the allowed texts are quoted', () => {
    const turns = ['First claim. Second claim.', 'A reply. Another reply.']
    const numbered = numberTexts(turns)
    expect(numbered.map((piece) => piece.sentences.map((sentence) => sentence.number))).toEqual([
      [1, 2],
      [3, 4],
    ])
    const critique = [turns[0]!]
    expect(resolveSpanAmong('1-2', numbered, critique, 'the critique turns')).toEqual({ span: 'First claim. Second claim.' })
    expect(resolveSpanAmong('3', numbered, critique, 'the critique turns')).toEqual({
      problem: 'Sentence 3 is not in the critique turns: give one that is, or type an exact excerpt.',
    })
    expect(resolveSpanAmong('2-3', numbered, turns, 'the transcript')).toHaveProperty('problem')
    expect(resolveSpanAmong('Second', numbered, critique, 'the critique turns')).toEqual({ span: 'Second' })
    expect(resolveSpanAmong('A reply', numbered, critique, 'the critique turns')).toEqual({
      problem: 'That text does not occur in the critique turns: give sentence numbers (2 or 2-3), or copy it exactly.',
    })
  })
})
