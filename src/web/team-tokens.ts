import { createHash, randomBytes } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { z } from 'zod'
import { displayPath } from '../core/common/display-path.js'
import { UsageError } from '../core/common/errors.js'
import { errnoCode, own } from '../core/common/primitives.js'
import { crashPoint } from '../core/json/crash-points.js'
import { withFixtureLock } from '../core/json/fixture-lock.js'
import { checkedJsonFile } from '../core/json/checked-json.js'
import { makeFolder, readStateFile, writeOutputFile } from '../core/json/output-file.js'
import type { LoadedTeam, Person } from './team.js'

// The team's links, kept as the SHA-256 of each token and never the token itself: the file lies in
// the project's `.vitest-rubric/` (outside every fixture, ignored by git), one per team file, and is
// written and read only as the package's own outputs are (never through a symbolic link). A token
// is shown once, when it is issued; a restart keeps the hashes, so the links printed earlier work.
// Every change is read, made and written under the lock of the team folder, so that two commands at
// once (`--revoke alice` and `--reissue bob`) each keep the other's change.

/** The folder of the token files, below the project root. */
export const TEAM_TOKENS_DIR = '.vitest-rubric/team'

const TokenFileSchema = z.strictObject({
  version: z.literal(1, { error: 'the number 1' }),
  team: z.string({ error: "the team file's path" }),
  /** The address the last server started on, for the links `--reissue` prints. */
  origin: z.string({ error: 'an address' }).nullable(),
  /** Each person's token hash; `null` once revoked. A person missing has never been issued a link. */
  people: z.record(
    z.string(),
    z.strictObject({ token_sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: '64 hexadecimal digits' }), issued: z.string() }).nullable(),
  ),
})
export type TokenFile = z.infer<typeof TokenFileSchema>

/** Where a team file's token hashes are kept: named by the SHA-256 of the team file's path in the project. */
export function tokenFilePath(root: string, team: LoadedTeam): string {
  const name = createHash('sha256').update(relative(root, team.path).split('\\').join('/')).digest('hex').slice(0, 16)
  return join(root, TEAM_TOKENS_DIR, `${name}.json`)
}

/** A new secret token: 256 random bits. */
export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** The team's token file as kept; an empty one when there is none yet. */
export async function readTokenFile(root: string, team: LoadedTeam): Promise<TokenFile> {
  const path = tokenFilePath(root, team)
  const bytes = await readStateFile(path, { boundary: root, cwd: root })
  const empty: TokenFile = { version: 1, team: team.display, origin: null, people: {} }
  if (bytes === undefined) return empty
  const display = displayPath(root, path)
  const hint = `remove ${display} and start serve --team again: every person is issued a new link.`
  if (bytes === 'not a file')
    throw new UsageError({
      code: 'TEAM_TOKENS_INVALID',
      file: display,
      summary:
        'the file of token hashes is a symbolic link, or not a file: it is read and written only as a file of its own, and writing it again would drop every link issued; nothing was written.',
      hint: `put the file itself in place of the link, or ${hint}`,
    })
  return checkedJsonFile({ display, bytes }, TokenFileSchema, {
    ErrorClass: UsageError,
    code: 'TEAM_TOKENS_INVALID',
    notJson: 'the file of token hashes is not JSON.',
    hint,
  })
}

/**
 * Runs `work` holding the lock of the team folder (`.vitest-rubric/team/`), across processes: the
 * token files and the reservation files are each read, changed and written by one writer at a time.
 */
export async function withTeamLock<T>(root: string, work: () => Promise<T>): Promise<T> {
  const folder = join(root, TEAM_TOKENS_DIR)
  await makeFolder(folder, { boundary: root, cwd: root })
  return withFixtureLock(folder, work, TEAM_TOKENS_DIR)
}

/** Reads the team's token file, changes it, and writes it, under the team folder's lock. */
export async function updateTokenFile<T>(root: string, team: LoadedTeam, change: (file: TokenFile) => { file: TokenFile; result: T }): Promise<T> {
  return withTeamLock(root, async () => {
    const before = await readTokenFile(root, team)
    // The seam of the test of two commands at once: one stopped here holds the lock, having read the file.
    crashPoint('team tokens read')
    const { file, result } = change(before)
    const path = tokenFilePath(root, team)
    await writeOutputFile({ path, display: displayPath(root, path), contents: `${JSON.stringify(file, null, 2)}\n` }, { boundary: root, cwd: root })
    return result
  })
}

/** A person's link, as serve prints it: the token when it was issued just now, else whether an earlier one still works. */
export type TeamLink = Person & ({ readonly state: 'issued'; readonly token: string } | { readonly state: 'kept' | 'revoked' })

/**
 * Issues a token to each person who never had one, keeps the others' hashes, records `origin` (where
 * the server listens) when given, and writes the file. Returns every person's link state, in the
 * team file's order. Called once the server listens, so that every token it issues is printed.
 */
export async function issueTokens(root: string, team: LoadedTeam, origin?: string): Promise<readonly TeamLink[]> {
  return updateTokenFile(root, team, (file) => {
    const people = { ...file.people }
    const links = team.people.map((person): TeamLink => {
      const kept = own(people, person.name)
      if (kept === null) return { ...person, state: 'revoked' }
      if (kept !== undefined) return { ...person, state: 'kept' }
      const token = newToken()
      people[person.name] = issued(token)
      return { ...person, state: 'issued', token }
    })
    return { file: { ...file, team: team.display, origin: origin ?? file.origin, people }, result: links }
  })
}

/** Issues `name` a new token in place of their old one (or none), and no one else; returns the token. */
export async function reissueToken(root: string, team: LoadedTeam, name: string): Promise<string> {
  const token = newToken()
  await updateTokenFile(root, team, (file) => ({ file: { ...file, people: { ...file.people, [name]: issued(token) } }, result: undefined }))
  return token
}

function issued(token: string): { token_sha256: string; issued: string } {
  return { token_sha256: tokenHash(token), issued: new Date().toISOString() }
}

/** Revokes a person's link: the running server refuses it from its next request. */
export async function revokeToken(root: string, team: LoadedTeam, name: string): Promise<void> {
  await updateTokenFile(root, team, (file) => ({ file: { ...file, people: { ...file.people, [name]: null } }, result: undefined }))
}

/**
 * Who a token names, as the token file says now: the file is read again whenever it changed (its
 * modification time, size or inode), so a link revoked or reissued by another process is refused
 * or accepted from the next request on, without a restart.
 */
export class TeamTokens {
  readonly #root: string
  readonly #team: LoadedTeam
  readonly #people: ReadonlyMap<string, Person>
  #byHash = new Map<string, Person>()
  #seen = ''

  constructor(root: string, team: LoadedTeam) {
    this.#root = root
    this.#team = team
    this.#people = new Map(team.people.map((person) => [person.name, person]))
  }

  /** The project root the token file lies in. */
  get root(): string {
    return this.#root
  }

  /** The team file. */
  get team(): LoadedTeam {
    return this.#team
  }

  /** The people of the team file, in its order. */
  get people(): readonly Person[] {
    return this.#team.people
  }

  /** The person `token` names, or `undefined` for a token no one holds (or one revoked). */
  async personOf(token: string): Promise<Person | undefined> {
    await this.#refresh()
    return this.#byHash.get(tokenHash(token))
  }

  async #refresh(): Promise<void> {
    const path = tokenFilePath(this.#root, this.#team)
    let mark: string
    try {
      const info = await stat(path)
      mark = `${info.ino}:${info.size}:${info.mtimeMs}`
    } catch (cause) {
      if (errnoCode(cause) !== 'ENOENT') throw cause
      mark = 'missing'
    }
    if (mark === this.#seen) return
    const byHash = new Map<string, Person>()
    try {
      const file = await readTokenFile(this.#root, this.#team)
      for (const [name, entry] of Object.entries(file.people)) {
        const person = this.#people.get(name)
        if (person !== undefined && entry !== null) byHash.set(entry.token_sha256, person)
      }
    } catch (error) {
      // A file that cannot be read names no one: every link is refused until it is repaired.
      console.error(`vitest-rubric serve: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
    }
    this.#byHash = byHash
    this.#seen = mark
  }
}
