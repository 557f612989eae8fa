import { RevisionError } from '../../common/errors.js'
import { isObject } from '../../common/primitives.js'
import { appendToList } from '../../json/json-edit.js'
import type { Decision } from '../../contract/decision.js'
import { kindContext } from '../fixture.js'
import { FixtureRevision, reviseUnderLock } from '../revision.js'
import { checkNewCaseId } from './case-id.js'
import { drafted, draftError, type DraftSource } from './draft.js'
import { describe, indent } from './messages.js'
import type { AuthoringOptions } from './options.js'
import { stamp } from './stamp.js'
import { FORMAT } from './write.js'

/** A case `addCases` added, with its decision. */
export interface AddedCase {
  readonly id: string
  /** `pending (no review)`. */
  readonly decision: string
}

/** What `addCases` did: the cases added and the files written. */
export interface AddResult {
  readonly dir: string
  readonly added: readonly AddedCase[]
  /** The files written: none under `dryRun`. */
  readonly written: readonly string[]
}

/**
 * Adds cases to a fixture's `cases.json`, each from a draft of its kind (for a criteria fixture:
 * id, answer, citation, and optionally split and question). Every `expected` hash is stamped from
 * the binding table, so a new case is decided at once (pending: it has no review yet). A draft
 * that does not fit, an id already taken, or a case that would be refused refuses the whole
 * call, and nothing is written.
 */
export async function addCases(dir: string, drafts: readonly unknown[], source: DraftSource, options: AuthoringOptions): Promise<AddResult> {
  return reviseUnderLock(dir, options.cwd, () => addCasesNow(dir, drafts, source, options))
}

async function addCasesNow(dir: string, drafts: readonly unknown[], source: DraftSource, options: AuthoringOptions): Promise<AddResult> {
  // Every record of a case is in its id's bucket: a duplicate id is found among the buckets of the ids added.
  const ids = drafts.map((draft) => (isObject(draft) && typeof draft['id'] === 'string' ? draft['id'] : undefined))
  const scope = ids.every((id) => id !== undefined) ? ids : undefined
  const { revision, base } = await FixtureRevision.open(options.kinds, dir, options.cwd, options.memo, scope, true)
  const { fixture } = base
  const definition = fixture.definition
  const context = kindContext(fixture)
  if (drafts.length === 0) throw draftError(source, [], 'there is no case to add.', 'give at least one case.')
  const taken = new Set(fixture.cases.map((entry) => entry.id))
  const inFixture = new Set(taken)
  const normalised = new Map([...taken].map((id) => [id.normalize('NFC'), id]))
  const values: Record<string, unknown>[] = []
  for (const [index, raw] of drafts.entries()) {
    const at = drafts.length === 1 ? [] : [index]
    const value = drafted(source, at, definition.authoring.caseDraft, raw, (draft) => definition.authoring.newCase(context, draft))
    const id = String(value['id'])
    checkNewCaseId(id, normalised, source, at)
    if (taken.has(id)) {
      throw draftError(
        source,
        [...at, 'id'],
        inFixture.has(id)
          ? `a case "${id}" exists already; nothing was written.`
          : `the list gives the case "${id}" twice (an earlier entry has this id); nothing was written.`,
        inFixture.has(id)
          ? 'choose an id no case of the fixture has (ids are unique in cases.json).'
          : 'give each case of the list an id of its own, or leave the repeated entry out.',
        {
          found: JSON.stringify(id),
        },
      )
    }
    taken.add(id)
    normalised.set(id.normalize('NFC'), id)
    stamp(definition.bindings, 'case', value, context, value, definition.reviews.slots)
    values.push(value)
  }
  const text = appendToList(base.text('cases'), 'cases', values, FORMAT)
  const after = await revision.propose(base, { cases: text })
  // Each case added is decided alone, once.
  const positions = new Map(after.fixture.cases.map((entry, index) => [entry.id, index]))
  const decided = new Map<string, Decision>()
  const decisionOf = (value: Record<string, unknown>): Decision => {
    const id = String(value['id'])
    const position = positions.get(id)
    // The case was added and the revision holds it.
    if (position === undefined) throw new Error(`no case added as ${id}`)
    let decision = decided.get(id)
    if (decision === undefined) decided.set(id, (decision = after.assess(position).decision))
    return decision
  }
  const refused = values.map(decisionOf).filter((decision) => decision.status === 'refused')
  if (refused.length > 0) {
    throw new RevisionError({
      code: 'DRAFT_INVALID',
      file: source.label,
      summary: `${refused.length === 1 ? 'the new case would be refused' : `${refused.length} new cases would be refused`}; nothing was written.\n${refused
        .flatMap((decision) => definition.present.refusals(decision))
        .map(indent)
        .join('\n')}`,
      hint: 'fix what the message names, then add the case again.',
    })
  }
  const written = options.dryRun === true ? [] : await after.commit(options.io)
  return { dir: fixture.displayDir, added: values.map((value) => ({ id: String(value['id']), decision: describe(decisionOf(value)) })), written }
}
