import { recordReview } from '../../core/engine/authoring/review.js'
import { PAGE_SOURCE, saveRoute } from './save.js'

/**
 * `POST /api/review`: records a review of a case, the adopted one or (with `reviewer`) an
 * independent reviewer's; with a team, always the reviewer's own.
 */
export const saveReview = saveRoute({
  path: '/api/review',
  write: async (dir, save, writing) => {
    const reviewer = save.reviewer === undefined ? {} : { reviewer: save.reviewer }
    const recorded = await recordReview(dir, save.draft, PAGE_SOURCE, { ...writing, replace: save.replace, ...reviewer })
    const decisionOf = save.reviewer !== undefined ? 'alone' : recorded.decides ? 'case' : 'unchanged'
    return { action: 'review', person: save.reviewer, change: recorded.before === null ? 'new' : 'replaced', decision: recorded.decision, decisionOf }
  },
  viewer: (save) => (save.reviewer === undefined ? { role: 'reader' } : { role: 'reviewer', name: save.reviewer }),
})
