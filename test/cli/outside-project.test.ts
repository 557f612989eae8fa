import { cp, mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { FixtureRevision } from '../../src/core/engine/revision.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'
import { kinds } from '../../src/core/registry.js'

const SECRET = 'API_TOKEN=hunter2-do-not-publish'

/** A project folder holding a copy of the bundled fixture, and a folder beside it that is not part of the project. */
async function projectAndOutside(): Promise<{ root: string; dir: string; outside: string }> {
  const scratch = await scratchDir('outside')
  const root = join(scratch, 'project')
  const dir = join(root, 'fixtures/lab')
  const outside = join(scratch, 'elsewhere')
  await mkdir(outside)
  await cp(DOCUCTL, dir, { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
  return { root, dir, outside }
}

/** The error as shown, the scratch folder replaced so that the snapshot holds no absolute path. */
const shown = (text: string, scratch: string) => text.replaceAll(scratch, '<scratch>')

describe('a fixture file or folder whose real path lies outside the project', () => {
  test('a source.txt linked to a file outside the project is refused, and report --html writes nothing of it', async () => {
    const { root, dir, outside } = await projectAndOutside()
    // The linked file holds the source as bound, so that only the link's target tells it apart.
    const target = join(outside, 'environ')
    await writeFile(target, `${await readFile(join(dir, 'source.txt'), 'utf8')}\n${SECRET}\n`)
    await rm(join(dir, 'source.txt'))
    await symlink(target, join(dir, 'source.txt'))

    const evaluated = await runCli(['evaluate', 'fixtures/lab'], root)
    expect(evaluated.code).toBe(1)
    expect(shown(evaluated.stderr, join(root, '..'))).toMatchInlineSnapshot(`
      "fixtures/lab/source.txt: the path leads outside the project through a symbolic link, so it is neither read nor written.
        expected: a file or folder whose real path lies inside <scratch>/project
        found:    <scratch>/elsewhere/environ
        fix:      replace the link with the file or folder itself (a copy kept in the fixture), or run the command from a folder that holds what the link points at.
      "
    `)

    // The report shows the fixture as refused, with that error, and nothing of the file.
    const report = await runCli(['report', '--html', 'fixtures/lab'], root)
    expect(report.stderr).toBe('')
    const html = await readFile(join(root, '.vitest-rubric/report.html'), 'utf8')
    expect(html).not.toContain('hunter2')
    expect(html).toContain('the path leads outside the project through a symbolic link')
  })

  test('a reviews/ folder linked outside the project is neither read nor written through', async () => {
    const { root, dir, outside } = await projectAndOutside()
    await symlink(outside, join(dir, 'reviews'))
    const review = await runCli(
      ['review', 'fixtures/lab', '--case', 'not-reviewed', '--reviewer', 'alice', '--rating', 'support=meets', '--reason', 'support=It is supported.'],
      root,
    )
    expect(review.code).toBe(1)
    expect(shown(review.stderr, join(root, '..'))).toMatchInlineSnapshot(`
      "fixtures/lab/reviews: the path leads outside the project through a symbolic link, so it is neither read nor written.
        expected: a file or folder whose real path lies inside <scratch>/project
        found:    <scratch>/elsewhere
        fix:      replace the link with the file or folder itself (a copy kept in the fixture), or run the command from a folder that holds what the link points at.
      "
    `)
    expect(await readdir(outside)).toEqual([])
  })

  test('the folder a command runs in holds the project: a link inside it is read as usual, and a fixture named outside it is its own boundary', async () => {
    const { root, dir, outside } = await projectAndOutside()
    await rename(join(dir, 'source.txt'), join(root, 'shared-source.txt'))
    await symlink(join(root, 'shared-source.txt'), join(dir, 'source.txt'))
    expect((await runCli(['evaluate', 'fixtures/lab'], root)).code).toBe(0)
    // Named from another folder, the fixture's files must lie in the fixture itself.
    const elsewhere = await runCli(['evaluate', dir], outside)
    expect(elsewhere.code).toBe(1)
    expect(elsewhere.stderr).toContain('the path leads outside the project through a symbolic link')
  })

  test('a folder linked outside the project after the fixture was read is still not written through', async () => {
    const { root, dir, outside } = await projectAndOutside()
    const { revision, base } = await FixtureRevision.open(kinds, 'fixtures/lab', root)
    const annotations = await readFile(join(dir, 'annotations.json'), 'utf8')
    const candidate = await revision.propose(base, { files: { 'reviews/alice.json': annotations } })
    await symlink(outside, join(dir, 'reviews'))
    await expect(candidate.commit()).rejects.toMatchObject({ code: 'FILE_OUTSIDE_PROJECT', file: 'fixtures/lab/reviews/alice.json' })
    expect(await readdir(outside)).toEqual([])
  })
})
