// A module of its own, with no imports: the test worker's runtime reads it, and loads nothing of the engine for it.

/**
 * What a fixture without cases says, in `status` and as its one todo test in Vitest. `add` is the way
 * in both layouts: the records layout has no `cases.json` to write them into.
 */
export const NO_CASES_YET = 'no cases yet: add them with `vitest-rubric add`'
