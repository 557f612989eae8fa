// Who looks at the review page, and how a request of the page of one person names them.
import { REVIEWER_NAME, reviewerName } from '../core/engine/panel.js'
import { RequestError } from './request.js'

/** Who looks at the page: a reviewer (blind), or an adjudicator or reader (who sees every review). */
export type Viewer =
  | { readonly role: 'reviewer'; readonly name: string }
  | { readonly role: 'adjudicator'; readonly name?: string | undefined }
  | { readonly role: 'reader' }

/** The viewer a request of the page of one person names (`viewer=reader|reviewer:<name>|adjudicator:<name>`). */
export function viewerOf(text: string | null): Viewer {
  if (text === null || text === '' || text === 'reader') return { role: 'reader' }
  const [role, ...rest] = text.split(':')
  const name = reviewerName(rest.join(':'))
  if ((role === 'reviewer' || role === 'adjudicator') && REVIEWER_NAME.test(name)) return { role, name }
  throw new RequestError('BAD_REQUEST', `viewer must be "reader", "reviewer:<name>" or "adjudicator:<name>", with a name of letters, digits, ".", "_" and "-".`)
}
