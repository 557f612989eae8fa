/** Types of generate.mjs, for the tests that build large fixtures with it. */
export function outcomeOf(index: number): 'accepted' | 'rejected' | 'pending'
export function generateFixture(dir: string, n: number, options?: { readonly fingerprint?: (value: unknown) => string }): Promise<void>
export function generatePlainTests(file: string, n: number): Promise<void>
