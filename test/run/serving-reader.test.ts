import { join } from 'node:path'
import { expect, test } from 'vitest'
import { readFixtureFiles, servingReader } from '../../src/run/plan-cache.js'
import { sha256Hex } from '../../src/core/json/canonical-json.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'

test('the files read for the cache key are served to the loader once, with their hash, then let go', async () => {
  const files = (await readFixtureFiles(DOCUCTL, ROOT))!
  const cases = files.find((file) => file.name === 'cases.json')!
  const bytes = cases.raw!.bytes
  expect(cases.sha256).toBe(sha256Hex(bytes))
  const read = servingReader(files)
  const served = await read(join(DOCUCTL, 'cases.json'), 'fixtures/docuctl-rollback/cases.json')
  // The loader gets the very bytes the key hashed, and their hash, so it need not hash them again.
  expect(served.bytes).toBe(bytes)
  expect(served.sha256).toBe(cases.sha256)
  expect(cases.raw).toBeUndefined()
  await expect(read(join(DOCUCTL, 'cases.json'), 'fixtures/docuctl-rollback/cases.json')).rejects.toThrow('was served to the loader already')
})
