import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, test } from 'vitest'
import { evaluateFixture, fileIdentities } from '../../../src/core/engine/evaluate.js'
import { loadFixture } from '../../../src/core/registry.js'
import { DOCUCTL, ROOT } from '../../helpers/fixture-copy.js'

/**
 * An evaluation's identities name each file by its hash, taken when first asked for. A test plan
 * keeps them after the evaluation is gone: they keep the files, never the fixture and its parsed
 * documents (the process that plans a 100,000-case fixture would hold them while it sends the plan).
 */
describe("an evaluation's identities", () => {
  test('name the files by their hashes, and keep the fixture alive no longer than the evaluation', async () => {
    setFlagsFromString('--expose-gc')
    const collect = runInNewContext('gc') as () => void
    let fixture: Awaited<ReturnType<typeof loadFixture>> | undefined = await loadFixture(DOCUCTL, { cwd: ROOT })
    const expected = fileIdentities(fixture)
    const held = new WeakRef(fixture)
    const { identities } = evaluateFixture(fixture)
    fixture = undefined
    // A WeakRef holds its target until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0))
    collect()
    expect(held.deref()).toBeUndefined()
    expect(identities.files).toEqual(expected)
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(['rubric.json', 'cases.json', 'annotations.json']))
  })
})
