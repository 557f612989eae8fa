import { isObject } from '../../common/primitives.js'
import { jsonStructureProblem } from '../../json/json-structure.js'

/** What changed between the rubric a judgement was made under and the rubric as it is now. */
export interface RubricChanges {
  /**
   * Set when the change reaches every criterion (the task, the acceptance rule or the ratings
   * changed, or the old rubric cannot be read): every judgement must be made again.
   */
  readonly everything: string | undefined
  /** Criteria of both revisions whose rule or reference quote differ, with what differs. */
  readonly changed: readonly { readonly criterion: string; readonly parts: readonly ('rule' | 'reference quote')[] }[]
  /** Criteria only the current rubric has. */
  readonly added: readonly string[]
  /** Criteria only the old rubric had. */
  readonly removed: readonly string[]
  /** Criteria of both revisions with the same rule and reference quote: a judgement of them still reads the same text. */
  readonly unchanged: readonly string[]
}

interface CriterionText {
  readonly id: string
  readonly rule: unknown
  readonly quote: unknown
}

/**
 * Compares two revisions of a criteria `rubric.json`, criterion by criterion, by their text. The old
 * revision is read leniently (it may not pass today's checks): what cannot be read, or a change of
 * the task, the acceptance rule or the ratings, reaches every criterion. Nothing here re-binds a
 * judgement: it only tells a reviewer which criteria to read again.
 */
export function rubricChanges(old: Uint8Array, current: Uint8Array): RubricChanges {
  const before = readRubric(old)
  const after = readRubric(current)
  const none = { changed: [], added: [], removed: [], unchanged: [] }
  if (before === undefined || after === undefined) return { everything: 'the earlier rubric cannot be read', ...none }
  for (const field of ['task', 'acceptance', 'ratings'] as const) {
    if (JSON.stringify(before.document[field]) !== JSON.stringify(after.document[field])) return { everything: `the rubric's ${field} changed`, ...none }
  }
  const earlier = new Map(before.criteria.map((criterion) => [criterion.id, criterion]))
  const changed: { criterion: string; parts: ('rule' | 'reference quote')[] }[] = []
  const added: string[] = []
  const unchanged: string[] = []
  for (const criterion of after.criteria) {
    const was = earlier.get(criterion.id)
    if (was === undefined) {
      added.push(criterion.id)
      continue
    }
    const parts: ('rule' | 'reference quote')[] = []
    if (was.rule !== criterion.rule) parts.push('rule')
    if (was.quote !== criterion.quote) parts.push('reference quote')
    if (parts.length === 0) unchanged.push(criterion.id)
    else changed.push({ criterion: criterion.id, parts })
  }
  const now = new Set(after.criteria.map((criterion) => criterion.id))
  const removed = before.criteria.map((criterion) => criterion.id).filter((id) => !now.has(id))
  return { everything: undefined, changed, added, removed, unchanged }
}

/** `rule of support reworded; command, preconditions, database_scope, verification unchanged`. */
export function describeRubricChanges(changes: RubricChanges): string {
  if (changes.everything !== undefined) return `${changes.everything}: re-read every criterion`
  const parts = [
    ...changes.changed.map(({ criterion, parts: what }) => `${what.join(' and ')} of ${criterion} reworded`),
    ...changes.added.map((criterion) => `${criterion} added`),
    ...changes.removed.map((criterion) => `${criterion} removed`),
  ]
  if (parts.length === 0) parts.push('no criterion reworded (only the layout or another field changed)')
  if (changes.unchanged.length > 0) parts.push(`${changes.unchanged.join(', ')} unchanged`)
  return parts.join('; ')
}

function readRubric(bytes: Uint8Array): { document: Record<string, unknown>; criteria: CriterionText[] } | undefined {
  let document: unknown
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '')
    document = JSON.parse(text)
    // A revision nested too deep for JSON.stringify to compare, or holding a key twice, cannot be read as one rubric.
    if (jsonStructureProblem(text) !== undefined) return undefined
  } catch {
    return undefined
  }
  if (!isObject(document) || !Array.isArray(document['criteria'])) return undefined
  const criteria: CriterionText[] = []
  for (const criterion of document['criteria']) {
    if (!isObject(criterion) || typeof criterion['id'] !== 'string') return undefined
    criteria.push({ id: criterion['id'], rule: criterion['rule'], quote: criterion['reference_quote'] })
  }
  return { document, criteria }
}
