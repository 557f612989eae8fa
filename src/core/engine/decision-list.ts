import type { Decision } from '../contract/decision.js'
import type { DecisionChange } from './incremental-patch.js'

/** How many saves' changes a list holds before it is made: a chain of them stays short, whoever reads it. */
const LONGEST_CHAIN = 32

/**
 * The decisions of an incremental evaluation, in the order of `cases.json`: the list of an earlier
 * evaluation with the cases decided again since put in place, made when first read. A save's
 * evaluation is given without a copy of every decision (0.8 MB at 100,000 cases), and the list
 * made at a read copies the nearest one made before once, whatever the number of saves between.
 */
export class DecisionList {
  private constructor(
    private made: readonly Decision[] | undefined,
    private before: DecisionList | undefined,
    private readonly changes: readonly Pick<DecisionChange, 'position' | 'after'>[],
    private depth: number,
  ) {}

  /** The list `decisions`, as made. */
  static of(decisions: readonly Decision[]): DecisionList {
    return new DecisionList(decisions, undefined, [], 0)
  }

  /** This list with the decisions of `changes` put in place: a new list, this one left as it is. */
  patched(changes: readonly Pick<DecisionChange, 'position' | 'after'>[]): DecisionList {
    const next = new DecisionList(undefined, this, changes, this.depth + 1)
    if (next.depth >= LONGEST_CHAIN) void next.list
    return next
  }

  /** The decisions, made when first read. */
  get list(): readonly Decision[] {
    if (this.made !== undefined) return this.made
    const links: DecisionList[] = []
    let made: readonly Decision[] | undefined
    for (let at: DecisionList | undefined = this; made === undefined && at !== undefined; at = at.before) {
      if (at.made === undefined) links.push(at)
      else made = at.made
    }
    // The first list of a chain is made when it is created: every chain ends in one.
    if (made === undefined) throw new TypeError('a list of decisions with no list made before it')
    const list = made.slice()
    for (const link of links.reverse()) for (const { position, after } of link.changes) list[position] = after
    this.made = list
    // Made: the lists before it are no longer read through this one.
    this.before = undefined
    this.depth = 0
    return list
  }
}
