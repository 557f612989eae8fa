import { RevisionError } from '../common/errors.js'
import type { Folded } from './fold.js'
import { CASES_DOC, type ItemRecord, type Stored } from './records.js'

/** A record as a message names it: `reviews/alice.json of case "complete"`, or `case "complete"` for the case itself. */
export function describeItem(record: ItemRecord): string {
  const slot = record.slot === undefined ? '' : ` (${record.slot})`
  if (record.doc === CASES_DOC) return `case ${JSON.stringify(record.case)}${slot}`
  const what = record.doc === 'annotations.json' ? 'the adopted review' : record.doc
  return `${what} of case ${JSON.stringify(record.case)}${slot}`
}

/**
 * The revision kept of each forked record of a case, in order: the one made by one of `saves`. The
 * saves together must settle every forked record exactly once, and each must settle one at least
 * (alice's save keeps her review, bob's his); anything else is refused, naming the record and the
 * saves that revised it. `file` is the bucket file a refusal names.
 */
export function keptRevisions(caseId: string, forked: readonly Folded<ItemRecord>[], saves: readonly string[], file: string): Stored<ItemRecord>[] {
  const refuse = (summary: string, expected: string, hint: string) =>
    new RevisionError({ code: 'RECORDS_FORKED', file, caseId, summary: `${summary}; nothing was written.`, expected, hint })
  const savesOf = (folded: Folded<ItemRecord>) => folded.heads.map((head) => head.record.save)
  const given = saves.length === 1 ? `save ${saves[0]}` : `any of the saves ${saves.join(', ')}`
  const kept: Stored<ItemRecord>[] = []
  for (const folded of forked) {
    const heads = saves.flatMap((save) => folded.heads.find((head) => head.record.save === save) ?? [])
    const record = describeItem(folded.heads[0]!.record)
    if (heads.length === 0) {
      throw refuse(
        `no revision of ${record} was made by ${given}`,
        `one of the saves ${savesOf(folded).join(', ')}`,
        'add a --keep naming one of those saves: every forked record of the case needs the save whose revision is kept, one --keep for each save (`vitest-rubric status` lists them).',
      )
    }
    if (heads.length > 1) {
      const both = heads.map((head) => head.record.save)
      throw refuse(
        `saves ${both.slice(0, -1).join(', ')} and ${both.at(-1)} both made a revision of ${record}, so which one holds would be a guess`,
        `one of the saves ${both.join(', ')} for ${record}`,
        'keep one revision of each record: drop the --keep of the save whose revision of it is not kept.',
      )
    }
    kept.push(heads[0]!)
  }
  const stray = saves.find((save) => !kept.some((head) => head.record.save === save))
  if (stray !== undefined) {
    throw refuse(
      `save ${stray} made no revision of a forked record of case ${JSON.stringify(caseId)}`,
      `saves that made one: ${forked.map((folded) => `${describeItem(folded.heads[0]!.record)}: ${savesOf(folded).join(', ')}`).join('; ')}`,
      'name only saves that `vitest-rubric status` lists for the case, one --keep for each save whose revisions are kept.',
    )
  }
  return kept
}
