import { resolve } from 'node:path'
import { displayPath } from '../core/common/display-path.js'
import { UsageError } from '../core/common/errors.js'
import { fixtureKindsIn } from '../core/engine/fixture.js'
import type { KindRegistry } from '../core/engine/registry.js'
import { slotOptionOf } from '../core/engine/slot-option.js'
import { kinds } from '../core/registry.js'

/** The options that name a review slot, one per kind that has several slots (`--system`): each kind says its own. */
export function slotOptions(registry: KindRegistry = kinds): Record<string, { readonly type: 'string' }> {
  return Object.fromEntries(registry.kinds.flatMap((kind) => (kind.reviews.slots.length > 1 ? [[slotOptionOf(kind), { type: 'string' } as const]] : [])))
}

/**
 * The slot the options name for the fixture in `dir`, by whichever kind's option was given;
 * `undefined` when none was. An option of another kind than the fixture's (`--system` on a criteria
 * fixture, whose cases have one review each) is a usage error naming the option, never a slot
 * looked up under another name. A directory of no one kind is left to the command's load to report.
 */
export async function slotGiven(
  values: Readonly<Record<string, unknown>>,
  dir: string,
  cwd: string,
  registry: KindRegistry = kinds,
): Promise<string | undefined> {
  const given = Object.keys(slotOptions(registry)).flatMap((option) => {
    const slot = values[option]
    return typeof slot === 'string' ? [{ option, slot }] : []
  })
  const [first] = given
  if (first === undefined) return undefined
  const found = await fixtureKindsIn(registry, resolve(cwd, dir))
  const kind = found.length === 1 ? found[0] : undefined
  if (kind === undefined) return first.slot
  const own = kind.reviews.slots.length > 1 ? slotOptionOf(kind) : undefined
  const foreign = given.find((each) => each.option !== own)
  if (foreign === undefined) return first.slot
  throw new UsageError({
    code: 'USAGE',
    file: displayPath(cwd, dir),
    summary:
      own === undefined
        ? `--${foreign.option} does not apply to a ${kind.name} fixture: each of its cases has one review.`
        : `--${foreign.option} does not apply to a ${kind.name} fixture: its option naming a review is --${own}.`,
    hint: own === undefined ? `leave out --${foreign.option}.` : `name the review with --${own} ${kind.reviews.slots.join(` or --${own} `)}.`,
  })
}
