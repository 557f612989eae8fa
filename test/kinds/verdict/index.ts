import { z } from 'zod'
import { FixtureError } from '../../../src/core/common/errors.js'
import { SchemaReferenceSchema, type Split } from '../../../src/core/common/primitives.js'
import { acknowledgementRow } from '../../../src/core/engine/bindings.js'
import type { BindingRow } from '../../../src/core/contract/bindings.js'
import type { RefusedDecision } from '../../../src/core/contract/decision.js'
import { ReviewFileEnvelopeSchema } from '../../../src/core/engine/documents.js'
import type { KindDefinition, PanelItem } from '../../../src/core/contract/kind.js'
import { parseJsonFile } from '../../../src/core/json/read.js'
import { schemaError } from '../../../src/core/json/schema-error.js'
import { verdictComparison } from './compare.js'
import { verdictJudging } from './judge.js'
import { verdictMatchers } from './matchers.js'

// A third kind of fixture, as small as a kind can be: one yes-or-no question (`verdict.json`),
// cases that each hold an answer, and reviews that each say `yes`, `no` or `unsure` about it.
// It lives only here, so that a test shows a kind is its folder and one registry entry.

const RATINGS = ['yes', 'no', 'unsure'] as const
const SHA256 = z.string().regex(/^[0-9a-f]{64}$/)
const PLACEHOLDER = ''

const VerdictRubricSchema = z.strictObject({
  $schema: SchemaReferenceSchema.optional(),
  id: z.string().min(1),
  version: z.number().int(),
  question: z.string().min(1),
})
export type VerdictRubric = z.infer<typeof VerdictRubricSchema>

const CaseSchema = z.strictObject({
  id: z.string().min(1),
  split: z.enum(['development', 'held_out']).optional(),
  answer: z.strictObject({ text: z.string() }),
  expected: z.strictObject({ rubric_sha256: SHA256, review_sha256: SHA256 }),
})
export type VerdictCase = z.infer<typeof CaseSchema>

const ReviewSchema = z.strictObject({ case_id: z.string(), answer_sha256: SHA256, rubric_sha256: SHA256, verdict: z.enum(RATINGS), reason: z.string().min(1) })
export type VerdictReview = z.infer<typeof ReviewSchema>

const CasesEnvelopeSchema = z.strictObject({ $schema: SchemaReferenceSchema.optional(), name: z.string().min(1), cases: z.array(z.unknown()) })
const ReviewDraftSchema = z.strictObject({ verdict: z.string(), reason: z.string() })
const CaseDraftSchema = z.strictObject({ id: z.string().min(1), answer: z.string() })

interface Common {
  readonly id: string
  readonly split: Split
}
export type VerdictDecision =
  | (Common & { readonly status: 'accepted'; readonly reason: ''; readonly verdict: 'yes' })
  | (Common & { readonly status: 'rejected'; readonly reason: string; readonly verdict: 'no' })
  | (Common & { readonly status: 'pending'; readonly reason: string; readonly verdict: 'unsure' | null })
  | RefusedDecision

const BINDINGS: readonly BindingRow[] = [
  {
    in: 'case',
    path: ['expected', 'rubric_sha256'],
    source: { bytesOf: 'rubric' },
    target: 'question',
    code: 'CASE_RUBRIC_STALE',
    meaning: 'the question changed since the case was written',
    fix: 'review the answer against the changed question',
  },
  acknowledgementRow(['expected', 'review_sha256']),
  {
    in: 'review',
    path: ['answer_sha256'],
    source: { fingerprintOf: () => ['answer'] },
    target: 'answer',
    code: 'REVIEW_ANSWER_STALE',
    meaning: 'the answer changed since it was reviewed',
    fix: 're-read the answer and revise the review',
  },
  {
    in: 'review',
    path: ['rubric_sha256'],
    source: { bytesOf: 'rubric' },
    target: 'question',
    code: 'REVIEW_RUBRIC_STALE',
    meaning: 'the question changed since the review answered it',
    fix: 'answer the changed question',
  },
]

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}

export const verdictKind: KindDefinition<VerdictRubric, VerdictCase, VerdictReview, VerdictDecision, null> = {
  name: 'verdict',
  description: 'one yes-or-no question per answer (verdict.json, cases.json, annotations.json)',
  files: { rubric: 'verdict.json', cases: 'cases.json', annotations: 'annotations.json' },
  bindRubric({ rubric }) {
    const parsed = VerdictRubricSchema.safeParse(parseJsonFile(rubric))
    if (!parsed.success)
      throw schemaError(
        { ErrorClass: FixtureError, code: 'FILE_SCHEMA', file: rubric.display, basePath: [], hint: 'verdict.json holds id, version and question.' },
        parsed.error.issues,
      )
    return parsed.data
  },
  schemas: {
    casesEnvelope: CasesEnvelopeSchema,
    annotationsEnvelope: ReviewFileEnvelopeSchema,
    case: CaseSchema,
    review: () => ReviewSchema,
    caseHint: 'a case holds id, answer { text } and expected { rubric_sha256, review_sha256 }.',
    reviewHint: () => 'a review holds case_id, answer_sha256, rubric_sha256, verdict ("yes", "no" or "unsure") and a reason.',
    casesHint: 'cases.json holds name and a list of cases.',
    annotationsHint: 'annotations.json holds origin and a list of reviews.',
    jsonSchemas: [],
  },
  reviews: { caseKey: 'case_id', slots: ['review'], slotName: () => 'a review' },
  splitOf: (value) => (record(value)['split'] === 'held_out' ? 'held_out' : 'development'),
  bindings: BINDINGS,
  targets: {
    answer: { title: 'stale answer', action: 'the answer changed since its review: re-read it' },
    question: { title: 'stale question', action: 'the question changed: answer it again' },
  },
  checkCase: () => [],
  checkReview: () => [],
  decide(_context, input) {
    const { id, split } = input
    if (input.case.status === 'refused') return { status: 'refused', id, split, reason: input.case.reason, error: input.case.error }
    const slot = input.slots['review']
    if (slot === undefined || slot.status === 'absent') return { status: 'pending', id, split, reason: 'no review', verdict: null }
    if (slot.status === 'refused') return { status: 'refused', id, split, reason: slot.reason, error: slot.error }
    const { verdict, reason } = slot.review
    if (verdict === 'yes') return { status: 'accepted', id, split, reason: '', verdict }
    if (verdict === 'no') return { status: 'rejected', id, split, reason, verdict }
    return { status: 'pending', id, split, reason: `unsure: ${reason}`, verdict }
  },
  summarize: () => null,
  present: {
    rubricName: ({ rubric }) => `${rubric.id}@${rubric.version}`,
    plannedCase: (decision) => ({
      detail: { verdict: decision.status === 'refused' ? null : decision.verdict },
      ...(decision.status === 'refused' ? { message: decision.error.message } : {}),
    }),
    checks: () => [],
    decisionJson: (decision) => (decision.status === 'refused' ? { verdict: null, error: decision.error } : { verdict: decision.verdict }),
    summaryJson: () => undefined,
    pendingFindings: (decision) =>
      decision.status !== 'pending' ? [] : [{ group: decision.verdict === null ? 'unreviewed' : 'unsure', detail: decision.reason }],
    refusals: (decision) => (decision.status === 'refused' ? [decision.error.message] : []),
    extraFindings: () => [],
    pendingGroups: {
      unreviewed: { title: 'unreviewed', action: 'review the answer' },
      unsure: { title: 'unsure', action: 'settle the verdict' },
    },
    words: { positive: 'yes', negative: 'no', graded: 'answered', pending: 'open' },
    evaluationLines: () => [],
    reportLines: () => [],
    markdownLines: () => [],
    showCase: (_context, caseValue, reviews) => ({ json: { case: caseValue, reviews }, lines: [] }),
  },
  scaffold: {
    skeleton: (name) => ({ 'verdict.json': `${JSON.stringify({ id: name, version: 1, question: 'Is the answer right?' }, null, 2)}\n` }),
    rubricFiles: ['verdict.json'],
    emptyCases: (name) => ({ name, cases: [] }),
    emptyAnnotations: () => ({ origin: 'reviewers', reviews: [] }),
    nextSteps: (dir) => [`  vitest-rubric add ${dir} --id <id> --answer <text>`],
  },
  authoring: {
    caseDraft: CaseDraftSchema,
    newCase(_context, value) {
      const draft = CaseDraftSchema.parse(value)
      return { value: { id: draft.id, answer: { text: draft.answer }, expected: { rubric_sha256: PLACEHOLDER, review_sha256: PLACEHOLDER } }, problems: [] }
    },
    reviewDraft: () => ReviewDraftSchema,
    newReview(_context, theCase, _slot, value) {
      const draft = ReviewDraftSchema.parse(value)
      if (!RATINGS.some((rating) => rating === draft.verdict))
        return {
          problems: [{ path: ['verdict'], summary: `"${draft.verdict}" is not a verdict.`, expected: 'yes, no or unsure', hint: 'answer yes, no or unsure.' }],
        }
      return {
        value: { case_id: theCase.id, answer_sha256: PLACEHOLDER, rubric_sha256: PLACEHOLDER, verdict: draft.verdict, reason: draft.reason },
        problems: [],
      }
    },
    summarizeReview: (review) => ({ verdict: String(record(review)['verdict'] ?? '?') }),
    draftOf: (review) => ({ verdict: record(review)['verdict'], reason: record(review)['reason'] }),
    draftByItem: false,
  },
  panel: {
    level: 'nominal',
    words: { item: 'question', items: 'questions', scale: 'nominal alpha over yes / no, unsure missing' },
    categories: ['yes', 'no'],
    calibration: { pass: 'yes', fail: 'no', undecided: 'unsure' },
    order: () => ['verdict'],
    items(_context, decision): Readonly<Record<string, PanelItem>> {
      if (decision.status === 'refused' || decision.verdict === null) return {}
      return { verdict: { shown: decision.verdict, value: decision.verdict === 'unsure' ? null : decision.verdict, settled: decision.verdict !== 'unsure' } }
    },
    pending: (_context, { id, split }, reason) => ({ status: 'pending', id, split, reason, verdict: null }),
    refuse: (_context, { id, split }, refusal) => ({ status: 'refused', id, split, reason: refusal.reason, error: refusal.error }),
    unreviewed: (_context, { id, split }, reason) => ({ status: 'pending', id, split, reason, verdict: null }),
  },
  compare: verdictComparison,
  judging: verdictJudging,
  // Loaded when a terminal asks, as the shipped kinds' prompts are.
  terminal: {
    review: async (target, terminal, record) => (await import('./terminal.js')).promptVerdictReview(target, terminal, record),
  },
  matchers: verdictMatchers,
  page: {
    view: 'table',
    ratings: [],
    row: (_context, caseValue, decision) => ({
      failed: decision.status === 'rejected' ? ['verdict'] : [],
      uncertain: [],
      missing: [],
      text: String(record(record(caseValue)['answer'])['text'] ?? ''),
    }),
    waiting: (decision) => (decision.status === 'pending' && decision.verdict === null ? 'no review' : 'other'),
    caseView: (_context, caseValue) => ({
      question: null,
      answer: String(record(record(caseValue)['answer'])['text'] ?? ''),
      citation: null,
      source: null,
      criteria: [],
    }),
    judgements: () => ({}),
    table: (decision) => ({
      caption: 'verdict',
      head: ['verdict'],
      rows: [{ cells: [decision.status === 'refused' ? '—' : (decision.verdict ?? '—')], low: decision.status === 'rejected' }],
    }),
  },
}
