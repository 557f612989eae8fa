import type { PathSegment } from '../json-path.js'

/** What a recorded hash stands for. */
export type Binding =
  /** criteria kind: the case's answer (`input.answer`) */
  | 'answer'
  /** criteria kind: `source.txt` */
  | 'source'
  /** both kinds: the rubric file */
  | 'rubric'
  /** scored kind: the case's `spec` */
  | 'spec'
  /** scored kind: the reviewed system's output */
  | 'output'

/** A hash recorded in a fixture file, beside the value it should hold for the files as they are now. */
export interface HashField {
  readonly file: 'cases' | 'annotations'
  readonly path: readonly PathSegment[]
  readonly binds: Binding
  readonly recorded: string
  readonly current: string
}

/** A review of a case (criteria: the review; scored: the debate or the baseline review). */
export interface ReviewRevision {
  /** `review`, `debate review`, `baseline review`. */
  readonly label: string
  /** Where the review stands in `annotations.json`; `null` when the case has none. */
  readonly path: readonly PathSegment[] | null
  /** The review's own bindings (empty without a review). */
  readonly fields: readonly HashField[]
  /** Where the case records the review's revision, and what it records. */
  readonly acknowledgement: { readonly path: readonly PathSegment[]; readonly recorded: string }
  /** The fingerprint of the review as it is now (of `null` without one). */
  readonly nowSha256: string
  /** The fingerprint the review will have once its fields hold their current values. */
  readonly boundSha256: string
}

/** Every recorded hash of one case and of its reviews. */
export interface CaseRevisions {
  readonly id: string
  readonly path: readonly PathSegment[]
  /** The case's own bindings (`expected.source_sha256`, `expected.rubric_sha256`). */
  readonly fields: readonly HashField[]
  readonly reviews: readonly ReviewRevision[]
}

/** The recorded hashes of a case that no longer match, including unacknowledged review revisions. */
export interface Staleness {
  readonly stale: readonly HashField[]
  /** Reviews whose recorded revision is not the review as it is now (edited, added or removed). */
  readonly unacknowledged: readonly ReviewRevision[]
}

export function staleness(revisions: CaseRevisions): Staleness {
  const isStale = (field: HashField) => field.recorded !== field.current
  return {
    stale: [...revisions.fields.filter(isStale), ...revisions.reviews.flatMap((review) => review.fields.filter(isStale))],
    unacknowledged: revisions.reviews.filter((review) => review.acknowledgement.recorded !== review.nowSha256),
  }
}

/** A copy of a review with its binding fields set to the given values. */
export function withFields(review: unknown, values: Readonly<Record<string, string>>): unknown {
  return { ...(review as Record<string, unknown>), ...values }
}
