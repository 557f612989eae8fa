// Loads the module augmented below wherever these types are read (also from node_modules), so that
// `TaskMeta` as 'vitest/node' gives it carries them too.
/// <reference types="vitest" preserve="true" />
import type { Split } from '../core/common/primitives.js'
import type { Coverage } from '../core/contract/results.js'
import type { DecisionStatus } from '../core/contract/decision.js'

/**
 * What a case test carries for reporters: its decision, and its kind's figures (`ratings` for a
 * criteria fixture, `scores` for a scored one). The fixture's own figures (its directory, kind and
 * coverage) are on the test's module, `testCase.module.meta().rubricFixture`: repeating them on
 * every test cost about 8% of a 100k-case run in serialization alone.
 */
export interface RubricCaseMeta {
  readonly role: 'case'
  readonly id: string
  readonly split: Split
  readonly status: DecisionStatus
  readonly reason: string
}

/** What a fixture-level check (a benchmark gate) carries. */
export interface RubricCheckMeta {
  readonly role: 'check'
  readonly name: string
}

/** What a fixture's test module carries, shared by its tests: the fixture and its coverage. */
export interface RubricFixtureMeta {
  /** The fixture directory as shown to the user. */
  readonly fixture: string
  readonly kind: string
  readonly name: string
  /**
   * The fixture's coverage, counted from the fixture on disk (a filter or shard never shrinks it);
   * in a chunk module, the coverage of that chunk's cases, so that the chunks' coverages add up
   * to the fixture's.
   */
  readonly coverage: Coverage
  /** Set on the modules of a fixture split by the `chunks` option: which chunk (from 1) of how many. */
  readonly chunk?: { readonly index: number; readonly count: number }
}

declare module 'vitest' {
  interface TaskMeta {
    /** Set on every test generated from a rubric fixture. */
    rubric?: RubricCaseMeta | RubricCheckMeta
    /** Set on the test module of a rubric fixture; its tests reach it through `testCase.module.meta()`. */
    rubricFixture?: RubricFixtureMeta
  }
}
