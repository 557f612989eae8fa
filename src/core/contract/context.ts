// What a kind's functions are handed beside a case. Types only, importing no engine module.
import type { PathSegment } from '../common/json-path.js'
import type { ConvertedRevisions } from '../json/line-endings.js'
import type { FileRole, FixtureFile } from './files.js'

/** Where a case stands in its fixture. */
export interface CaseAt {
  readonly id: string
  /** `['cases', 3]`. */
  readonly path: readonly PathSegment[]
}

/** What a kind's checks and rule see of the fixture beside the case: its bound rubric and its files. */
export interface KindContext<R> {
  readonly rubric: R
  /** The fixture directory as messages show it. */
  readonly dir: string
  readonly files: Readonly<Partial<Record<FileRole, FixtureFile>>>
  /** What the rubric and source would hash to with converted line endings, to explain a stale hash. */
  readonly conversions: Readonly<Partial<Record<FileRole, ConvertedRevisions>>>
}
