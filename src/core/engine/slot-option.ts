/** The command-line option that names a slot of a kind with several (`system`): the kind's own, else its reviews' slot key. */
export function slotOptionOf(definition: { readonly reviews: { readonly slotOption?: string; readonly slotKey?: string } }): string {
  return definition.reviews.slotOption ?? definition.reviews.slotKey ?? 'slot'
}
