/** How a kind of fixture names its outcomes. */
export interface OutcomeWords {
  readonly positive: string
  readonly negative: string
  readonly graded: string
  readonly pending: string
}

const WORDS: Readonly<Record<string, OutcomeWords>> = {
  criteria: { positive: 'accepted', negative: 'rejected', graded: 'graded', pending: 'pending' },
  scored: { positive: 'passed', negative: 'failed', graded: 'scored', pending: 'pending (manual review or no review)' },
}

const MIXED: OutcomeWords = { positive: 'accepted or passed', negative: 'rejected or failed', graded: 'graded', pending: 'pending' }

/** The words of one kind, or words that fit every kind in a total over several. */
export function outcomeWords(kinds: readonly string[]): OutcomeWords {
  const distinct = [...new Set(kinds)]
  return distinct.length === 1 ? (WORDS[distinct[0]!] ?? MIXED) : MIXED
}

/** What a fixture without cases (just scaffolded) shows in place of its figures. */
export const NO_CASES = 'no cases yet: nothing executed, nothing graded, no quality figure'
