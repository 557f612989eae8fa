import { cp, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { announceTeam, openTeam } from '../../src/cli/commands/serve-team.js'
import { startServer, type RunningServer, type ServeOptions } from '../../src/web/server.js'
import type { Person } from '../../src/web/team.js'
import { DOCUCTL } from './fixture-copy.js'
import { scratchDir } from './scratch.js'

/** The team of the tests: two reviewers, an adjudicator and a reader. */
export const TEAM: readonly Person[] = [
  { name: 'alice', role: 'reviewer' },
  { name: 'bob', role: 'reviewer' },
  { name: 'dana', role: 'adjudicator' },
  { name: 'rita', role: 'reader' },
]

export interface ServedTeam {
  readonly root: string
  readonly dir: string
  readonly server: RunningServer
  /** Each person's token, as the links printed at the start carry it. */
  readonly tokens: Readonly<Record<string, string>>
}

/**
 * A copy of the bundled docuctl fixture at `fixtures/lab` of a scratch root, with `team.json` beside
 * it, served to the team as `serve --team team.json` serves it, until the test ends. `root` serves
 * an existing root again (a restart); `options` are added to serve's.
 */
export async function servedTeam(root?: string, options: Partial<ServeOptions> = {}): Promise<ServedTeam> {
  const at = root ?? (await scratchDir('team'))
  if (root === undefined) {
    await cp(DOCUCTL, join(at, 'fixtures/lab'), { recursive: true })
    await writeFile(join(at, 'team.json'), `${JSON.stringify({ people: TEAM }, null, 2)}\n`)
  }
  const { team, tokens } = await openTeam('team.json', at)
  const server = await startServer({ dirs: ['fixtures/lab'], cwd: at, port: 0, team: tokens, ...options })
  onTestFinished(() => server.close())
  // As serve does: the links are issued once the server listens, and the address recorded for the links --reissue prints.
  const links = await announceTeam(team, server, at, { cwd: at, stdout: () => undefined, stderr: () => undefined })
  const issued = Object.fromEntries(links.flatMap((link) => (link.state === 'issued' ? [[link.name, link.token]] : [])))
  return { root: at, dir: join(at, 'fixtures/lab'), server, tokens: issued }
}
