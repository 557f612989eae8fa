/** Types of generate.mjs, for the tests that build large fixtures with it. */
export function outcomeOf(index: number): 'accepted' | 'rejected' | 'pending'
export function generateFixture(
  dir: string,
  n: number,
  options?: {
    readonly fingerprint?: (value: unknown) => string
    /** `unreviewed`: the case has no review at all. */
    readonly outcomeOf?: (index: number) => 'accepted' | 'rejected' | 'pending' | 'unreviewed'
    readonly splitOf?: (index: number) => 'development' | 'held_out' | undefined
    /** Whether the review of a case also rates this criterion does_not_meet. */
    readonly failsOf?: (index: number, criterion: string) => boolean
  },
): Promise<void>
export function generatePlainTests(file: string, n: number): Promise<void>
/** The same fixture as generateFixture, written in the records layout record by record (no seed document is made). */
export function generateRecordsFixture(dir: string, n: number, options?: Parameters<typeof generateFixture>[2]): Promise<void>
