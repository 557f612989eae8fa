import type { KindRegistry } from '../core/engine/registry.js'
import { slotOptionOf } from '../core/engine/slot-option.js'
import { kinds } from '../core/registry.js'

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
