import type { RunningServer } from '../../web/server.js'
import { loadTeam, type LoadedTeam } from '../../web/team.js'
import { issueTokens, readTokenFile, recordOrigin, revokeToken, TeamTokens, tokenFilePath, type TeamLink } from '../../web/team-tokens.js'
import { displayPath } from '../../core/common/display-path.js'
import { usage, type CliIo } from '../command.js'

// `serve --team`: the people's links. Issued when the server starts (a restart keeps the links
// printed before), revoked or reissued by `serve --team <file> --revoke|--reissue <name>` while the
// server runs, which picks the change up from its next request.

/** The team and its tokens, each person who never had a link issued one. */
export async function openTeam(file: string, cwd: string): Promise<{ team: LoadedTeam; tokens: TeamTokens; links: readonly TeamLink[] }> {
  const team = await loadTeam(file, cwd)
  const links = await issueTokens(cwd, team)
  return { team, tokens: new TeamTokens(cwd, team), links }
}

/** Prints each person's link, and records where the server listens for the links a later `--reissue` prints. */
export async function announceTeam(team: LoadedTeam, links: readonly TeamLink[], server: RunningServer, cwd: string, io: CliIo): Promise<void> {
  const origin = new URL(server.url).origin
  await recordOrigin(cwd, team, origin)
  io.stdout(`links for ${team.display} (token hashes in ${displayPath(cwd, tokenFilePath(cwd, team))}):`)
  for (const link of links) io.stdout(`  ${linkLine(link, origin, team)}`)
}

/** `--revoke <name>` or `--reissue <name>`: changes the person's link and prints what became of it. */
export async function reviseTeamLink(file: string, action: 'revoke' | 'reissue', name: string, cwd: string, io: CliIo): Promise<number> {
  const team = await loadTeam(file, cwd)
  if (!team.people.some((person) => person.name === name))
    throw usage('serve', `--${action} ${name}: ${team.display} has no person of that name (it has ${team.people.map((person) => person.name).join(', ')}).`)
  if (action === 'revoke') {
    await revokeToken(cwd, team, name)
    io.stdout(`${name}'s link is revoked: a running server refuses it from its next request. \`--reissue ${name}\` gives them a new one.`)
    return 0
  }
  const link = (await issueTokens(cwd, team, [name])).find((each) => each.name === name)!
  const origin = (await readTokenFile(cwd, team)).origin ?? 'http://127.0.0.1:5178'
  io.stdout(`${linkLine(link, origin, team)}\n(the old link no longer works; a running server accepts the new one from its next request)`)
  return 0
}

function linkLine(link: TeamLink, origin: string, team: LoadedTeam): string {
  const who = `${link.name} (${link.role})`
  if (link.state === 'issued') return `${who}: ${origin}/?token=${link.token}`
  if (link.state === 'revoked') return `${who}: revoked (serve --team ${team.display} --reissue ${link.name} issues a new link)`
  return `${who}: the link printed earlier still works (only its hash is kept; --reissue ${link.name} prints a new one)`
}
