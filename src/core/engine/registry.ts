import type { SomeKindDefinition } from '../contract/kind.js'

/**
 * The kinds a front end knows, by name and by marker file. The engine never holds one of its own:
 * the entry points, the plugin, the CLI and the page pass theirs to what starts from a directory
 * (loading, discovery, `init`), and everything after reads the definition off the loaded fixture.
 */
export interface KindRegistry {
  /** The kinds, in the order listings show them. */
  readonly kinds: readonly SomeKindDefinition[]
  /** Their names, in the same order. */
  readonly names: readonly string[]
  /** The kind of a name; `undefined` for a name no kind has. */
  get(name: string): SomeKindDefinition | undefined
  /** The kind whose marker file (`rubric` file) has this name. */
  byMarker(file: string): SomeKindDefinition | undefined
}

/** A registry of the given kinds, in their order. Two kinds may share neither a name nor a marker file. */
export function createRegistry(kinds: readonly SomeKindDefinition[]): KindRegistry {
  const byName = new Map<string, SomeKindDefinition>()
  const byMarker = new Map<string, SomeKindDefinition>()
  for (const kind of kinds) {
    if (byName.has(kind.name)) throw new TypeError(`two kinds are named ${kind.name}`)
    if (byMarker.has(kind.files.rubric))
      throw new TypeError(`the kinds ${byMarker.get(kind.files.rubric)?.name} and ${kind.name} share the marker file ${kind.files.rubric}`)
    byName.set(kind.name, kind)
    byMarker.set(kind.files.rubric, kind)
  }
  return {
    kinds: [...kinds],
    names: kinds.map((kind) => kind.name),
    get: (name) => byName.get(name),
    byMarker: (file) => byMarker.get(file),
  }
}
