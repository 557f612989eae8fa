import { canonicalJson, fingerprint, sha256Hex } from './canonical-json.js'
import type { CanonicalWriter } from './canonical-writer.js'
import { BindingError, CanonicalJsonError, type RubricError, type RubricErrorDetails } from './errors.js'
import type { PathSegment } from './json-path.js'

/** Where a value stands: its file, its JSON path and its case, and the error that refuses it. */
export interface ValueSite {
  readonly file: string
  readonly path: readonly PathSegment[]
  readonly caseId?: string | undefined
  /** @default BindingError: the case is refused */
  readonly ErrorClass?: new (details: RubricErrorDetails) => RubricError
}

/**
 * `fingerprint(value)`, where a value without a canonical form (a lone surrogate, an unsafe
 * integer) refuses its case or fixture with an error that points into the file, never a crash.
 * A `writer` compiled for the value's expected shape writes the same text faster; a value of
 * another shape falls back to the generic writer.
 */
export function fingerprintAt(value: unknown, site: ValueSite, writer?: CanonicalWriter): string {
  const text = writer?.(value)
  return text === undefined ? atSite(() => fingerprint(value), site) : sha256Hex(text)
}

/** `canonicalJson(value)`, with errors pointing into the file as {@link fingerprintAt}'s do. */
export function canonicalJsonAt(value: unknown, site: ValueSite, writer?: CanonicalWriter): string {
  return writer?.(value) ?? atSite(() => canonicalJson(value), site)
}

function atSite(compute: () => string, site: ValueSite): string {
  try {
    return compute()
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error
    const ErrorClass = site.ErrorClass ?? BindingError
    throw new ErrorClass({
      code: error.code,
      file: site.file,
      path: [...site.path, ...error.path],
      caseId: site.caseId,
      summary: error.summary,
      found: error.found,
      hint: error.hint,
    })
  }
}
