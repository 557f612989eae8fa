import { applyEdits, modify } from 'jsonc-parser'
import { judgeOriginPlaceholder } from '../../common/origin.js'
import { RevisionError } from '../../common/errors.js'
import { parseJson } from '../../common/primitives.js'
import { valueAt } from '../../common/json-path.js'
import { fingerprint } from '../../json/canonical-json.js'
import { editJsonStrings, putListItem, topLevelListItems } from '../../json/json-edit.js'
import { rowPath } from '../bindings.js'
import type { Decision } from '../../contract/decision.js'
import { kindContext } from '../fixture.js'
import { ADJUDICATIONS_FILE, authorDocument, JUDGES_DIR, REVIEWS_DIR } from '../panel.js'
import { reviewerViews } from '../panel-rule.js'
import type { FixtureRevision, RevisionBase } from '../revision.js'
import type { EntryEdit } from '../entry-edits.js'
import type { DraftSource } from './draft.js'
import { indent } from './messages.js'
import type { AuthoringOptions } from './options.js'
import { caseRestamps } from './stamp.js'
import type { ReviewTarget } from './target.js'

/** @internal the layout of the JSON authoring writes: two spaces, `\n`. */
export const FORMAT = { insertSpaces: true, tabSize: 2, eol: '\n' } as const

/** Where a review is written: as the adopted review (with the adoption it makes, if any), in a reviewer's file, or in a judge's. */
export type Destination =
  | { readonly adopted: true; readonly adoption?: Readonly<Record<string, unknown>> }
  | { readonly reviewer: string }
  | { readonly judge: string; readonly origin?: string }

/** One review to write, with where it goes. */
export interface ReviewWrite {
  readonly target: ReviewTarget
  readonly review: Readonly<Record<string, unknown>>
  readonly destination: Destination
}

/**
 * Writes reviews (and, for an adjudication, the adoptions they make), decides the fixture on the new
 * files and commits them unless a review would be refused. Returns, per review, the decision to
 * report: the case's for an adopted review, the review's own for an independent one.
 */
/** @internal */
export async function writeReviews(
  revision: FixtureRevision,
  base: RevisionBase,
  writes: readonly ReviewWrite[],
  source: DraftSource,
  options: AuthoringOptions,
): Promise<{ decisions: readonly Decision[]; files: readonly string[] }> {
  const { fixture } = base
  const definition = fixture.definition
  // The adopted reviews and the cases' acknowledgements, entry by entry: in the records layout no document's text is made.
  const reviewEdits: EntryEdit[] = []
  const caseEdits: EntryEdit[] = []
  const files: Record<string, string> = {}
  for (const { target, review, destination } of writes) {
    const { entry, slot, existing } = target
    if ('reviewer' in destination || 'judge' in destination) {
      // An author's own file: reviews/<reviewer>.json or judges/<judge>.json, made on the first review.
      const judge = 'judge' in destination
      const relativePath = judge
        ? authorDocument(fixture.judges, JUDGES_DIR, destination.judge)
        : authorDocument(fixture.panel, REVIEWS_DIR, destination.reviewer)
      const origin = judge ? (destination.origin ?? judgeOriginPlaceholder(destination.judge)) : `Independent reviews by ${destination.reviewer}.`
      let before = files[relativePath] ?? revision.textOf(relativePath, base) ?? `${JSON.stringify({ origin, reviews: [] }, null, 2)}\n`
      if (judge && destination.origin !== undefined) before = applyEdits(before, modify(before, ['origin'], destination.origin, { formattingOptions: FORMAT }))
      const index = existing === undefined ? listLength(before, 'reviews') : Number(existing.path[1])
      files[relativePath] = putListItem(before, 'reviews', index, review, FORMAT, existing === undefined)
      continue
    }
    const adopted = fixture.reviews.get(entry.id)?.[slot]
    reviewEdits.push({ kind: 'put', index: adopted === undefined ? 'end' : Number(adopted.path[1]), value: review })
    const acknowledgement = definition.bindings.find((row) => 'reviewOf' in row.source)!
    const recorded = valueAt(entry.value, rowPath(acknowledgement, slot))
    const edits = [{ path: [...entry.path, ...rowPath(acknowledgement, slot)], from: typeof recorded === 'string' ? recorded : '', to: fingerprint(review) }]
    // An adjudication makes the adopted review anew from reviews of the files as they are: the case records them too.
    if ('adoption' in destination && destination.adoption !== undefined) edits.push(...caseRestamps(definition.bindings, target))
    caseEdits.push({ kind: 'strings', edits })
    if (destination.adoption !== undefined)
      files[ADJUDICATIONS_FILE] = withAdoption(files[ADJUDICATIONS_FILE] ?? revision.textOf(ADJUDICATIONS_FILE, base), destination.adoption)
  }
  const entries = {
    annotations:
      reviewEdits.length === 0
        ? undefined
        : { list: 'reviews', edits: reviewEdits, text: () => editedText(base.text('annotations'), 'reviews', '', reviewEdits) },
    cases:
      caseEdits.length === 0
        ? undefined
        : { list: 'cases', edits: caseEdits, text: () => editedText(base.text('cases'), 'cases', fixture.files.cases.display, caseEdits) },
  }
  const after = await revision.propose(base, { files, entries })
  const context = kindContext(after.fixture)
  const decisions = writes.map(({ target, destination }) => {
    const index = after.fixture.cases.findIndex((each) => each.id === target.entry.id)
    if ('judge' in destination) {
      const views = reviewerViews(definition, context, after.fixture.cases[index]!, after.fixture.judges, after.fixture.files.cases.display)
      return views.find((view) => view.reviewer === destination.judge)!.decision
    }
    if (!('reviewer' in destination)) return after.assess(index).decision
    const views = reviewerViews(definition, context, after.fixture.cases[index]!, after.fixture.panel, after.fixture.files.cases.display)
    return views.find((view) => view.reviewer === destination.reviewer)!.decision
  })
  const refusals = decisions.flatMap((decision) => definition.present.refusals(decision))
  if (refusals.length > 0) {
    throw new RevisionError({
      code: 'DRAFT_INVALID',
      file: source.label,
      caseId: writes.length === 1 ? writes[0]!.target.entry.id : undefined,
      summary: `the review would be refused; nothing was written.\n${refusals.map(indent).join('\n')}`,
      hint: 'fix what the message names, then record the review again.',
    })
  }
  return { decisions, files: options.dryRun === true ? [] : await after.commit(options.io) }
}

/** A document's text with `edits` made in turn: only the characters of the entries they change. */
function editedText(text: string, list: 'cases' | 'reviews', display: string, edits: readonly EntryEdit[]): string {
  let edited = text
  for (const edit of edits) {
    if (edit.kind === 'strings') edited = editJsonStrings(edited, display, edit.edits)
    else edited = putListItem(edited, list, edit.index === 'end' ? listLength(edited, list) : edit.index, edit.value, FORMAT, edit.index === 'end')
  }
  return edited
}

/** `adjudications.json` with one adoption of a case's slot added, or put in place of the case's earlier one. */
function withAdoption(text: string | undefined, adoption: Readonly<Record<string, unknown>>): string {
  const before = text ?? `${JSON.stringify({ adoptions: [] }, null, 2)}\n`
  const document: unknown = JSON.parse(before)
  const listed = valueAt(document, ['adoptions'])
  const adoptions: readonly unknown[] = Array.isArray(listed) ? listed : []
  const earlier = adoptions.findIndex((each) => valueAt(each, ['case_id']) === adoption['case_id'] && valueAt(each, ['slot']) === adoption['slot'])
  const index = earlier === -1 ? adoptions.length : earlier
  return putListItem(before, 'adoptions', index, adoption, FORMAT, earlier === -1)
}

/** The length of a top-level list of a document the fixture loaded (so it parses, and holds the list). */
function listLength(text: string, key: 'cases' | 'reviews'): number {
  const items = topLevelListItems(text, key)
  if (items !== undefined) return items.length
  const list = valueAt(parseJson(text), [key])
  return Array.isArray(list) ? list.length : 0
}
