import { adjudicateCase } from '../../core/engine/adjudicate.js'
import { PAGE_SOURCE, saveRoute } from './save.js'

/** `POST /api/adjudicate`: adopts the draft as the case's review, under the adjudicator's name (`page` when none is given). */
export const saveAdjudication = saveRoute({
  path: '/api/adjudicate',
  write: async (dir, save, writing) => {
    const result = await adjudicateCase(dir, { ...writing, adjudicator: save.adjudicator ?? 'page', written: save.draft }, PAGE_SOURCE)
    return { action: 'adjudicate', person: save.adjudicator, change: 'adopted', decision: result.adopted[0]?.decision ?? 'adopted' }
  },
  viewer: (save) => ({ role: 'adjudicator', name: save.adjudicator }),
})
