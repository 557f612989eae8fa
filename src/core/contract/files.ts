// The files of a fixture as a kind names them. Types only.

/**
 * What each file of a fixture is for. `rubric` is the marker: the file that makes a directory a
 * fixture of its kind. `source` is the text a rubric quotes (criteria fixtures only).
 */
export type FileRole = 'rubric' | 'source' | 'cases' | 'annotations'

/** A file of a loaded fixture: how messages name it and the SHA-256 of its bytes. */
export interface FixtureFile {
  /** Its name in the fixture directory: `rubric.json`. */
  readonly name: string
  /** As messages show it: relative to the working directory (`fixtures/docuctl-rollback/rubric.json`). */
  readonly display: string
  readonly sha256: string
}
