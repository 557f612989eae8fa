import { cp, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'
import { KEY, scriptedTerminal } from '../helpers/terminal.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support'] as const

describe('two terminal reviews of one case at once', () => {
  test('the second is refused, and what was typed is kept in a draft that the command it names records', async () => {
    const root = await scratchDir('review-conflict')
    const dir = 'fixtures/lab'
    await cp(DOCUCTL, join(root, dir), { recursive: true })
    // Every criterion: the first rating (meets), a reason, no span.
    const script = scriptedTerminal(
      CRITERIA.flatMap((criterion) => [
        { expect: `Rating of ${criterion}`, keys: KEY.enter },
        { expect: `meet ${criterion}?`, keys: `Typed on the terminal for ${criterion}.${KEY.enter}` },
        { expect: 'The span of the answer', keys: KEY.enter },
      ]),
    )
    let stderr = ''
    const running = main(['review', dir, '--case', 'not-reviewed', '--reviewer', 'alice'], {
      stdout: () => {},
      stderr: (text) => (stderr += `${text}\n`),
      cwd: root,
      terminal: script.terminal,
    })
    while (!script.screen().includes('Write the review')) await new Promise((done) => setTimeout(done, 20))
    // Meanwhile, another terminal records alice's review of the same case.
    const other = await runCli(
      [
        'review',
        dir,
        '--case',
        'not-reviewed',
        '--reviewer',
        'alice',
        ...CRITERIA.flatMap((id) => ['--rating', `${id}=meets`, '--reason', `${id}=The other terminal.`]),
      ],
      root,
    )
    expect(other.code).toBe(0)
    script.terminal.input.write(KEY.enter)
    expect(await running).toBe(1)
    script.finished()

    const message = stderr.replaceAll(/\d{8}T\d{6}Z/g, '<time>').replaceAll(/[0-9a-f]{64}/g, '<sha>')
    expect(message).toMatchInlineSnapshot(`
      "fixtures/lab (case "not-reviewed"): reviews/alice.json › not-reviewed › review changed since this case was read (another tab, reviewer or editor wrote it); nothing was written.
        fix:      what you typed is kept in .vitest-rubric/drafts/not-reviewed.alice.<time>.json: read the case again (\`vitest-rubric show fixtures/lab --case not-reviewed\`), then, if it still holds (edit the file where it does not), record it with \`vitest-rubric review fixtures/lab --case not-reviewed --reviewer alice --replace --from .vitest-rubric/drafts/not-reviewed.alice.<time>.json\`.
      "
    `)
    expect(message).not.toContain('kept by the page')

    // The draft holds what was typed, in the shape review --from reads: the command named records it.
    const draftPath = /kept in (\S+):/.exec(stderr)![1]!
    const draft = JSON.parse(await readFile(join(root, draftPath), 'utf8'))
    expect(draft.support).toEqual({ rating: 'meets', reason: 'Typed on the terminal for support.', answer_span: '' })
    const command = /record it with `vitest-rubric (review [^`]+)`/.exec(stderr)![1]!.split(' ')
    const recorded = await runCli(command, root)
    expect(recorded.stderr).toBe('')
    const alice = JSON.parse(await readFile(join(root, dir, 'reviews/alice.json'), 'utf8'))
    expect(alice.reviews[0].judgements.support.reason).toBe('Typed on the terminal for support.')
  })
})
