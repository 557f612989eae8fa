import type { RunningServer } from '../../web/server.js'
import { loadTeam, type LoadedTeam } from '../../web/team.js'
import { issueTokens, readTokenFile, reissueToken, revokeToken, TeamTokens, tokenFilePath, type TeamLink } from '../../web/team-tokens.js'
import { displayPath } from '../../core/common/display-path.js'
import { usage, type CliIo } from '../command.js'

// `serve --team`: the people's links. Issued once the server listens, and printed at once (a start
// that fails issues none; a restart keeps the links printed before); revoked or reissued by
// `serve --team <file> --revoke|--reissue <name>` while the server runs, which picks the change up
// from its next request.

/** The team and its tokens; the file of token hashes is read, so that a broken one stops serve before it listens. */
export async function openTeam(file: string, cwd: string): Promise<{ team: LoadedTeam; tokens: TeamTokens }> {
  const team = await loadTeam(file, cwd)
  await readTokenFile(cwd, team)
  return { team, tokens: new TeamTokens(cwd, team) }
}

/**
 * Issues a link to each person who never had one, records where the server listens (for the links
 * a later `--reissue` prints), and prints each person's link. Returns the links.
 */
export async function announceTeam(team: LoadedTeam, server: RunningServer, cwd: string, io: CliIo): Promise<readonly TeamLink[]> {
  const origin = new URL(server.url).origin
  const links = await issueTokens(cwd, team, origin)
  io.stdout(`links for ${team.display} (token hashes in ${displayPath(cwd, tokenFilePath(cwd, team))}):`)
  for (const link of links) io.stdout(`  ${linkLine(link, origin, team)}`)
  return links
}

/** `--revoke <name>` or `--reissue <name>`: changes the person's link, and no one else's, and prints what became of it. */
export async function reviseTeamLink(file: string, action: 'revoke' | 'reissue', name: string, cwd: string, io: CliIo): Promise<number> {
  const team = await loadTeam(file, cwd)
  const person = team.people.find((each) => each.name === name)
  if (person === undefined)
    throw usage('serve', `--${action} ${name}: ${team.display} has no person of that name (it has ${team.people.map((each) => each.name).join(', ')}).`)
  if (action === 'revoke') {
    await revokeToken(cwd, team, name)
    io.stdout(`${name}'s link is revoked: a running server refuses it from its next request. \`--reissue ${name}\` gives them a new one.`)
    return 0
  }
  const token = await reissueToken(cwd, team, name)
  const origin = (await readTokenFile(cwd, team)).origin ?? 'http://127.0.0.1:5178'
  io.stdout(
    `${linkLine({ ...person, state: 'issued', token }, origin, team)}\n(the old link no longer works; a running server accepts the new one from its next request)`,
  )
  return 0
}

function linkLine(link: TeamLink, origin: string, team: LoadedTeam): string {
  const who = `${link.name} (${link.role})`
  if (link.state === 'issued') return `${who}: ${origin}/?token=${link.token}`
  if (link.state === 'revoked') return `${who}: revoked (serve --team ${team.display} --reissue ${link.name} issues a new link)`
  return `${who}: the link printed earlier still works (only its hash is kept; --reissue ${link.name} prints a new one)`
}
