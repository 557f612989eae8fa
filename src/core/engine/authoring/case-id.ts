import type { PathSegment } from '../../common/json-path.js'
import { draftError, type DraftSource } from './draft.js'

/** What a new case's id may be, as `add` says it: docs/format.md gives the same rule. */
const EXPECTED =
  'an id with a visible character, no line break, tab or other control character, no invisible format character, no space at either end, unlike every id of the fixture also after Unicode NFC normalisation'

/**
 * An invisible format character (Unicode's Cf: a zero-width space, a byte-order mark, a
 * bidirectional control, a soft hyphen): it makes an id print as another, or reorders what follows
 * it. The zero-width joiner and non-joiner are kept between two letters or pictographs, where they
 * shape a script's letters or join an emoji sequence.
 */
const INVISIBLE = /(?![\u200C\u200D](?<=[\p{L}\p{M}\p{Extended_Pictographic}][\u200C\u200D])(?=[\p{L}\p{M}\p{Extended_Pictographic}]))\p{Cf}/u

/**
 * The ids `add` takes: a blank id, or one with a control character (a line break splits the lines
 * `status` and the reporter print), prints as nothing or as two; an id the same as another after
 * NFC normalisation prints as that other. `taken` holds the fixture's ids (and those added before
 * in the same call) by their NFC form. A fixture read from disk is not refused for such an id.
 */
export function checkNewCaseId(id: string, taken: ReadonlyMap<string, string>, source: DraftSource, at: readonly PathSegment[]): void {
  const path = [...at, 'id']
  const found = { found: JSON.stringify(id), expected: EXPECTED }
  if (id.trim() === '')
    throw draftError(source, path, 'the case id is blank; nothing was written.', 'give the case an id with a visible character, such as "rollback-1".', found)
  const control = /\p{Cc}/u.exec(id)?.[0]
  if (control !== undefined) {
    const code = codePoint(control)
    throw draftError(
      source,
      path,
      `the case id holds a control character (${code}${control === '\n' || control === '\r' ? ', a line break' : control === '\t' ? ', a tab' : ''}), which splits or hides it where cases are listed; nothing was written.`,
      'give the case an id without line breaks, tabs or other control characters, such as "rollback-1".',
      found,
    )
  }
  const invisible = INVISIBLE.exec(id)?.[0]
  if (invisible !== undefined)
    throw draftError(
      source,
      path,
      `the case id holds an invisible format character (${codePoint(invisible)}), which makes it print as another id or reorders what follows it; nothing was written.`,
      'give the case an id without zero-width, byte-order-mark or bidirectional characters, such as "rollback-1".',
      found,
    )
  if (id.trim() !== id)
    throw draftError(
      source,
      path,
      'the case id starts or ends with a space, which prints as nothing where cases are listed; nothing was written.',
      `give the case an id without spaces at its ends, such as ${JSON.stringify(id.trim())}.`,
      found,
    )
  const existing = taken.get(id.normalize('NFC'))
  if (existing !== undefined && existing !== id)
    throw draftError(
      source,
      path,
      `a case ${JSON.stringify(existing)} exists already: the new id is the same text written with other code points (they are equal after Unicode NFC normalisation), so the two would print alike; nothing was written.`,
      `use the existing case's id as it is written, or choose an id no case of the fixture has.`,
      found,
    )
}

/** `U+200B`: a character's code point as Unicode writes it. */
const codePoint = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
