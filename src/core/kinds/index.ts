import type { AnyKindDefinition, KindDefinition } from '../engine/kind.js'
import { criteriaKind } from './criteria/index.js'
import { scoredKind } from './scored/index.js'

/**
 * Every kind of fixture directory, each defined once. The engine, the plugin, the reporter and the
 * CLI read a kind only through this record: a new kind is one folder and one row here.
 */
export const KINDS = {
  /** Hard criteria with hash-bound reviews (`rubric.json`, `source.txt`, `cases.json`, `annotations.json`). */
  criteria: criteriaKind,
  /** Dimension scores of a debate benchmark and its baseline (`evaluation_rubric.json`, `cases.json`, `annotations.json`). */
  scored: scoredKind,
} as const satisfies Record<string, AnyKindDefinition>

/** The kinds of fixture directory, told apart by the file that marks them. */
export type FixtureKind = keyof typeof KINDS

/** The kinds, in the order listings show them. */
export const FIXTURE_KINDS = Object.keys(KINDS) as readonly FixtureKind[]

type Parameters<K extends FixtureKind> = (typeof KINDS)[K] extends KindDefinition<infer R, infer C, infer V, infer D, infer S>
  ? { readonly rubric: R; readonly case: C; readonly review: V; readonly decision: D; readonly summary: S }
  : never

/** The bound rubric of a kind. */
export type RubricOf<K extends FixtureKind> = Parameters<K>['rubric']
/** A case of a kind, as parsed. */
export type CaseOf<K extends FixtureKind> = Parameters<K>['case']
/** A review of a kind, as parsed. */
export type ReviewOf<K extends FixtureKind> = Parameters<K>['review']
/** The decisions of a kind. */
export type DecisionOf<K extends FixtureKind> = Parameters<K>['decision']
/** The fixture-level summary of a kind (`null` for a kind without one). */
export type SummaryOf<K extends FixtureKind> = Parameters<K>['summary']

/** The definition of a kind, for code that works on any kind: the one place a kind is looked up. */
export function definitionOf(kind: FixtureKind): AnyKindDefinition {
  return KINDS[kind]
}

/** Whether a string names a kind. */
export function isFixtureKind(name: string): name is FixtureKind {
  return Object.hasOwn(KINDS, name)
}
