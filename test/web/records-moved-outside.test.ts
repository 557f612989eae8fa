import { readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { postSave, raw, servedCopy } from '../helpers/served-fixture.js'
import { scratchDir } from '../helpers/scratch.js'

// The server keeps a records fixture read between requests, and does not resolve again a file whose
// stat stamp has not moved. A records/ folder moved outside the project and linked back keeps its
// files' stamps: the server must still read nothing and write nothing through the link.

test('a records/ folder moved outside the project after it was read, and linked back, is neither read nor written through', async () => {
  const { root, dir, server } = await servedCopy({}, 'records')
  const headers = { 'x-rubric-token': server.token }
  const before = await raw(server.port, '/api/case?fixture=0&id=complete', { headers })
  expect(before.status).toBe(200)
  const versions = (JSON.parse(before.body) as { versions: Record<string, string | null> }).versions

  const outside = await scratchDir('outside')
  await rename(join(dir, 'records'), join(outside, 'records'))
  await symlink(join(outside, 'records'), join(dir, 'records'), 'dir')
  const bytesOutside = async () => {
    const names = (await readdir(join(outside, 'records'))).sort()
    return Promise.all(names.map(async (name) => [name, await readFile(join(outside, 'records', name), 'utf8')]))
  }
  const untouched = await bytesOutside()

  // A file of the fixture changes, so the server reads it again: the link is refused by name.
  await writeFile(join(dir, 'rubric.json'), await readFile(join(dir, 'rubric.json')))
  const overview = await raw(server.port, '/api/overview', { headers })
  expect(overview.status).toBe(200)
  const [fixture] = (JSON.parse(overview.body) as { fixtures: { refused?: string }[] }).fixtures
  expect(fixture!.refused).toMatch(/^fixtures\/lab\/records: the path leads outside the project through a symbolic link, so it is neither read nor written\./)

  // A save is refused too, and nothing outside the project changed.
  const saved = await postSave(server, {
    fixture: 0,
    id: 'complete',
    draft: { reviewer: 'alice' },
    versions,
    replace: false,
  })
  expect(saved.status).toBe(422)
  expect(JSON.parse(saved.body).error.code).toBe('FILE_OUTSIDE_PROJECT')
  expect(await bytesOutside()).toEqual(untouched)
  expect(root).not.toBe(outside)
})
