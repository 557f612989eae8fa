import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

/**
 * Reference values a second implementation (statsmodels, scikit-learn, SciPy, NumPy) computed for
 * fixed inputs, committed under test/reference/ by test/reference/generate.py (generate_ppi.py for
 * the prediction-powered estimate).
 */
export interface ReferenceHeader {
  readonly generatedBy: string
  /** The SHA-256 of generate.py when it wrote the file: an edit of the script without a run is caught. */
  readonly scriptSha256: string
  readonly seed: number
  /** The libraries and versions that computed the values. */
  readonly computedBy: string
}

const REFERENCE = new URL('../reference/', import.meta.url)

export function readReference<T extends ReferenceHeader>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, REFERENCE), 'utf8')) as T
}

/** The SHA-256 of a generator under test/reference/: generate.py unless another is named. */
export function generatorSha256(generator = 'generate.py'): string {
  return createHash('sha256')
    .update(readFileSync(new URL(generator, REFERENCE)))
    .digest('hex')
}
