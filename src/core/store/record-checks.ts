// What a line of a record file must hold to be a record: the members each kind of line has, and
// the provenance every line carries, checked as read (docs/format.md#the-records-layout).
import { isObject } from '../common/primitives.js'

const PROVENANCE = (value: Record<string, unknown>) =>
  typeof value['save'] === 'string' &&
  SAVE.test(value['save']) &&
  typeof value['at'] === 'string' &&
  ISO_TIME.test(value['at']) &&
  typeof value['by'] === 'string' &&
  value['by'] !== '' &&
  isHashList(value['replaces'])

/** A save's token as newProvenance (records.ts) makes it, and as `resolve --keep` names it: 12 hexadecimal digits. */
const SAVE = /^[0-9a-f]{12}$/
/** A time as `Date.prototype.toISOString` writes it. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/

/** The members each kind of line may hold: a member no writer writes is no record's, and would be dropped by the next rewrite. */
const DOCUMENT_MEMBERS = new Set(['doc', 'list', 'members', 'style', 'replaces', 'save', 'at', 'by'])
const ITEM_MEMBERS = new Set(['doc', 'case', 'slot', 'n', 'item', 'removed', 'replaces', 'save', 'at', 'by'])
const COMPACTION_MEMBERS = new Set(['superseded', 'save', 'at', 'by'])

/** The first member of `value` that `allowed` does not hold; `undefined` when there is none. */
function unknownMember(value: Record<string, unknown>, allowed: ReadonlySet<string>): string | undefined {
  for (const key in value) if (!allowed.has(key)) return key
  return undefined
}

const PROVENANCE_TEXT = 'save (12 hexadecimal digits), at (an ISO time such as 2026-12-07T09:00:00.000Z) and by (who saved)'

function isHashList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((each) => typeof each === 'string' && /^[0-9a-f]{64}$/.test(each))
}

export function checkDocumentRecord(value: unknown): string | undefined {
  if (!isObject(value)) return 'a document record is a JSON object.'
  const style = value['style']
  if (
    typeof value['doc'] !== 'string' ||
    typeof value['list'] !== 'string' ||
    !isObject(value['members']) ||
    !Array.isArray(value['members'][value['list']]) ||
    !isObject(style) ||
    typeof style['indent'] !== 'number' ||
    typeof style['ascii'] !== 'boolean' ||
    typeof style['newline'] !== 'boolean' ||
    !PROVENANCE(value)
  )
    return `a document record holds doc, list, members (with the list as []), style { indent, ascii, newline }, replaces, ${PROVENANCE_TEXT}.`
  const unknown = unknownMember(value, DOCUMENT_MEMBERS)
  return unknown === undefined ? undefined : `a document record holds no member ${JSON.stringify(unknown)}.`
}

export function checkItemRecord(value: unknown): string | undefined {
  if (!isObject(value)) return 'an item record is a JSON object.'
  if (
    typeof value['doc'] !== 'string' ||
    typeof value['case'] !== 'string' ||
    (value['slot'] !== undefined && typeof value['slot'] !== 'string') ||
    typeof value['n'] !== 'number' ||
    !Number.isSafeInteger(value['n']) ||
    'item' in value === (value['removed'] === true) ||
    !PROVENANCE(value)
  )
    return `an item record holds doc, case, an optional slot, n, either item or "removed": true, replaces, ${PROVENANCE_TEXT}.`
  const unknown = unknownMember(value, ITEM_MEMBERS)
  return unknown === undefined ? undefined : `an item record holds no member ${JSON.stringify(unknown)}.`
}

/** Whether a line read as `{ superseded, … }` is a compaction line as `compact` writes it. */
export function isCompactionLine(value: Record<string, unknown>): value is Record<string, unknown> & { readonly superseded: readonly string[] } {
  return isHashList(value['superseded']) && PROVENANCE({ ...value, replaces: [] }) && unknownMember(value, COMPACTION_MEMBERS) === undefined
}
