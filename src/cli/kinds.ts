import type { KindRegistry } from '../core/engine/registry.js'
import { slotOptionOf } from '../core/engine/slot-option.js'
import { kinds } from '../core/registry.js'
import { INTERACTIVE_ADJUDICATION, INTERACTIVE_REVIEW } from './prompts/index.js'
import type { InteractiveAdjudication, InteractiveReview } from './prompts/prompt.js'

// The terminal prompts of each kind, by kind name: the CLI's own table beside the kind registry
// (`src/core/registry.ts`), since a prompt is a front end's, not a kind's. A kind with none (or one
// the CLI does not ship) is reviewed from a file.
const REVIEWS: ReadonlyMap<string, InteractiveReview | undefined> = new Map(Object.entries(INTERACTIVE_REVIEW))
const ADJUDICATIONS: ReadonlyMap<string, InteractiveAdjudication | undefined> = new Map(Object.entries(INTERACTIVE_ADJUDICATION))

/** The interactive review of a kind; `undefined` when its reviews are recorded from a file. */
export function interactiveReviewOf(kind: string): InteractiveReview | undefined {
  return REVIEWS.get(kind)
}

/** The interactive adjudication of a kind; `undefined` when a review of it is adopted whole (`--take`). */
export function interactiveAdjudicationOf(kind: string): InteractiveAdjudication | undefined {
  return ADJUDICATIONS.get(kind)
}

/** The options that name a review slot, one per kind that has several slots (`--system`): each kind says its own. */
export function slotOptions(registry: KindRegistry = kinds): Record<string, { readonly type: 'string' }> {
  return Object.fromEntries(registry.kinds.flatMap((kind) => (kind.reviews.slots.length > 1 ? [[slotOptionOf(kind), { type: 'string' } as const]] : [])))
}

/** The slot the options name, by whichever kind's option was given; `undefined` when none was. */
export function slotGiven(values: Readonly<Record<string, unknown>>, registry: KindRegistry = kinds): string | undefined {
  for (const option of Object.keys(slotOptions(registry))) {
    const value = values[option]
    if (typeof value === 'string') return value
  }
  return undefined
}
