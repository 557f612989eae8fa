// The judge-assisted estimate as the overview reads it (a part of `evaluate --json`'s `estimate`):
// no imports, so that the page's bundle takes nothing of the server. protocol.ts re-exports it.

/** A rate's estimate and its 95% interval. */
export interface RateRange {
  readonly estimate: number
  readonly low: number
  readonly high: number
}

/** One split's judge-assisted acceptance rate (`evaluate --json`'s `estimate.splits[]`, the part the page reads). */
export interface PageSplitEstimate {
  readonly split: string
  readonly cases: number
  readonly sampled: number
  /** Sampled cases without a human decision. */
  readonly pending: number
  readonly result:
    | (RateRange & {
        readonly status: 'estimate'
        readonly decided: number
        /** The human-only estimate and interval on the same sample. */
        readonly classical: RateRange
        /** The judge's rate over every case: biased by its errors. */
        readonly judgeOnly: { readonly rate: number }
        readonly effectiveReviews: number
        /** Bounds over every labelling of the pending sampled cases; `null` without any. */
        readonly worstCase: { readonly low: number; readonly high: number } | null
      })
    | { readonly status: 'unsupported'; readonly decided: number; readonly message: string }
}

/** A fixture's judge-assisted estimate (`evaluate --json`'s `estimate`), or why it could not be read. */
export type PageEstimate =
  | {
      readonly judge: string
      /** `named`, the fixture's `only` judge, or the `first` by name of several. */
      readonly judgeChosen: 'named' | 'only' | 'first'
      readonly judges: readonly string[]
      readonly sample: { readonly file: string; readonly method: string; readonly cases: number }
      readonly splits: readonly PageSplitEstimate[]
    }
  | { readonly error: string }

/**
 * How far the review of a fixture's sample has come, for every viewer (counts only): its cases now
 * in the fixture, those with a review, those decided (accepted or rejected) and those not
 * (`sampled − decided`: pending or refused); `yours`, a reviewer's own reviews of them.
 */
export interface PageSampleProgress {
  /** The sample file, as shown. */
  readonly file: string
  readonly sampled: number
  readonly reviewed: number
  readonly decided: number
  readonly pending: number
  /** The viewing reviewer's own independent reviews of sampled cases; `null` for anyone else. */
  readonly yours: number | null
}
