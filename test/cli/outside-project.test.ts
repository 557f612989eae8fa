import { cp, lstat, mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { FixtureRevision } from '../../src/core/engine/revision.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'
import { kinds, loadFixture } from '../../src/core/registry.js'
import { decisionRecordOf, writeRecordedDecisions } from '../../src/core/engine/decision-record.js'
import { evaluateFixture } from '../../src/core/engine/evaluate.js'
import { LOCK_NAME, withFixtureLock } from '../../src/core/json/fixture-lock.js'

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
  test.each(['source.txt', 'rubric.json'])('init --from a fixture whose %s is linked outside the project is refused, and copies nothing', async (name) => {
    const { root, dir, outside } = await projectAndOutside()
    const target = join(outside, name)
    await writeFile(target, `${await readFile(join(dir, name), 'utf8')}${name === 'source.txt' ? `\n${SECRET}\n` : ''}`)
    await rm(join(dir, name))
    await symlink(target, join(dir, name))
    for (const from of ['fixtures/lab', 'fixtures/lab/rubric.json']) {
      const init = await runCli(['init', 'fixtures/new', '--from', from], root)
      expect(init.code, from).toBe(1)
      expect(init.stderr).toContain(`fixtures/lab/${name}: the path leads outside the project through a symbolic link, so it is neither read nor written.`)
      await expect(lstat(join(root, 'fixtures/new'))).rejects.toThrow(/ENOENT/)
    }
  })

  test('init --from a fixture folder linked outside the project is refused; a shipped template is not confined to the project', async () => {
    const { root, outside } = await projectAndOutside()
    await cp(DOCUCTL, join(outside, 'fixture'), { recursive: true })
    await symlink(join(outside, 'fixture'), join(root, 'fixtures/linked'))
    const init = await runCli(['init', 'fixtures/new', '--from', 'fixtures/linked'], root)
    expect(init.code).toBe(1)
    expect(init.stderr).toContain('fixtures/linked: the path leads outside the project through a symbolic link')
    await expect(lstat(join(root, 'fixtures/new'))).rejects.toThrow(/ENOENT/)
    const template = await runCli(['init', 'fixtures/new', '--template', 'docuctl'], root)
    expect(template.code, template.stderr).toBe(0)
  })

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

  test('a decision record linked to a file outside the project is neither written nor read through', async () => {
    const { root, dir, outside } = await projectAndOutside()
    // The outside file holds the record as it would be written, so that only the link's target tells it apart.
    expect((await runCli(['decisions', 'fixtures/lab'], root)).code).toBe(0)
    const target = join(outside, 'decisions.json')
    const recorded = await readFile(join(dir, 'decisions.record.json'), 'utf8')
    await writeFile(target, `${recorded.trimEnd()}\n\n`) // the same record, other bytes: a rewrite would show
    await rm(join(dir, 'decisions.record.json'))
    await symlink(target, join(dir, 'decisions.record.json'))

    const written = await runCli(['decisions', 'fixtures/lab'], root)
    expect(written.code).toBe(1)
    expect(shown(written.stderr, join(root, '..'))).toMatchInlineSnapshot(`
      "fixtures/lab/decisions.record.json: the path leads outside the project through a symbolic link, so it is neither read nor written.
        expected: a file or folder whose real path lies inside <scratch>/project
        found:    <scratch>/elsewhere/decisions.json
        fix:      replace the link with the file or folder itself (a copy kept in the fixture), or run the command from a folder that holds what the link points at.
      "
    `)
    const checked = await runCli(['decisions', 'fixtures/lab', '--check'], root)
    expect(checked.code).toBe(1)
    expect(checked.stdout).toBe('')
    expect(checked.stderr).toContain('fixtures/lab/decisions.record.json: the path leads outside the project through a symbolic link')
    expect(await readFile(target, 'utf8')).toBe(`${recorded.trimEnd()}\n\n`)
    expect((await lstat(join(dir, 'decisions.record.json'))).isSymbolicLink()).toBe(true)
  })

  test('a decision record is written under the fixture lock, as a whole file', async () => {
    const { root, dir } = await projectAndOutside()
    const fixture = await loadFixture(join(dir), { cwd: root })
    const path = join(dir, 'decisions.record.json')
    let release!: () => void
    const holding = withFixtureLock(dir, () => new Promise<void>((resolve) => (release = resolve)))
    while (
      !(await lstat(join(dir, LOCK_NAME)).then(
        () => true,
        () => false,
      ))
    )
      await new Promise((resolve) => setTimeout(resolve, 10))
    const writing = writeRecordedDecisions(path, decisionRecordOf(evaluateFixture(fixture)), { root })
    await new Promise((resolve) => setTimeout(resolve, 300))
    // Another writer holds the fixture: the record waits for it.
    expect(await readdir(dir)).not.toContain('decisions.record.json')
    release()
    await holding
    await writing
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ kind: 'criteria', name: 'docuctl-rollback-contrasts' })
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  test('a reviews/ folder that is a link to nothing is refused by name, and nothing is made where it points', async () => {
    const { root, dir, outside } = await projectAndOutside()
    await symlink(join(outside, 'gone'), join(dir, 'reviews'))
    const review = await runCli(
      ['review', 'fixtures/lab', '--case', 'not-reviewed', '--reviewer', 'alice', '--rating', 'support=meets', '--reason', 'support=It is supported.'],
      root,
    )
    expect(review.code).toBe(1)
    expect(shown(review.stderr, join(root, '..'))).toMatchInlineSnapshot(`
      "fixtures/lab/reviews: the path is a symbolic link whose target does not exist, so nothing can be written below it; nothing was written.
        expected: a folder, or a symbolic link to a folder inside <scratch>/project
        found:    a symbolic link to <scratch>/elsewhere/gone, which does not exist
        fix:      remove the link (\`rm fixtures/lab/reviews\`: the folder is then made in its place), or make the folder it points at, inside the project.
      "
    `)
    expect(await readdir(outside)).toEqual([])
  })

  describe('a file listed by a link or as a folder is never left out', () => {
    /** The fixture with alice and bob disagreeing on not-reviewed: only both reviews together keep the case pending for that reason. */
    async function disagreeing(): Promise<{ root: string; dir: string; outside: string }> {
      const made = await projectAndOutside()
      for (const [reviewer, rating] of [
        ['alice', 'meets'],
        ['bob', 'does_not_meet'],
      ] as const) {
        const saved = await runCli(
          ['review', 'fixtures/lab', '--case', 'not-reviewed', '--reviewer', reviewer, '--rating', `support=${rating}`, '--reason', 'support=Read.'],
          made.root,
        )
        expect(saved.code).toBe(0)
      }
      return made
    }

    test('a reviewer file linked inside the project is read, and one linked outside it is refused', async () => {
      const { root, dir, outside } = await disagreeing()
      await mkdir(join(root, 'kept'))
      await rename(join(dir, 'reviews/bob.json'), join(root, 'kept/bob.json'))
      await symlink(join(root, 'kept/bob.json'), join(dir, 'reviews/bob.json'))
      const evaluated = await runCli(['evaluate', 'fixtures/lab'], root)
      expect(evaluated.stdout).toContain('not-reviewed: pending (reviewers disagree on support (alice: meets, bob: does_not_meet))')
      // A save to it is refused: a rename would put a file in place of the link, and the file it leads to would miss the save.
      const kept = await readFile(join(root, 'kept/bob.json'), 'utf8')
      const saved = await runCli(
        ['review', 'fixtures/lab', '--case', 'not-reviewed', '--reviewer', 'bob', '--replace', '--rating', 'support=meets', '--reason', 'support=Again.'],
        root,
      )
      expect(saved.code).toBe(1)
      expect(saved.stderr).toContain('fixtures/lab/reviews/bob.json: the file is a symbolic link: a save replaces the file whole')
      expect((await lstat(join(dir, 'reviews/bob.json'))).isSymbolicLink()).toBe(true)
      expect(await readFile(join(root, 'kept/bob.json'), 'utf8')).toBe(kept)

      await rm(join(dir, 'reviews/bob.json'))
      await cp(join(root, 'kept/bob.json'), join(outside, 'bob.json'))
      await symlink(join(outside, 'bob.json'), join(dir, 'reviews/bob.json'))
      const refused = await runCli(['evaluate', 'fixtures/lab'], root)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain('fixtures/lab/reviews/bob.json: the path leads outside the project through a symbolic link')
    })

    test('a folder where a reviewer file is expected is refused by name', async () => {
      const { root, dir } = await disagreeing()
      await rm(join(dir, 'reviews/bob.json'))
      await mkdir(join(dir, 'reviews/bob.json'))
      const refused = await runCli(['evaluate', 'fixtures/lab'], root)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain('fixtures/lab/reviews/bob.json: the path is a directory, not a file.')
    })

    test('in the records layout, a bucket file linked inside the project is read, one linked outside or made a folder is refused', async () => {
      const { root, dir, outside } = await disagreeing()
      expect((await runCli(['convert', 'fixtures/lab', '--to', 'records'], root)).code).toBe(0)
      const buckets = (await readdir(join(dir, 'records'))).filter((name) => name.endsWith('.jsonl') && name !== 'documents.jsonl')
      const holding = await Promise.all(
        buckets.map(async (name) => ((await readFile(join(dir, 'records', name), 'utf8')).includes('"case":"not-reviewed"') ? name : undefined)),
      )
      const bucket = holding.find((name) => name !== undefined)!
      const path = join(dir, 'records', bucket)
      await mkdir(join(root, 'kept'))
      await rename(path, join(root, 'kept', bucket))
      await symlink(join(root, 'kept', bucket), path)
      const evaluated = await runCli(['evaluate', 'fixtures/lab'], root)
      expect(evaluated.stdout).toContain('not-reviewed: pending (reviewers disagree on support (alice: meets, bob: does_not_meet))')
      expect(evaluated.stdout).toContain('8 candidates')

      await rm(path)
      await cp(join(root, 'kept', bucket), join(outside, bucket))
      await symlink(join(outside, bucket), path)
      const outsideLink = await runCli(['evaluate', 'fixtures/lab'], root)
      expect(outsideLink.code).toBe(1)
      expect(outsideLink.stderr).toContain(`fixtures/lab/records/${bucket}: the path leads outside the project through a symbolic link`)

      await rm(path)
      await mkdir(path)
      const folder = await runCli(['evaluate', 'fixtures/lab'], root)
      expect(folder.code).toBe(1)
      expect(folder.stderr).toContain(`fixtures/lab/records/${bucket}: the path is a directory, not a file.`)
    })
  })
})
