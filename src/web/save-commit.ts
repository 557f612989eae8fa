import { execFile } from 'node:child_process'
import { relative, sep } from 'node:path'
import { displayPath } from '../core/common/display-path.js'
import { RevisionError } from '../core/common/errors.js'
import { crashPoint } from '../core/json/crash-points.js'
import type { SavedChange, SaveTrail } from './save-change.js'

// `serve --commit`: each accepted save becomes one git commit of exactly the files it wrote, by the
// person who saved, made under the fixture's lock before the save is acknowledged.

/** The author of a person's commits: their email from the team file, else one that names them and never resolves (`.invalid`). */
export function authorOf(name: string, email?: string): string {
  return `${name} <${email ?? `${name}@vitest-rubric.invalid`}>`
}

/** The commit message: a subject naming the fixture, the case, the person and what changed, then the decision and the files. */
export function commitMessage(change: SavedChange, cwd: string): { subject: string; body: string } {
  const by = change.person === undefined ? '' : ` by ${change.person}`
  // Worded as `review` prints it: an independent review decides nothing until it is adopted.
  const decision =
    change.decisionOf === 'alone'
      ? `none yet; an independent review, which alone would decide ${change.decision}`
      : change.decisionOf === 'unchanged'
        ? `${change.decision}; this review decides nothing by itself`
        : change.decision
  return {
    subject: `${change.action}: ${change.fixture} case ${change.caseId}${by} (${change.change})`,
    body: [`decision: ${decision}`, '', ...change.files.map((file) => `  ${displayPath(cwd, file)}`)].join('\n'),
  }
}

/** Refuses to serve with `--commit` unless git runs, every fixture is inside a git work tree, and git knows a committer. */
export async function checkCommitable(dirs: readonly string[], displays: readonly string[], cwd: string): Promise<void> {
  for (const [index, dir] of dirs.entries()) {
    const display = displays[index] ?? displayPath(cwd, dir)
    try {
      await git(dir, ['rev-parse', '--show-toplevel'])
    } catch (error) {
      throw commitFailed(
        display,
        `serve --commit cannot commit the saves of this fixture: ${reasonOf(error)}.`,
        'run serve --commit on fixtures inside a git work tree (git init), with git on the PATH, or serve without --commit.',
      )
    }
    try {
      await git(dir, ['var', 'GIT_COMMITTER_IDENT'])
    } catch (error) {
      throw commitFailed(
        display,
        `serve --commit: git knows no committer for this fixture: ${reasonOf(error)}.`,
        'set git config user.name and user.email in the repository (each commit is authored by the person who saved; the committer is the server).',
      )
    }
  }
}

// One commit at a time in this process: two fixtures of one repository saved at once would otherwise
// race for git's index lock.
let queue: Promise<unknown> = Promise.resolve()

/** The trail of `serve --commit`. */
export function commitTrail(cwd: string): SaveTrail {
  return {
    record(change, before) {
      const turn = queue.then(() => commitSave(change, cwd, before))
      queue = turn.catch(() => undefined)
      return turn
    },
  }
}

/**
 * Commits the files of one save and nothing else: `git commit --only` takes those paths from the
 * working tree and leaves whatever else the user staged staged. A file the save made (a reviewer's
 * first review) is added first, and unstaged again when the commit fails. `--no-verify` skips the
 * repository's pre-commit and commit-msg hooks: they run under the fixture's lock and could rewrite
 * or refuse a save the schemas accepted already; post-commit hooks (a push) still run.
 */
async function commitSave(change: SavedChange, cwd: string, before: (path: string) => Promise<Buffer | null>): Promise<void> {
  const display = change.fixture
  // Relative to the fixture, where git runs: an absolute path through a symbolic link would be outside the work tree.
  const paths = change.files.map((file) => relative(change.dir, file))
  await refuseDetached(change)
  await refuseUncommitted(change, cwd, paths, before)
  const fresh: string[] = []
  for (const path of paths)
    if (
      !(await git(change.dir, ['ls-files', '--error-unmatch', '--', path]).then(
        () => true,
        () => false,
      ))
    )
      fresh.push(path)
  const { subject, body } = commitMessage(change, cwd)
  const author = change.person === undefined ? [] : [`--author=${authorOf(change.person, change.email)}`]
  try {
    if (fresh.length > 0) {
      await git(change.dir, ['add', '--', ...fresh])
      crashPoint('git added')
    }
    await git(change.dir, ['commit', '--only', '--no-verify', '--quiet', ...author, '-m', subject, '-m', body, '--', ...paths])
    crashPoint('git committed')
  } catch (error) {
    if (fresh.length > 0) await git(change.dir, ['rm', '--cached', '--quiet', '--ignore-unmatch', '--', ...fresh]).catch(() => undefined)
    throw commitFailed(
      display,
      `the save of case "${change.caseId}" could not be committed (${reasonOf(error)}); it was not kept: the files are as they were.`,
      'fix the repository (another git command may hold .git/index.lock; a signing key may be missing), then save again.',
    )
  }
}

/**
 * Refuses a save while HEAD is detached (a checkout of an older commit, a rebase stopped to edit):
 * git would commit it on no branch, and the next checkout of a branch would leave it behind, so the
 * fixture served would lose a save it acknowledged. Checked at each save, as the repository's state
 * changes while the server runs (as a merge in progress is, which git itself refuses).
 */
async function refuseDetached(change: SavedChange): Promise<void> {
  const onBranch = await git(change.dir, ['symbolic-ref', '--quiet', 'HEAD']).then(
    () => true,
    () => false,
  )
  if (onBranch) return
  throw commitFailed(
    change.fixture,
    `the save of case "${change.caseId}" could not be committed (HEAD is detached: git is on no branch, so the commit would be left behind by the next checkout of a branch); it was not kept: the files are as they were.`,
    'check out a branch (git switch <branch>; finish or abort a rebase in progress), then save again.',
  )
}

/**
 * Refuses a save whose files held changes no commit has before it wrote them (a save whose server
 * was killed before its commit, an edit by hand, a command run beside the server): `git commit --only`
 * takes each file whole, so its commit would carry those changes under this save's name.
 */
async function refuseUncommitted(change: SavedChange, cwd: string, paths: readonly string[], before: (path: string) => Promise<Buffer | null>): Promise<void> {
  const unclean: string[] = []
  for (const [index, path] of paths.entries()) {
    const was = await before(change.files[index]!)
    const gitPath = path.split(sep).join('/')
    // The file as last committed (`HEAD:./<path>`, relative to the fixture), and what git would store of the bytes before the save, its
    // filters and line-ending conversion applied as for that path; absent from HEAD, the file must have been absent before the save too.
    const committed = await git(change.dir, ['rev-parse', '--verify', '--quiet', `HEAD:./${gitPath}`]).then(
      (out) => out.trim(),
      () => null,
    )
    const stored = was === null ? null : (await git(change.dir, ['hash-object', `--path=${gitPath}`, '--stdin'], was)).trim()
    if (stored !== committed) unclean.push(displayPath(cwd, change.files[index]!))
  }
  if (unclean.length === 0) return
  throw new RevisionError({
    code: 'COMMIT_UNCLEAN',
    file: unclean[0]!,
    summary: `the save of case "${change.caseId}" was not kept: ${unclean.join(', ')} ${unclean.length === 1 ? 'holds' : 'hold'} changes no commit has (a save the server could not commit before it stopped, an edit by hand or by a command), and this save's commit would carry them under its name; the files are as they were.`,
    hint: 'see them with git status and git diff; commit them (git commit -- <file>) or discard them (git checkout -- <file>), then save again.',
  })
}

function commitFailed(file: string, summary: string, hint: string): RevisionError {
  return new RevisionError({ code: 'COMMIT_FAILED', file, summary, hint })
}

/** What git said, on one line. */
function reasonOf(error: unknown): string {
  const text = error instanceof GitError ? error.stderr || error.message : error instanceof Error ? error.message : String(error)
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .find((line) => !line.startsWith('hint:')) ?? 'git failed'
  )
}

class GitError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message)
  }
}

/** Runs git with explicit arguments (no shell), in `dir`, `input` on its standard input, and answers its standard output. */
function git(dir: string, args: readonly string[], input?: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['-C', dir, ...args],
      { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout, stderr) => {
        if (error === null) return resolve(stdout)
        reject(new GitError(error.code === 'ENOENT' ? 'git is not installed (or not on the PATH)' : error.message, stderr))
      },
    )
    // A git that exits before reading all its input closes the pipe: its exit status says what went wrong, not the pipe.
    child.stdin?.on('error', () => undefined)
    child.stdin?.end(input)
  })
}
