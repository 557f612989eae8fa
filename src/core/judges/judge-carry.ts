import { valueAt } from '../common/json-path.js'
import { isShallowRepository } from '../engine/file-history.js'
import { carriedOver, fixtureHistory, NO_HISTORY } from '../engine/fixture-history.js'
import type { SomeFixture } from '../engine/fixture.js'
import type { KindContext, KindJudging } from '../contract/kind.js'
import { isCurrentLabel } from './judge-labels.js'

/** The labels of a per-criterion judge that a run carries over rather than calls again. */
export interface CarriedLabels {
  /** By case id, the judgements kept. */
  readonly judgements: ReadonlyMap<string, Readonly<Record<string, unknown>>>
  /** The earlier rubrics they were bound to, as the origin names them: `3a8dcd22e9f4… (1a2b3c4)`. */
  readonly from: ReadonlySet<string>
  /** Judgements kept, over every case. */
  readonly count: number
  /**
   * Cases whose stale label was bound to an earlier rubric that a shallow clone's history does not
   * hold: nothing of them is carried over. 0 in a full clone (an earlier rubric never committed is
   * not looked for further).
   */
  readonly shallow: number
}

/**
 * The judgements of a judge's stale labels that read the same text now: a judge called once per
 * criterion judged each criterion on its own text, so a label of a criterion whose rule and
 * reference quote a rubric revision left unchanged is what it would say again. Only a label bound
 * to an earlier rubric found in git is read this way; a label whose answer or source changed keeps
 * nothing (see `carriedOver`). Only the cases `covered` are read: a sharded run carries over its own.
 */
export async function carriedLabels(
  fixture: SomeFixture,
  context: KindContext<unknown>,
  judging: KindJudging<unknown, unknown>,
  judge: string,
  file: string,
  covered: (caseId: string) => boolean = () => true,
): Promise<CarriedLabels> {
  const labels = [...fixture.judges.reviews.values()].flatMap((byJudge) => Object.values(byJudge.get(judge) ?? {}))
  const history = labels.length === 0 ? NO_HISTORY : await fixtureHistory(fixture, labels)
  const judgements = new Map<string, Record<string, unknown>>()
  const from = new Set<string>()
  let count = 0
  let unfound = 0
  if (history === NO_HISTORY) return { judgements, from, count, shallow: 0 }
  for (const entry of fixture.cases) {
    if (!covered(entry.id)) continue
    const label = fixture.judges.reviews.get(entry.id)?.get(judge)?.['review']
    if (label === undefined || isCurrentLabel(fixture.definition.bindings, context, entry.value, label.value, 'review')) continue
    const bound = valueAt(label.value, ['rubric_sha256'])
    if (typeof bound === 'string' && bound !== fixture.files.rubric.sha256 && history.find('rubric', bound) === undefined) unfound++
    const { items } = carriedOver(fixture, entry, { ...label, file }, history)
    const written = judging.judgementsOf(label.value)
    const kept: Record<string, unknown> = {}
    for (const id of items) {
      const judgement = judging.redraft(written[id])
      if (judgement !== undefined) kept[id] = judgement
    }
    if (Object.keys(kept).length === 0) continue
    judgements.set(entry.id, kept)
    count += Object.keys(kept).length
    const recorded = valueAt(label.value, ['rubric_sha256'])
    const found = typeof recorded === 'string' ? history.find('rubric', recorded) : undefined
    if (typeof recorded === 'string' && found !== undefined) from.add(`${recorded.slice(0, 12)}… (${found.commit.slice(0, 7)})`)
  }
  // Only a shallow clone is told apart: there the earlier rubric is likely committed, but not fetched.
  const shallow = unfound > 0 && (await isShallowRepository(fixture.dir)) ? unfound : 0
  return { judgements, from, count, shallow }
}

/** A run's origin with what it carried over said, in place of what an earlier run's origin said of its own carrying over. */
export function carriedOrigin(origin: string | undefined, carried: CarriedLabels, fixture: SomeFixture, context: KindContext<unknown>): string {
  const base = (origin ?? '').replace(/; carried over \d+ labels? .*$/, '')
  const now = context.files.rubric?.sha256.slice(0, 12) ?? ''
  const labels = `${carried.count} ${carried.count === 1 ? 'label' : 'labels'}`
  const note = `carried over ${labels} of ${fixture.definition.panel.words.items} a rubric revision left unchanged, from ${fixture.files.rubric.name} ${[...carried.from].join(', ')}, re-bound to ${now}…`
  return base === '' ? `Labels by an automated judge; ${note}` : `${base}; ${note}`
}
