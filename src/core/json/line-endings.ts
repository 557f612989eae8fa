import { sha256Hex } from './canonical-json.js'

/**
 * What the bytes of a file bound by SHA-256 (a source or a rubric) would hash to after the
 * conversions that git's `core.autocrlf` and editors make unseen: line endings turned into CRLF or
 * back, a UTF-8 byte-order mark added. When a recorded hash no longer matches, these tell such a
 * conversion apart from an edit, so the message can say which it is.
 */
export interface ConvertedRevisions {
  /** The file holds a CR character. */
  readonly hasCr: boolean
  /** The file starts with a UTF-8 byte-order mark. */
  readonly hasBom: boolean
  /** SHA-256 with every CRLF turned into LF and the byte-order mark removed; null when neither occurs. */
  readonly asLf: string | null
  /** SHA-256 with every LF not preceded by a CR turned into CRLF; null when there is none. */
  readonly asCrlf: string | null
}

/** The hashes of a file's bytes as they would be converted (see {@link ConvertedRevisions}). */
export function convertedRevisions(bytes: Uint8Array): ConvertedRevisions {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // Past the end a byte reads as undefined, so a shorter file has no mark.
  const hasBom = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf
  const hasCr = buffer.includes(0x0d)
  // latin1 maps each byte to one character and back, so the conversions work on any bytes.
  const text = () => buffer.toString('latin1')
  const asLf =
    hasBom || hasCr
      ? sha256Hex(
          Buffer.from(
            text()
              .slice(hasBom ? 3 : 0)
              .replaceAll('\r\n', '\n'),
            'latin1',
          ),
        )
      : null
  const crlf = buffer.includes(0x0a) ? text().replace(/(?<!\r)\n/g, '\r\n') : null
  return { hasCr, hasBom, asLf, asCrlf: crlf === null ? null : sha256Hex(Buffer.from(crlf, 'latin1')) }
}

const GITATTRIBUTES = 'add a .gitattributes line such as `fixtures/** -text` so that git never converts fixture files'

/**
 * Completes the message of a stale file binding (the recorded SHA-256 of `file` is not the one its
 * bytes have now) when the difference may be a conversion rather than an edit: definitely when the
 * converted bytes have the recorded hash, "may" when the file merely holds CR characters or starts
 * with a byte-order mark. Otherwise returns the message unchanged. In the `brief` form the long
 * advice is left to {@link fileConversionNote}, which a fixture shows once per file.
 */
export function explainStaleBytes<D extends { readonly summary: string; readonly hint: string }>(
  details: D,
  file: string,
  recorded: string,
  revisions: ConvertedRevisions | undefined,
  form: 'full' | 'brief' = 'full',
): D {
  const note = conversionNote(file, recorded, revisions)
  if (note === undefined) return details
  if (form === 'brief') {
    return note.definite
      ? { ...details, summary: `${details.summary} ${note.text}`, hint: `${note.undo}: no review needs to change (see the note on ${file}).` }
      : { ...details, hint: `${details.hint.replace(/\.$/, '')}; its ${note.what} may have changed instead (see the note on ${file}).` }
  }
  return note.definite
    ? { ...details, summary: `${details.summary} ${note.text}`, hint: note.fix }
    : { ...details, hint: `${details.hint.replace(/\.$/, '')}. ${note.text} ${note.fix}` }
}

/**
 * The note a fixture shows once for a file whose recorded hashes (`recorded`, every stale one)
 * differ from its bytes in a way a conversion may explain; `undefined` when none does.
 */
export function fileConversionNote(file: string, recorded: readonly string[], revisions: ConvertedRevisions | undefined): string | undefined {
  const notes = [...new Set(recorded)].map((sha) => conversionNote(file, sha, revisions)).filter((note) => note !== undefined)
  const note = notes.find((each) => each.definite) ?? notes[0]
  return note === undefined ? undefined : `${note.text} ${note.fix.charAt(0).toUpperCase()}${note.fix.slice(1)}`
}

interface ConversionNote {
  /** The converted bytes have the recorded hash: nothing but the conversion changed. */
  readonly definite: boolean
  readonly text: string
  readonly fix: string
  /** What to undo, as a clause: `convert its line endings back to LF`. */
  readonly undo: string
  /** `line endings`, `byte-order mark`, or both. */
  readonly what: string
}

function conversionNote(file: string, recorded: string, revisions: ConvertedRevisions | undefined): ConversionNote | undefined {
  if (revisions === undefined) return undefined
  const { hasCr, hasBom } = revisions
  const what = hasCr && hasBom ? 'line endings and byte-order mark' : hasCr ? 'line endings' : 'byte-order mark'
  const undo = [hasCr ? 'convert its line endings back to LF' : '', hasBom ? 'remove the byte-order mark' : ''].filter(Boolean).join(' and ')
  if (revisions.asLf === recorded) {
    return {
      definite: true,
      what,
      undo,
      text: `Only its ${what} changed: ${hasCr ? 'with LF line endings' : ''}${hasCr && hasBom ? ' and ' : ''}${hasBom ? 'without the byte-order mark' : ''}, ${file} has the recorded SHA-256.`,
      fix: `${undo} (git's core.autocrlf or an editor converted the file; no review needs to change), and ${GITATTRIBUTES}.`,
    }
  }
  if (revisions.asCrlf === recorded) {
    return {
      definite: true,
      what: 'line endings',
      undo: 'bind the case to the file as committed',
      text: `Only its line endings changed: the recorded SHA-256 is that of ${file} with CRLF line endings, as a checkout converted by git's core.autocrlf has them.`,
      fix: `${GITATTRIBUTES}, then bind the case to the file as committed; no review needs to change.`,
    }
  }
  if (!hasCr && !hasBom) return undefined
  return {
    definite: false,
    what,
    undo,
    text: `${file} ${hasCr ? 'holds CR characters' : ''}${hasCr && hasBom ? ' and ' : ''}${hasBom ? 'starts with a byte-order mark' : ''}, so its ${what} may have changed, for example through git's core.autocrlf or an editor.`,
    fix: `If nothing else changed, ${undo} instead, and ${GITATTRIBUTES}.`,
  }
}
