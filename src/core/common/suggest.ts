/**
 * The known name a mistyped one most likely meant: the same name in another case (`minkappa` for
 * `minKappa`), or one at most two edits away (`minKapa`), preferring the closest. `undefined` when
 * none is that close: a guess that far off would mislead more than it helps.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const lower = typed.toLowerCase()
  const sameLetters = known.find((name) => name.toLowerCase() === lower)
  if (sameLetters !== undefined) return sameLetters
  let best: { name: string; distance: number } | undefined
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase())
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance }
  }
  return best?.name
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions from `a` to `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = row
  }
  return previous[b.length]!
}
