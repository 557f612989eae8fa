/** The criteria kind: hard criteria with hash-bound reviews (`rubric.json`, `source.txt`, `cases.json`, `annotations.json`). */
// The case accessors read a fixture of any kind (they are in the main entry too); their types default to this kind.
export { assessFixtureCase, getCase, getReview, type FixtureCase, type FixtureReview } from './core/cases.js'
export type { CriteriaFixture } from './core/kinds/criteria/access.js'
export type { CaseEntry, ReviewEntry } from './core/engine/fixture.js'
export { assessAnswer, type Located } from './core/kinds/criteria/answer.js'
export { bindRubricContents, type BoundRubric, type CriteriaRubric, type FileContents, type RubricFileNames } from './core/kinds/criteria/rubric.js'
export type * from './core/kinds/criteria/decision.js'
// The file formats as types. Their schemas are JSON Schemas (`fixtureJsonSchemas()` in the main
// entry, `vitest-rubric/schemas/*`), not zod objects: see docs/format.md#editor-schemas.
export {
  RATINGS,
  type Answer,
  type AnnotationsFile,
  type Case,
  type CasesFile,
  type Criterion,
  type Judgement,
  type Rating,
  type Review,
  type Rubric,
} from './core/kinds/criteria/schemas.js'
