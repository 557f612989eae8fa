import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { basename, dirname } from 'node:path'

/** A committed revision of a file: the newest commit that holds those bytes at that path. */
export interface CommittedRevision {
  readonly commit: string
  readonly bytes: Uint8Array
}

/**
 * Finds, in the git history of `path`, the committed revisions of the file whose SHA-256 is one of
 * `sha256s`: how a review bound to an older `rubric.json` learns what that rubric said. Every commit
 * that touched the path is read (on every branch), each distinct blob once, newest first. Resolves
 * to an empty map when `path` is not in a git work tree, git is not installed, or no committed blob
 * has one of those hashes: the caller then knows nothing of the old revision, as without git.
 */
export async function committedRevisions(path: string, sha256s: ReadonlySet<string>): Promise<ReadonlyMap<string, CommittedRevision>> {
  const found = new Map<string, CommittedRevision>()
  if (sha256s.size === 0) return found
  const cwd = dirname(path)
  const log = await git(cwd, ['log', '--all', '--format=%H', '--', basename(path)])
  if (log === null) return found
  const commits = log.toString('utf8').split('\n').filter(Boolean)
  if (commits.length === 0) return found
  // One object id per commit (`<commit>:./<file>` is relative to cwd), then each blob read once.
  const ids = await git(cwd, ['rev-parse', ...commits.map((commit) => `${commit}:./${basename(path)}`)])
  if (ids === null) return found
  const blobs = ids.toString('utf8').split('\n').filter(Boolean)
  const seen = new Set<string>()
  const order: { commit: string; blob: string }[] = []
  blobs.forEach((blob, index) => {
    if (seen.has(blob)) return
    seen.add(blob)
    order.push({ commit: commits[index]!, blob })
  })
  const contents = await catBlobs(
    cwd,
    order.map((each) => each.blob),
  )
  if (contents === null) return found
  for (const [index, { commit }] of order.entries()) {
    const bytes = contents[index]!
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    if (sha256s.has(sha256) && !found.has(sha256)) found.set(sha256, { commit, bytes })
  }
  return found
}

/**
 * Whether `dir` is in a shallow clone (`git clone --depth 1`, actions/checkout by default): its
 * history stops short, so an earlier revision of a file may be missing from it. `false` outside git.
 */
export async function isShallowRepository(dir: string): Promise<boolean> {
  const out = await git(dir, ['rev-parse', '--is-shallow-repository'])
  return out?.toString('utf8').trim() === 'true'
}

/**
 * Of `names`, files of the folder `cwd` that are not in the work tree, those git holds (in HEAD or
 * the index), each with whether HEAD holds it: files deleted from the work tree, as against files
 * never written. None when `cwd` is not in a git work tree or git is not installed.
 */
export async function trackedButAbsent(cwd: string, names: readonly string[]): Promise<{ name: string; inHead: boolean }[]> {
  if (names.length === 0) return []
  const listed = (out: Buffer | null) => new Set(out === null ? [] : out.toString('utf8').split('\0').filter(Boolean))
  // Literal pathspecs: a name is a file name, never a pattern.
  const indexed = await git(cwd, ['--literal-pathspecs', 'ls-files', '-z', '--', ...names])
  // Not a git work tree, or no git: nothing to tell them by (and no second call).
  if (indexed === null) return []
  const index = listed(indexed)
  const head = listed(await git(cwd, ['--literal-pathspecs', 'ls-tree', '-z', '--name-only', 'HEAD', '--', ...names]))
  return names.filter((name) => index.has(name) || head.has(name)).map((name) => ({ name, inHead: head.has(name) }))
}

/** Runs git and resolves to its standard output, or `null` when it fails or cannot be started. */
function git(cwd: string, args: readonly string[], input?: string): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const child = spawn('git', args, { cwd, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'] })
    const chunks: Buffer[] = []
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.on('error', () => resolve(null))
    child.on('close', (code) => resolve(code === 0 ? Buffer.concat(chunks) : null))
    // git may exit before it reads its input (not a work tree): that is its answer, not an error.
    child.stdin?.on('error', () => undefined)
    child.stdin?.end(input)
  })
}

/** The contents of blobs, in order, from one `git cat-file --batch`. */
async function catBlobs(cwd: string, blobs: readonly string[]): Promise<Uint8Array[] | null> {
  const out = await git(cwd, ['cat-file', '--batch'], `${blobs.join('\n')}\n`)
  if (out === null) return null
  const contents: Uint8Array[] = []
  let at = 0
  for (let index = 0; index < blobs.length; index++) {
    // Each object: "<id> blob <size>\n<size bytes>\n".
    const end = out.indexOf(0x0a, at)
    if (end === -1) return null
    const size = Number(out.subarray(at, end).toString('latin1').split(' ')[2])
    if (!Number.isSafeInteger(size)) return null
    contents.push(out.subarray(end + 1, end + 1 + size))
    at = end + 1 + size + 1
  }
  return contents
}
