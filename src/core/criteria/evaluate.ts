import { createHash, type Hash } from 'node:crypto'
import { canonicalJson } from '../canonical-json.js'
import { countCoverage, type Coverage } from '../coverage.js'
import { BindingError, CanonicalJsonError } from '../errors.js'
import { canonicalJsonAt } from '../json-at.js'
import { assessCase } from './assess.js'
import { writeCase } from './canonical.js'
import type { CriteriaDecision } from './decision.js'
import type { CriteriaFixture } from './load.js'
import type { FixtureIdentities } from './record.js'

/** Every case of a criteria fixture decided, with its coverage and the identities of its case sets. */
export interface CriteriaEvaluation {
  readonly fixture: CriteriaFixture
  /** One decision per case, in the order of `cases.json`. */
  readonly decisions: readonly CriteriaDecision[]
  readonly coverage: Coverage
  readonly identities: FixtureIdentities
}

/**
 * Applies the bindings and the all-criteria rule to every case; one refused case never stops the
 * others. In the same pass it fingerprints the full case set — `fingerprint(cases.json document)`
 * less its `$schema`, which only points editors to a JSON Schema — and the graded subset —
 * `fingerprint([graded cases])` — case by case, so that neither canonical text is ever held whole.
 */
export function evaluateCriteriaFixture(fixture: CriteriaFixture): CriteriaEvaluation {
  const full = new SetFingerprint('{"cases":[')
  const graded = new SetFingerprint('[')
  const decisions = fixture.cases.map((entry) => {
    let decision = assessCase(fixture.bound, entry, fixture.reviews.get(entry.id) ?? null)
    let text: string
    try {
      text = canonicalJsonAt(entry.value, { file: fixture.bound.files.cases, path: entry.path, caseId: entry.id }, writeCase)
    } catch (error) {
      // Stryker disable next-line ConditionalExpression: a case entry is parsed JSON, on which canonicalJsonAt can only fail with a BindingError
      if (!(error instanceof BindingError)) throw error
      full.broken = true
      decision = { status: 'refused', id: entry.id, split: entry.split, reason: error.summary, error: error.toJSON() }
      return decision
    }
    full.add(text)
    if (decision.status === 'accepted' || decision.status === 'rejected') graded.add(text)
    return decision
  })
  // Stryker disable next-line StringLiteral: the tail stays empty only when the set is broken, and a broken set's digest is null
  let tail = ''
  try {
    tail = `],"name":${canonicalJson(fixture.name)},"task":${canonicalJson(fixture.task)}}`
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: canonicalJson of a string can only fail with a CanonicalJsonError
    if (!(error instanceof CanonicalJsonError)) throw error
    full.broken = true // a name or task holding a lone surrogate: the set has no fingerprint
  }
  return {
    fixture,
    decisions,
    coverage: countCoverage(decisions),
    identities: { caseSetSha256: full.digest(tail), gradedSetSha256: graded.digest(']'), files: fixture.files },
  }
}

/** A fingerprint of a JSON array of canonical texts, fed one item at a time. */
class SetFingerprint {
  private readonly hash: Hash
  private empty = true
  /** Set when an item has no canonical form: then the set has no fingerprint. */
  broken = false

  constructor(head: string) {
    this.hash = createHash('sha256').update(head)
  }

  add(text: string): void {
    this.hash.update(this.empty ? text : `,${text}`)
    this.empty = false
  }

  digest(tail: string): string | null {
    const hex = this.hash.update(tail).digest('hex')
    return this.broken ? null : hex
  }
}
