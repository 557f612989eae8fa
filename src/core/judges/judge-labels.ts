import { applyEdits, modify, parseTree, type Node } from 'jsonc-parser'
import { RevisionError, UsageError } from '../common/errors.js'
import { formatPath, type PathSegment, valueAt } from '../common/json-path.js'
import { isObject, quoteSome, own } from '../common/primitives.js'
import { fingerprint } from '../json/canonical-json.js'
import { appendToList } from '../json/json-edit.js'
import { safeParseReporting } from '../json/schema-error.js'
import { assessEntry } from '../engine/assess.js'
import { checkOrigin, checkReviewer, refuseCaseTwin } from '../engine/authoring/authors.js'
import { drafted, refuseEmptyDraft, type DraftSource } from '../engine/authoring/draft.js'
import { stamp } from '../engine/authoring/stamp.js'
import type { AuthoringOptions } from '../engine/authoring/options.js'
import { rowPath } from '../engine/bindings.js'
import { kindContext, type SomeFixture } from '../engine/fixture.js'
import type { KindRegistry } from '../engine/registry.js'
import type { KindContext } from '../contract/kind.js'
import { authorDocument, judgeFileDisplay, JUDGES_DIR } from '../engine/panel.js'
import { FixtureRevision, reviseUnderLock, type RevisionBase } from '../engine/revision.js'
import { MAX_REASON_CHARACTERS, overlongText } from './verdict-limits.js'

/** One case's label as a bulk import or a judge run gives it: the judgements by criterion, as `review --from` takes them. */
export interface JudgeLabelDraft {
  readonly caseId: string
  readonly draft: unknown
  /** Where the label came from, to name a problem: a file and line, a run. */
  readonly source: DraftSource
  /** The label's place inside its source, prefixed to every path a problem of its judgements names. */
  readonly at: readonly PathSegment[]
  /** Where the label is, as a problem of the label as a whole names it: `labels.jsonl:17`, `labels.json › c1`. */
  readonly place: string
}

/**
 * What becomes of a case the judge has labelled already: `refuse` the whole call, `replace` the
 * label, or `merge` the new judgements into a current label (one bound to the answer, source and
 * rubric as they are; a judgement it holds already stands), replacing a stale one.
 * @default 'refuse'
 */
export type ExistingLabelPolicy = 'refuse' | 'replace' | 'merge'

/** Options of {@link recordJudgeLabels}. */
export interface RecordJudgeLabelsOptions extends AuthoringOptions {
  readonly judge: string
  /** The judge file's `origin`: the model, the prompt's revision, the judge module and its version. */
  readonly origin?: string | undefined
  readonly existing?: ExistingLabelPolicy | undefined
}

/** What {@link recordJudgeLabels} did. */
export interface RecordedJudgeLabels {
  readonly dir: string
  readonly judge: string
  /** The judge's file, as shown. */
  readonly file: string
  /** Labels of cases the judge had not labelled. */
  readonly added: number
  readonly replaced: number
  /** Labels already so: nothing to write for them. */
  readonly unchanged: number
  /** The files written: none under `dryRun` or when nothing changed. */
  readonly written: readonly string[]
}

/**
 * Records many labels of one automated judge in one revision of `judges/<judge>.json`: every label
 * is checked first (its case, its draft, its place in the file), and one that does not fit refuses
 * the whole call, naming where it came from, with nothing written. Each label is made as
 * `review --judge` makes one (the kind's draft, its hashes stamped from the files as they are), the
 * file is rewritten in one pass (new labels appended, replaced ones edited in place), and the write
 * takes the fixture's lock and refuses a file changed meanwhile, as every revision does.
 */
export async function recordJudgeLabels(dir: string, labels: readonly JudgeLabelDraft[], options: RecordJudgeLabelsOptions): Promise<RecordedJudgeLabels> {
  return reviseUnderLock(dir, options.cwd, () => recordNow(dir, labels, options))
}

async function recordNow(dir: string, labels: readonly JudgeLabelDraft[], options: RecordJudgeLabelsOptions): Promise<RecordedJudgeLabels> {
  const { revision, base, fixture } = await openLabelRevision(options.kinds, dir, options.cwd)
  const definition = fixture.definition
  const [slot, ...others] = definition.reviews.slots
  if (slot === undefined || others.length > 0) {
    throw new UsageError({
      code: 'USAGE',
      file: fixture.displayDir,
      summary: `a ${fixture.kind} case has several reviews (${quoteSome(definition.reviews.slots)}), so labels by case alone would not say which; nothing was written.`,
      hint: 'record a label of a scored case with `vitest-rubric review <dir> --case <id> --system <system> --judge <name> --from <file>`.',
    })
  }
  const judge = checkReviewer(options.judge, '--judge')
  checkOrigin(options.origin, '--origin')
  refuseCaseTwin(fixture, judge, JUDGES_DIR, '--judge')
  const context = kindContext(fixture)
  const relativePath = authorDocument(fixture.judges, JUDGES_DIR, judge)
  const file = judgeFileDisplay(fixture, judge)
  const index = new Map(fixture.cases.map((entry, at) => [entry.id, at]))
  const policy = options.existing ?? 'refuse'
  const seen = new Map<string, JudgeLabelDraft>()
  const appended: Record<string, unknown>[] = []
  const replacements = new Map<number, Record<string, unknown>>()
  const written: { at: number; review: Record<string, unknown>; path: PathSegment[] }[] = []
  const before = fixture.textOf(relativePath)
  let count = before === undefined ? 0 : own(fixture.judges.files, judge) === undefined ? 0 : labelCount(fixture, judge)
  let unchanged = 0
  for (const label of labels) {
    const at = index.get(label.caseId)
    if (at === undefined) {
      throw new RevisionError({
        code: 'CASE_NOT_FOUND',
        file: label.place,
        summary: `there is no case "${label.caseId}" in ${fixture.files.cases!.display}; nothing was written.`,
        expected: index.size === 0 ? 'a case id (the fixture has no cases yet)' : `one of ${quoteSome([...index.keys()])}`,
        found: JSON.stringify(label.caseId),
        hint: 'label the cases of this fixture: a label names its case by id.',
      })
    }
    const earlier = seen.get(label.caseId)
    if (earlier !== undefined) {
      throw new RevisionError({
        code: 'DUPLICATE_REVIEW',
        file: label.place,
        summary: `case "${label.caseId}" is labelled twice (first at ${earlier.place}): which label stands would be a guess; nothing was written.`,
        hint: 'give one label per case.',
      })
    }
    seen.set(label.caseId, label)
    const overlong = overlongText(label.draft)
    if (overlong !== undefined) {
      throw new RevisionError({
        code: 'DRAFT_INVALID',
        file: label.source.locate([...label.at, ...overlong.path]),
        summary: `the text is ${overlong.length.toLocaleString('en-US')} characters, more than the ${MAX_REASON_CHARACTERS.toLocaleString('en-US')} a judge's label may hold; nothing was written.`,
        hint: "shorten the judge's reason to a few sentences (docs/judges.md, the verdict's limits).",
      })
    }
    const entry = fixture.cases[at]!
    const judgeable = judgeableCase(fixture, context, at)
    if (!judgeable.ok) {
      throw new RevisionError({
        code: 'BIND_STILL_REFUSED',
        file: label.place,
        summary: `case "${entry.id}" is itself refused, so a label of it would be too (${judgeable.reason}); nothing was written.`,
        hint: `fix the case first (vitest-rubric status ${fixture.displayDir} says how), or leave its label out.`,
      })
    }
    refuseEmptyDraft(label.source, label.at, label.draft)
    const existing = fixture.judges.reviews.get(entry.id)?.get(judge)?.[slot]
    if (existing !== undefined && policy === 'refuse') {
      throw new RevisionError({
        code: 'REVIEW_EXISTS',
        file: label.place,
        summary: `case "${entry.id}" has a label by judge ${judge} already (${file} › reviews[${String(existing.path[1])}]); nothing was written.`,
        hint: 'pass --replace to replace the labels of the cases given, or leave those cases out.',
      })
    }
    const merged = existing !== undefined && policy === 'merge' && isCurrentLabel(definition.bindings, context, entry.value, existing.value, slot)
    // A judgement the current label holds stands: a run judges only what was not current at its start, and one recorded meanwhile
    // (by `review --judge`, or another run) is not replaced without `--replace`.
    const draft = merged ? { ...(isObject(label.draft) ? label.draft : {}), ...definition.authoring.draftOf(existing.value) } : label.draft
    const review = drafted(label.source, label.at, definition.authoring.reviewDraft(slot), draft, (value) =>
      definition.authoring.newReview(context, judgeable.value, slot, value),
    )
    stamp(definition.bindings, 'review', review, context, entry.value, [slot])
    if (existing !== undefined && fingerprint(existing.value) === fingerprint(review)) {
      unchanged++
      continue
    }
    if (existing === undefined) {
      appended.push(review)
      written.push({ at, review, path: ['reviews', count++] })
    } else {
      replacements.set(Number(existing.path[1]), review)
      written.push({ at, review, path: [...existing.path] })
    }
  }
  const result = { dir: fixture.displayDir, judge, file, added: appended.length, replaced: replacements.size, unchanged }
  const origin = options.origin ?? `Labels by the automated judge ${judge}: say which model and which revision of its prompt.`
  const originChanged = options.origin !== undefined && own(fixture.judges.files, judge)?.origin !== options.origin
  if (written.length === 0 && !originChanged) return { ...result, written: [] }
  refuseRefusedLabels(fixture, context, written, file, slot)

  let text = before ?? `${JSON.stringify({ origin, reviews: [] }, null, 2)}\n`
  if (before !== undefined && originChanged) text = applyEdits(text, modify(text, ['origin'], origin, { formattingOptions: FORMAT }))
  text = appendToList(replaceListElements(text, 'reviews', replacements), 'reviews', appended, FORMAT)
  if (options.dryRun === true) return { ...result, written: [] }
  // In the records layout, the labels are new lines of their cases' bucket files, not a judge's file written whole.
  // Compare-and-swap: refused (and made again from the files as they are) when the judge's file changed since it was read.
  return { ...result, written: await revision.write(base, { [relativePath]: text }, options.io) }
}

/** A fixture as a label revision reads it, with the text of every file read: no case is decided, labels decide nothing. */
export type LabelFixture = SomeFixture & {
  /** The text of a file of the fixture directory (`judges/j1.json`) as it was read; `undefined` when it was not (it does not exist). */
  readonly textOf: (relativePath: string) => string | undefined
}

/** @internal */
export async function openForLabels(kinds: KindRegistry, dir: string, cwd: string): Promise<LabelFixture> {
  return (await openLabelRevision(kinds, dir, cwd)).fixture
}

/** The fixture read for a revision of a judge's labels, which is written through that revision as every fixture file is. */
async function openLabelRevision(
  kinds: KindRegistry,
  dir: string,
  cwd: string,
): Promise<{ revision: FixtureRevision; base: RevisionBase; fixture: LabelFixture }> {
  const { revision, base } = await FixtureRevision.open(kinds, dir, cwd)
  const fixture = Object.assign(base.fixture, { textOf: (relativePath: string) => revision.textOf(relativePath, base) })
  return { revision, base, fixture }
}

function labelCount(fixture: SomeFixture, judge: string): number {
  let count = 0
  for (const byAuthor of fixture.judges.reviews.values()) if (byAuthor.has(judge)) count++
  return count
}

const FORMAT = { insertSpaces: true, tabSize: 2, eol: '\n' } as const

/**
 * The case at `index` as its kind parsed it, when a label of it can be made; not when the case
 * itself is refused (malformed, or asking another question than the rubric's task). Its own hashes
 * may be stale: a label is bound to the files as they are, whatever the case records.
 */
export function judgeableCase(
  fixture: SomeFixture,
  context: KindContext<unknown>,
  index: number,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  const definition = fixture.definition
  const entry = fixture.cases[index]!
  const parsed = safeParseReporting(definition.schemas.case, entry.value)
  if (!parsed.success) return { ok: false, reason: `${fixture.files.cases!.display} › ${formatPath(entry.path)}: not a case of this kind` }
  const problem = definition.checkCase(context, parsed.data, { id: entry.id, path: entry.path }).find((each) => each.code === 'QUESTION_MISMATCH')
  return problem === undefined ? { ok: true, value: parsed.data } : { ok: false, reason: problem.summary.replace(/\.$/, '') }
}

/** Whether a label's hashes are those of the answer, source and rubric as they are now: `stamp` would change none of them. */
export function isCurrentLabel(rows: Parameters<typeof stamp>[0], context: KindContext<unknown>, caseValue: unknown, label: unknown, slot: string): boolean {
  // Cast: a stored label is an object: the judge file's schema checked it when it was read.
  const probe = structuredClone(label) as Record<string, unknown>
  try {
    stamp(rows, 'review', probe, context, caseValue, [slot])
  } catch {
    return false
  }
  return rows.every((row) => row.in !== 'review' || valueAt(probe, rowPath(row, slot)) === valueAt(label, rowPath(row, slot)))
}

/** Refuses the revision when a label written would be refused as the fixture checks a judge's label: nothing is written. */
function refuseRefusedLabels(
  fixture: SomeFixture,
  context: KindContext<unknown>,
  written: readonly { at: number; review: unknown; path: PathSegment[] }[],
  file: string,
  slot: string,
): void {
  const definition = fixture.definition
  const site = { casesFile: fixture.files.cases!.display, annotationsFile: file }
  const refusals: string[] = []
  for (const { at, review, path } of written) {
    const entry = fixture.cases[at]!
    const reviews = { [slot]: { caseId: entry.id, slot, value: review, path } }
    const decision = assessEntry(definition, context, entry, reviews, site, undefined, { reviewRowsOnly: true }).decision
    refusals.push(...definition.present.refusals(decision))
    if (refusals.length >= 5) break
  }
  if (refusals.length === 0) return
  throw new RevisionError({
    code: 'DRAFT_INVALID',
    file,
    summary: `the labels would be refused; nothing was written.\n${refusals.map((line) => `    ${line}`).join('\n')}`,
    hint: 'fix what the message names, then record the labels again.',
  })
}

/** `text` with elements of its top-level list `key` replaced, by index, in one pass; each written at the element's indentation. */
function replaceListElements(text: string, key: string, values: ReadonlyMap<number, unknown>): string {
  if (values.size === 0) return text
  const list = parseTree(text)?.children?.find((property) => property.children?.[0]?.value === key)?.children?.[1]
  const elements: readonly Node[] = list?.type === 'array' ? (list.children ?? []) : []
  const parts: string[] = []
  let from = 0
  for (const at of [...values.keys()].sort((a, b) => a - b)) {
    const element = elements[at]
    if (element === undefined) throw new Error(`no element ${at} in ${key}`)
    const indent = text.slice(text.lastIndexOf('\n', element.offset) + 1, element.offset)
    const json = JSON.stringify(values.get(at), null, FORMAT.tabSize)
    parts.push(text.slice(from, element.offset), /^[ \t]*$/.test(indent) ? json.split('\n').join(`\n${indent}`) : JSON.stringify(values.get(at)))
    from = element.offset + element.length
  }
  parts.push(text.slice(from))
  return parts.join('')
}
