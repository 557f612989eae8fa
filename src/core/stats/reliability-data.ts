import { StatisticsInputError } from './errors.js'

/** One coder's value for one unit: a category label, or a number on a scale. */
export type Rating = string | number

/**
 * Reliability data: one entry per unit (the thing judged, e.g. an answer against a criterion),
 * each an array with one value per coder, `null` where that coder gave none. Units may have
 * different lengths; only the values present matter, not which coder gave them.
 */
export type ReliabilityData = readonly (readonly (Rating | null)[])[]

/** A rating as shown in a message or a reason: strings quoted, numbers as written. */
export function describeRating(value: Rating): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}

function describeFound(value: unknown): string {
  if (value === undefined) return 'undefined (write null for a missing value)'
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') return JSON.stringify(value)
  if (value === null) return 'null'
  return Array.isArray(value) ? 'an array' : typeof value
}

/**
 * The values present in each unit, after checking that every value is a string, a finite number
 * or `null`, and that strings and numbers are not mixed: `"1"` and `1` would count as two
 * categories, a disagreement no coder intended.
 */
export function presentValues(units: ReliabilityData, caller: string, name = 'units'): Rating[][] {
  if (!Array.isArray(units)) {
    throw new StatisticsInputError(`${caller}: expected ${name} as an array of arrays of values; found ${describeFound(units)}`)
  }
  let firstKind: { kind: 'string' | 'number'; at: string } | null = null
  return units.map((unit: unknown, unitIndex) => {
    if (!Array.isArray(unit)) {
      throw new StatisticsInputError(`${caller}: ${name}[${unitIndex}] must be an array of values, one per coder; found ${describeFound(unit)}`)
    }
    const present: Rating[] = []
    // A for loop rather than forEach so that holes in a sparse array are seen (as undefined).
    for (let coder = 0; coder < unit.length; coder++) {
      const value: unknown = unit[coder]
      const at = `${name}[${unitIndex}][${coder}]`
      if (value === null) continue
      const kind = typeof value === 'string' ? 'string' : typeof value === 'number' && Number.isFinite(value) ? 'number' : null
      if (kind === null || (typeof value !== 'string' && typeof value !== 'number')) {
        throw new StatisticsInputError(`${caller}: ${at} must be a string, a finite number or null (missing); found ${describeFound(value)}`)
      }
      if (firstKind === null) firstKind = { kind, at }
      else if (firstKind.kind !== kind) {
        throw new StatisticsInputError(
          `${caller}: ${at} is a ${kind} but ${firstKind.at} is a ${firstKind.kind}; use one type for all values (e.g. "meets" or 1, not both)`,
        )
      }
      present.push(value)
    }
    return present
  })
}

/**
 * The position of each category of a scale, after checking that the list holds distinct strings or
 * finite numbers. `name` says where the list came from, for the message.
 */
export function indexCategories(categories: readonly Rating[], caller: string, name: string): Map<Rating, number> {
  if (!Array.isArray(categories)) {
    throw new StatisticsInputError(`${caller}: ${name} must be an array of category labels; found ${describeFound(categories)}`)
  }
  const index = new Map<Rating, number>()
  const keys = new Set<string>()
  for (const [position, category] of categories.entries()) {
    if (typeof category !== 'string' && !(typeof category === 'number' && Number.isFinite(category))) {
      throw new StatisticsInputError(`${caller}: ${name}[${position}] must be a string or a finite number; found ${describeFound(category)}`)
    }
    // 1 and "1" are distinct labels but would share one key in a record of counts.
    if (index.has(category) || keys.has(String(category))) {
      throw new StatisticsInputError(`${caller}: ${name} lists ${describeRating(category)} twice; each category must appear once`)
    }
    index.set(category, position)
    keys.add(String(category))
  }
  return index
}

/** Throws unless `value` is one of the indexed categories; returns its position. */
export function categoryAt(index: ReadonlyMap<Rating, number>, value: Rating, caller: string, at: string, name: string): number {
  const position = index.get(value)
  if (position === undefined) {
    const listed = [...index.keys()].map(describeRating).join(', ')
    throw new StatisticsInputError(`${caller}: ${at} is ${describeRating(value)}, which is not in ${name} (${listed})`)
  }
  return position
}
