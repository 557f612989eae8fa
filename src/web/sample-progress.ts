import { RubricError } from '../core/common/errors.js'
import type { SomeEvaluation } from '../core/engine/evaluate.js'
import { readSampleFile, SAMPLE_FILE } from '../core/sample/sample-file.js'
import { samplePlace } from '../core/sample/sample.js'
import type { PageSampleProgress } from './estimate-protocol.js'
import type { Viewer } from './viewer.js'

/**
 * How far the review of a fixture's sample (`sample.json`) has come: its cases, those with a review
 * (the adopted review, or any independent one), those decided and those still pending, and for a
 * reviewer those they reviewed. Counts only, so a blind reviewer is shown them too: no case and no
 * judgement is named. `null` without a sample, or with one that cannot be read (the estimate says why).
 */
export async function sampleProgress(evaluation: SomeEvaluation, viewer: Viewer): Promise<PageSampleProgress | null> {
  const { fixture } = evaluation
  const place = samplePlace(fixture, fixture.dir)
  const read = await readSampleFile(place).catch((error: unknown) => {
    if (error instanceof RubricError) return undefined
    throw error
  })
  if (read?.sample === undefined) return null
  const positions = new Map(fixture.cases.map((entry, position) => [entry.id, position]))
  const counts = { sampled: 0, reviewed: 0, decided: 0, yours: 0 }
  for (const { id } of read.sample.cases) {
    const position = positions.get(id)
    // A sampled case no longer in the fixture is `estimate`'s to name; it is no work left here.
    if (position === undefined) continue
    counts.sampled++
    const independent = fixture.panel.reviews.get(id)
    if (fixture.reviews.has(id) || (independent?.size ?? 0) > 0) counts.reviewed++
    const status = evaluation.decisions[position]?.status
    if (status === 'accepted' || status === 'rejected') counts.decided++
    if (viewer.role === 'reviewer' && independent?.has(viewer.name) === true) counts.yours++
  }
  return {
    file: `${place.displayDir}/${SAMPLE_FILE}`,
    sampled: counts.sampled,
    reviewed: counts.reviewed,
    decided: counts.decided,
    pending: counts.sampled - counts.decided,
    yours: viewer.role === 'reviewer' ? counts.yours : null,
  }
}
