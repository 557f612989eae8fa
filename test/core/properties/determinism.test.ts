import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { sha256Hex } from '../../../src/core/json/canonical-json.js'
import { runCli } from '../../helpers/cli.js'
import { copyFixture, DOCUCTL } from '../../helpers/fixture-copy.js'
import { jsonFile } from '../../helpers/in-memory-fixture.js'
import { DEBATE } from '../../helpers/scored-copy.js'
import { reorderKeys } from './arbitraries.js'

/** What `vitest-rubric evaluate . --json` prints in a fixture directory. */
async function evaluateJson(dir: string): Promise<{ identities: { files: Record<string, string> } }> {
  const { code, stdout, stderr } = await runCli(['evaluate', '.', '--json'], dir)
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
  return JSON.parse(stdout) as { identities: { files: Record<string, string> } }
}

const REWRITTEN = ['cases.json', 'annotations.json']

/**
 * The record as printed, but for the SHA-256 of the two rewritten files: those hash the files'
 * bytes, which a new order changes by design. Everything else must stay byte for byte: every
 * decision with its ratings and reasons, the coverage, the benchmark figures, the hashes of the
 * rubric and source, and both case-set identities, which are fingerprints and so blind to key
 * order. (A refused case's message names its review by position, `reviews[3]`, and would move
 * with the order too; the bundled fixtures have none.)
 */
function printedWithoutRewrittenHashes(record: { identities: { files: Record<string, string> } }): string {
  const files = { ...record.identities.files }
  for (const name of REWRITTEN) files[name] = '(hash of the rewritten bytes)'
  return JSON.stringify({ ...record, identities: { ...record.identities, files } }, null, 2)
}

test.each([
  ['docuctl-rollback (criteria)', DOCUCTL],
  ['debate-benchmark (scored)', DEBATE],
])(
  '%s: the record is the same whatever the order of the reviews in annotations.json and of the keys of every object in it and in cases.json',
  async (_, dir) => {
    const copy = await copyFixture(dir)
    const annotations = JSON.parse(await readFile(join(copy.dir, 'annotations.json'), 'utf8')) as { reviews: unknown[] }
    const cases = JSON.parse(await readFile(join(copy.dir, 'cases.json'), 'utf8')) as unknown
    const expected = printedWithoutRewrittenHashes(await evaluateJson(copy.dir))

    await fc.assert(
      fc.asyncProperty(fc.gen(), async (g) => {
        const permute = <T>(items: T[]): T[] => g(fc.shuffledSubarray, items, { minLength: items.length, maxLength: items.length })
        // Reviews are reordered; arrays inside a review or a case (claims, transcripts, cases) are data and keep their order.
        const files: Record<string, Uint8Array> = {
          'annotations.json': jsonFile(reorderKeys({ ...annotations, reviews: permute(annotations.reviews) }, permute)),
          'cases.json': jsonFile(reorderKeys(cases, permute)),
        }
        for (const [name, bytes] of Object.entries(files)) await writeFile(join(copy.dir, name), bytes)

        const record = await evaluateJson(copy.dir)
        for (const [name, bytes] of Object.entries(files)) expect(record.identities.files[name]).toBe(sha256Hex(bytes))
        expect(printedWithoutRewrittenHashes(record)).toBe(expected)
      }),
      { numRuns: 15 },
    )
  },
)
