import { loadFixture, type Fixture } from '../../src/core/registry.js'
import type { FixtureKind } from '../../src/core/registry.js'

/**
 * Loads a fixture directory through the public `loadFixture` and checks it is of the kind a test
 * is about, so the test works with that kind's type.
 */
export async function loadFixtureOfKind<K extends FixtureKind>(kind: K, dir: string, cwd: string = dir): Promise<Extract<Fixture, { kind: K }>> {
  const fixture = await loadFixture(dir, { cwd })
  if (fixture.kind !== kind) throw new Error(`expected a ${kind} fixture in ${dir}, found a ${fixture.kind} fixture`)
  return fixture as Extract<Fixture, { kind: K }>
}
