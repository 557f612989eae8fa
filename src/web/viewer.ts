// Who looks at the review page. Types only.

/** Who looks at the page: a reviewer (blind), or an adjudicator or reader (who sees every review). */
export type Viewer =
  | { readonly role: 'reviewer'; readonly name: string }
  | { readonly role: 'adjudicator'; readonly name?: string | undefined }
  | { readonly role: 'reader' }
