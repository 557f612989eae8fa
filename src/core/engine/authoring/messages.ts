import type { Decision } from '../../contract/decision.js'

/** `accepted`, `rejected (verification)`, `pending (no review)`. */
export function describe(decision: Decision): string {
  return decision.status === 'pending' ? `pending (${decision.reason})` : decision.status === 'rejected' ? `rejected (${decision.reason})` : decision.status
}

/** Each line of `text` indented four spaces: refusals listed under a message's summary. */
export function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
}
