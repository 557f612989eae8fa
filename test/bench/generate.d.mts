/** Types of generate.mjs, for the tests that build large fixtures with it. */
export function outcomeOf(index: number): 'accepted' | 'rejected' | 'pending'
export function generateFixture(
  dir: string,
  n: number,
  options?: {
    readonly fingerprint?: (value: unknown) => string
    readonly outcomeOf?: (index: number) => 'accepted' | 'rejected' | 'pending'
    readonly splitOf?: (index: number) => 'development' | 'held_out' | undefined
  },
): Promise<void>
export function generatePlainTests(file: string, n: number): Promise<void>
