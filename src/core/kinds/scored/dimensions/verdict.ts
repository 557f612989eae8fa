import { notApplicable, scored, type DimensionScore } from './score.js'

/**
 * The characters trimmed from both ends of a verdict: every character with Unicode's White_Space
 * property (U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F,
 * U+205F, U+3000), and U+FEFF, the zero-width no-break space an editor leaves as a byte-order
 * mark. JavaScript's `trim()` keeps U+0085 and Python's `str.strip()` keeps U+FEFF but strips
 * U+001C–U+001F, so the set is named here rather than borrowed from either language.
 */
export const VERDICT_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff'

const EDGES = new RegExp(`^[${VERDICT_SPACE}]+|[${VERDICT_SPACE}]+$`, 'g')

/** A verdict without the {@link VERDICT_SPACE} characters at either end. */
export function trimVerdict(verdict: string): string {
  return verdict.replace(EDGES, '')
}

/**
 * How verdicts are compared: Unicode NFC, trimmed of {@link VERDICT_SPACE}, lower-cased.
 * Punctuation and inner whitespace are kept (`"Reject."` is not `"reject"`): the rubric asks for
 * an exact match after normalizing case and surrounding whitespace, not for a judgement of what
 * the text means.
 */
export function normalizeVerdict(verdict: string): string {
  return trimVerdict(verdict.normalize('NFC')).toLowerCase()
}

/**
 * `final_verdict_correctness`: 1.0 when the final verdict emitted matches the ground truth after
 * {@link normalizeVerdict}, 0.0 when it does not or none was emitted; N/A when the ground truth's
 * `final_verdict` is null or absent.
 */
export function scoreVerdict(groundTruth: string | null | undefined, emitted: string | null): DimensionScore {
  if (groundTruth === undefined || groundTruth === null) {
    return notApplicable(`N/A: ground_truth.final_verdict is ${groundTruth === null ? 'null' : 'absent'}`)
  }
  if (emitted === null) return scored(0, `no final verdict emitted; expected ${JSON.stringify(groundTruth)}`)
  if (normalizeVerdict(emitted) === normalizeVerdict(groundTruth)) {
    return scored(1, `${JSON.stringify(emitted)} matches ${JSON.stringify(groundTruth)} (trimmed, case-insensitive)`)
  }
  return scored(0, `${JSON.stringify(emitted)} does not match ${JSON.stringify(groundTruth)} (trimmed, case-insensitive)`)
}
