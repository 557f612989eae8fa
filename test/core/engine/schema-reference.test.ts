import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { bindRubricContents } from '../../../src/core/kinds/criteria/rubric.js'
import { evaluateFixture } from '../../../src/core/engine/evaluate.js'
import { loadFixture } from '../../../src/core/registry.js'
import { copyFixture, DOCUCTL } from '../../helpers/fixture-copy.js'
import { DEBATE } from '../../helpers/scored-copy.js'
import { bindEdited, RUBRIC_TEXT, bindText } from '../kinds/scored/rubric-file.js'

/** A copy of a fixture whose cases.json and annotations.json start with `$schema`, or lack it. */
async function copyWithReference(from: string, reference: string | undefined) {
  const copy = await copyFixture(from)
  for (const file of ['cases.json', 'annotations.json']) {
    const { $schema: _, ...document } = await copy.readJson<Record<string, unknown>>(file)
    await copy.writeJson(file, reference === undefined ? document : { $schema: reference, ...document })
  }
  return evaluateFixture(await loadFixture(copy.dir))
}

describe('a $schema key at the top of a fixture file', () => {
  test.each([
    ['criteria', DOCUCTL],
    ['scored', DEBATE],
  ])('%s: cases.json and annotations.json load with it, and no decision or case-set identity depends on it', async (_kind, from) => {
    const without = await copyWithReference(from, undefined)
    const withReference = await copyWithReference(from, '../../src/schemas/cases.schema.json')
    const other = await copyWithReference(from, 'https://example.invalid/other.json')

    expect(without.decisions.length).toBeGreaterThan(0)
    for (const evaluation of [withReference, other]) {
      expect(evaluation.decisions).toEqual(without.decisions)
      expect(evaluation.coverage).toEqual(without.coverage)
      expect(evaluation.identities.caseSetSha256).toBe(without.identities.caseSetSha256)
      expect(evaluation.identities.gradedSetSha256).toBe(without.identities.gradedSetSha256)
    }
    // The files themselves are other bytes, and their hashes say so.
    expect(withReference.identities.files['cases.json']).not.toBe(without.identities.files['cases.json'])
    expect(withReference.identities.files['annotations.json']).not.toBe(without.identities.files['annotations.json'])
  })

  test('rubric.json: the rubric binds with it to the same criteria', async () => {
    const [rubric, source] = await Promise.all([readFile(join(DOCUCTL, 'rubric.json'), 'utf8'), readFile(join(DOCUCTL, 'source.txt'))])
    const plain = bindRubricContents(rubric, source)
    const referenced = bindRubricContents(JSON.stringify({ $schema: '../../src/schemas/rubric.schema.json', ...JSON.parse(rubric) }), source)
    expect([...referenced.rubric.criteria.entries()]).toEqual([...plain.rubric.criteria.entries()])
    expect(referenced.rubric.document).toEqual({ $schema: '../../src/schemas/rubric.schema.json', ...plain.rubric.document })
  })

  test('evaluation_rubric.json: the rubric binds with it to the same rules', () => {
    const referenced = bindEdited((rubric) => {
      rubric['$schema'] = '../../src/schemas/evaluation_rubric.schema.json'
    })
    expect(referenced.rules).toEqual(bindText(RUBRIC_TEXT).rules)
  })

  test('it must be a string', () => {
    expect(() =>
      bindEdited((rubric) => {
        rubric['$schema'] = 1
      }),
    ).toThrow(/\$schema/)
  })
})
