import { canonicalJson, fingerprint } from './canonical-json.js'
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
 */
export function fingerprintAt(value: unknown, site: ValueSite): string {
  return atSite(() => fingerprint(value), site)
}

/** `canonicalJson(value)`, with errors pointing into the file as {@link fingerprintAt}'s do. */
export function canonicalJsonAt(value: unknown, site: ValueSite): string {
  return atSite(() => canonicalJson(value), site)
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
