import { CanonicalJsonError } from '../common/errors.js'
import type { Decision } from '../contract/decision.js'
import type { FixtureIdentities } from '../contract/results.js'
import { canonicalJson } from '../json/canonical-json.js'
import { isGraded } from './decision.js'
import { caseSetEnds, SetFingerprint } from './evaluate.js'
import type { CaseEntry, SomeFixture } from './fixture.js'

// The case-set fingerprints of an incremental evaluation, made when first read: from the texts its
// cases were decided with, without a list of every case's state made at each save to keep them.

/** The fingerprints of the full case set and of its graded cases. */
export type CaseSetIdentity = Pick<FixtureIdentities, 'caseSetSha256' | 'gradedSetSha256'>

/** What the evaluation kept of a case as it decided it: the entry, and its text. */
export interface DecidedText {
  readonly entry: CaseEntry
  readonly text: string | undefined
}

/**
 * The fingerprints of `fixture`'s full case set and of its graded cases (`decisions` in the order
 * of its cases), from each case's text: the text `decided` holds of the very entry, else made again
 * (a later save replaced the case's state in the map, which an evaluation read late still asks).
 */
export function caseSetFingerprints(fixture: SomeFixture, decisions: readonly Decision[], decided: ReadonlyMap<string, DecidedText>): CaseSetIdentity {
  const { head, tail, broken } = caseSetEnds(fixture)
  const full = new SetFingerprint(head)
  full.broken = broken
  const graded = new SetFingerprint('[')
  for (const [position, entry] of fixture.cases.entries()) {
    const kept = decided.get(entry.id)
    const text = kept?.entry === entry ? kept.text : textOf(entry)
    if (text === undefined) {
      full.broken = true
      continue
    }
    const separated = `,${text}`
    full.add(text, separated)
    const decision = decisions[position]
    if (decision !== undefined && isGraded(decision)) graded.add(text, separated)
  }
  return { caseSetSha256: full.digest(tail), gradedSetSha256: graded.digest(']') }
}

/** A case's text as the evaluation fingerprints it; `undefined` for one that has no canonical form. */
function textOf(entry: CaseEntry): string | undefined {
  try {
    return canonicalJson(entry.value)
  } catch (error) {
    if (error instanceof CanonicalJsonError) return undefined
    throw error
  }
}
