import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { drawSample } from '../../../src/core/sample/draw.js'
import { readSampleFile, writeSampleFile, type SampleFile, type SamplePlace } from '../../../src/core/sample/sample-file.js'
import { scratchDir } from '../../helpers/scratch.js'

async function place(): Promise<SamplePlace> {
  const root = await scratchDir('sample-file')
  await mkdir(join(root, 'lab'))
  return { dir: join(root, 'lab'), displayDir: 'lab', root }
}

const sample: SampleFile = drawSample(
  undefined,
  { cases: Array.from({ length: 10 }, (_, index) => ({ id: `c${index}`, split: 'development' as const, answerSha256: null })), caseSetSha256: null },
  { size: 3, seed: '1', method: 'uniform', fresh: false, now: new Date('2026-01-01T00:00:00Z'), file: 'lab/sample.json' },
).sample

const message = async (at: SamplePlace) =>
  await readSampleFile(at).then(
    () => 'read',
    (error: Error) => error.message,
  )

describe('sample.json', () => {
  test('reads back what was written, and none when there is no file', async () => {
    const at = await place()
    expect(await readSampleFile(at)).toEqual({ sample: undefined, sha256: null })
    await writeSampleFile(at, sample, null)
    expect((await readSampleFile(at)).sample).toEqual(sample)
  })

  test('refuses a case drawn twice and a draw that does not exist, naming the JSON path', async () => {
    const at = await place()
    const path = join(at.dir, 'sample.json')
    await writeFile(path, JSON.stringify({ ...sample, cases: [...sample.cases, sample.cases[0]] }))
    expect(await message(at)).toMatchInlineSnapshot(`
      "lab/sample.json › cases[3] › id: the case "c3" is drawn twice (also cases[0]).
        expected: each case at most once
        fix:      restore sample.json from version control, or draw a new sample with \`vitest-rubric sample <dir> --size <n> --seed <s> --new\`."
    `)
    await writeFile(path, JSON.stringify({ ...sample, cases: [{ ...sample.cases[0]!, draw: 4 }] }))
    expect(await message(at)).toMatchInlineSnapshot(`
      "lab/sample.json › cases[0] › draw: draw 4 does not exist.
        expected: an index of draws, below 1
        fix:      restore sample.json from version control, or draw a new sample with \`vitest-rubric sample <dir> --size <n> --seed <s> --new\`."
    `)
    await writeFile(path, JSON.stringify({ ...sample, version: 2 }))
    expect(await message(at)).toMatch(/^lab\/sample\.json › version: .*\n {2}expected: 1\n/)
  })

  test('refuses an empty draw other than a further active phase, and probabilities that are not one for every case', async () => {
    const at = await place()
    const path = join(at.dir, 'sample.json')
    await writeFile(path, JSON.stringify({ ...sample, draws: [{ ...sample.draws[0]!, size: 0 }] }))
    expect(await message(at)).toMatch(
      /^lab\/sample\.json › draws\[0\] › size: the draw added no case\.\n {2}expected: a size of 1 or more \(0 only for a further phase of an active design\)\n/,
    )
    await writeFile(path, JSON.stringify({ ...sample, draws: [{ ...sample.draws[0]!, inclusion_probabilities: [0.3, 0.3] }] }))
    expect(await message(at)).toMatch(/^lab\/sample\.json › draws\[0\] › inclusion_probabilities: 2 probabilities for a population of 10 cases\./)
  })

  test('reads back a further active phase that drew no case: its size 0, the probabilities brought up', async () => {
    const at = await place()
    const cases = Array.from({ length: 20 }, (_, index) => ({
      id: `c${index}`,
      split: 'development' as const,
      answerSha256: null,
      judge: { decision: 'accepted' as const, uncertainty: index % 5 === 0 ? 0.4 : 0.05, leastSure: { criterion: null, confidence: null } },
    }))
    const active = { method: 'active' as const, judge: 'ix', fresh: false, now: new Date('2026-01-01T00:00:00Z'), file: 'lab/sample.json' }
    const first = drawSample(undefined, { cases, caseSetSha256: null }, { ...active, size: 6, seed: '1' }).sample
    // A phase expected to add one case draws none about a third of the time: the first seed that does.
    const empty = Array.from({ length: 100 }, (_, seed) => drawSample(first, { cases, caseSetSha256: null }, { ...active, size: 1, seed: `e${seed}` }))
      .map((result) => result.sample)
      .find((extended) => extended.cases.length === first.cases.length)!
    expect(empty.draws[1]!.size).toBe(0)
    expect(empty.cases.every((entry, index) => entry.probability > first.cases[index]!.probability)).toBe(true)
    await writeSampleFile(at, empty, null)
    expect((await readSampleFile(at)).sample).toEqual(empty)
  })

  test('is neither read nor written through a link leading outside the project', async () => {
    const at = await place()
    const outside = join(await scratchDir('sample-outside'), 'elsewhere.json')
    await writeFile(outside, '{}')
    await symlink(outside, join(at.dir, 'sample.json'))
    expect(await message(at)).toMatch(/^lab\/sample\.json: the path leads outside the project/)
    await expect(writeSampleFile(at, sample, null)).rejects.toMatchObject({ code: 'FILE_OUTSIDE_PROJECT' })
    expect(await readFile(outside, 'utf8')).toBe('{}')
  })
})
