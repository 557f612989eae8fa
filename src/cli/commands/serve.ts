import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { displayPath } from '../../core/common/display-path.js'
import { requireFixtureDirectory } from '../../core/engine/fixture-directory.js'
import { ListenError } from '../../web/listen.js'
import { startServer, type RunningServer } from '../../web/server.js'
import { isLoopback } from '../../web/respond.js'
import { parsePublicOrigin } from '../../web/public-origin.js'
import { DEFAULT_RATE_LIMIT, MAX_RATE_LIMIT, parseRateLimit } from '../../web/rate-limit.js'
import { REVIEWER_NAME as JUDGE_NAME } from '../../core/engine/panel.js'
import { minReviewsOption, usage, stringOption, stringOptions, wholeNumberOption, type Command } from '../command.js'
import { announceTeam, openTeam, reviseTeamLink } from './serve-team.js'
import { configuredRubricOptions, hasViteConfig } from '../vitest-config.js'
import { fixtureDirs } from './status.js'
import { DEFAULT_RESERVE_MINUTES, DEFAULT_REVIEWS_PER_CASE, MAX_RESERVE_MINUTES, MAX_REVIEWS_PER_CASE } from '../../web/assignment.js'

/** `vitest-rubric serve [dirs...]`: the local review page. */
export const serve: Command = {
  name: 'serve',
  summary: 'a local web page to read, review and adjudicate cases (loopback only, with a token)',
  help: `Usage: vitest-rubric serve [dir...] [--port <n>] [--host <host>] [--open] [--min-reviews <n>]
                            [--judge <name>] [--public-origin <url>] [--rate-limit <n>] [--commit]
       vitest-rubric serve <A> <B> --compare [options]
       vitest-rubric serve [dir...] --team <team.json> [--reviews-per-case <n>]
                            [--reserve-minutes <n>] [options]
       vitest-rubric serve --team <team.json> --revoke <name> | --reissue <name>

Starts a local server for the review page and prints its URL, which carries a random token. The
page shows every fixture's figures and cases, each case with its answer (spans highlighted), its
source (reference quotes highlighted), its criteria and its decision; it records reviews and
adjudications through the same path as \`review\` and \`adjudicate\`. Without directories it serves
the fixtures \`status\` finds under fixtures/. Ctrl-C stops it. The n key opens the next case of the
review queue (\`vitest-rubric next\`'s order: sampled cases first), and the case says why it is next.
A fixture with a sample (sample.json) shows how far its review has come; with a judge's labels too,
the judge-assisted estimate (the fixture's only judge, the first by name, or --judge).

With --compare and two fixtures, the URL printed (and opened) is the comparison view of their
systems, as \`vitest-rubric compare <A> <B>\` compares them: both decisions per task, discordant
first, the paired figures, and a selected task's two answers side by side. Read-only. Any two
served fixtures are compared at #/compare/<a>/<b> (their numbers, from 0).

With --team, each person of the team file ({ "people": [ { "name", "role" } ] }, each role
"reviewer", "adjudicator" or "reader") has a link of their own, whose token names them: a reviewer
reviews blind as themselves, an adjudicator adopts under their name, a reader saves nothing, and
the single token is refused. Only each token's SHA-256 is kept, in .vitest-rubric/team/ of the
current folder; a link is printed once, when issued, and a restart keeps the links printed before.
A reviewer's "next" (the n key) hands them the next case of their review queue that still needs a
review, and reserves it for them: a case is handed out only while its independent reviews and
reservations number fewer than --reviews-per-case. Reservations are kept beside the token hashes:
a restart keeps them, and \`vitest-rubric status\` lists them.

Options:
  --port <n>          the port (default 5178, or the next free one above it; 0 for any free
                      port); a port given here that is in use stops serve with an error
  --host <host>       the loopback address to bind (default 127.0.0.1; ::1 and localhost too);
                      other machines reach the page through a proxy (--public-origin)
  --open              open the page in the default browser, through a one-time link that
                      holds no token
  --min-reviews <n>   a case needs n independent reviews (reviews/<name>.json) before it is decided,
                      as for evaluate (default 0)
  --judge <name>      the judge of the overview's judge-assisted estimate (a fixture with a
                      sample but without its labels says so), and of the comparison view's
                      judge-assisted B − A
  --compare           open on the comparison view of the two fixtures given
  --team <file>       serve a team: one personal link per person of the team file
  --reviews-per-case <n>
                      with --team: the independent reviews each case needs before it is
                      handed out no more, 1 to ${MAX_REVIEWS_PER_CASE} (default --min-reviews when given, else
                      rubric()'s reviewers.min in the Vitest config, else 2)
  --reserve-minutes <n>
                      with --team: how long a case handed out stays reserved for its
                      reviewer unless they save or skip it, 1 to ${MAX_RESERVE_MINUTES} (a week; default ${DEFAULT_RESERVE_MINUTES})
  --revoke <name>     with --team: revoke the person's link, and exit (a running server
                      refuses it from its next request)
  --reissue <name>    with --team: issue the person a new link in place of the old, print it,
                      and exit (a running server accepts it from its next request)
  --public-origin <url>
                      serve through a reverse proxy that terminates TLS at this https://
                      origin (no path): serve still listens on loopback, accepts that Host
                      and Origin and no other (not its loopback address either), and prints
                      links at it
  --rate-limit <n>    requests a second each link (token) may send, in bursts of ten seconds'
                      worth, 1 to ${MAX_RATE_LIMIT} (default ${DEFAULT_RATE_LIMIT.perSecond}); past it, requests are refused with 429
                      and Retry-After
  --commit            make each save a git commit of the files it wrote, authored by the
                      person who saved (refused unless the fixtures are in a git work tree);
                      without it, each save is a line of .vitest-rubric/audit/<hash>.jsonl

Exit codes: 0 when stopped; 1 when a directory does not exist, when it cannot listen, or with
--commit cannot commit; 2 on a usage error.`,
  options: {
    ...stringOptions('port', 'host', 'min-reviews', 'judge', 'team', 'revoke', 'reissue', 'public-origin', 'rate-limit', 'reviews-per-case', 'reserve-minutes'),
    open: { type: 'boolean', default: false },
    compare: { type: 'boolean', default: false },
    commit: { type: 'boolean', default: false },
  },
  async run({ values, positionals }, io) {
    const teamFile = stringOption(values, 'team')
    const revoke = stringOption(values, 'revoke')
    const reissue = stringOption(values, 'reissue')
    if (teamFile === undefined && (revoke !== undefined || reissue !== undefined))
      throw usage('serve', `--${revoke === undefined ? 'reissue' : 'revoke'} needs --team <team.json>: the team whose link it changes.`)
    if (revoke !== undefined && reissue !== undefined) throw usage('serve', 'give --revoke or --reissue, not both.')
    if (teamFile !== undefined && revoke !== undefined) return reviseTeamLink(teamFile, 'revoke', revoke, io.cwd, io)
    if (teamFile !== undefined && reissue !== undefined) return reviseTeamLink(teamFile, 'reissue', reissue, io.cwd, io)
    if (teamFile !== undefined && values['open'] === true)
      throw usage('serve', '--open cannot be used with --team: each person opens their own link, which serve prints.')
    const dirs = positionals.length > 0 ? positionals : await fixtureDirs(io.cwd)
    if (dirs.length === 0) throw usage('serve', 'no fixture directories: pass some, or create one with `vitest-rubric init fixtures/<name>`.')
    const compare = values['compare'] === true
    if (compare && positionals.length !== 2)
      throw usage('serve', `--compare takes two fixture directories, A and B (${positionals.length === 1 ? 'one was' : `${positionals.length} were`} given).`)
    // The comparison view of fixtures 0 and 1: the address's fragment survives the one-time link's redirect.
    const view = compare ? '#/compare/0/1' : ''
    const portText = stringOption(values, 'port')
    const port = portText === undefined ? 5178 : wholeNumberOption('serve', 'port', portText, 0, 65535, 'a port number')
    const host = stringOption(values, 'host') ?? '127.0.0.1'
    // The page writes reviews: it answers on this machine only, and other machines reach it through a proxy that terminates TLS.
    if (!isLoopback(host))
      throw usage(
        'serve',
        `--host takes a loopback address (127.0.0.1, ::1 or localhost), not ${JSON.stringify(host)}: serve answers on this machine only. To reach the page from other machines, put a reverse proxy in front of it and give --public-origin (docs/review-page.md#behind-a-reverse-proxy).`,
      )
    const publicOrigin = optionValue(stringOption(values, 'public-origin'), parsePublicOrigin)
    const rateLimit = optionValue(stringOption(values, 'rate-limit'), parseRateLimit)
    const judge = stringOption(values, 'judge')
    if (judge !== undefined && !JUDGE_NAME.test(judge))
      throw usage('serve', `--judge takes a judge's name (judges/<name>.json): letters, digits, ".", "_" and "-", not ${JSON.stringify(judge)}.`)
    const assign = await assignOptions(values, teamFile !== undefined, io.cwd)
    const team = teamFile === undefined ? undefined : await openTeam(teamFile, io.cwd)
    // A directory that does not exist is refused as every command refuses it, after the usage errors (a team file's
    // mistakes among them) and before the page is served.
    for (const dir of positionals) await requireFixtureDirectory(resolve(io.cwd, dir), displayPath(io.cwd, resolve(io.cwd, dir)), io.cwd)
    let server: RunningServer
    try {
      server = await startServer({
        dirs,
        cwd: io.cwd,
        host,
        port,
        strictPort: portText !== undefined,
        panel: { minReviews: minReviewsOption('serve', values['min-reviews']) },
        ...(team === undefined ? {} : { team: team.tokens }),
        commit: values['commit'] === true,
        ...(publicOrigin === undefined ? {} : { publicOrigin }),
        ...(rateLimit === undefined ? {} : { rateLimit }),
        ...(assign === undefined ? {} : { assign }),
        ...(judge === undefined ? {} : { judge }),
      })
    } catch (error) {
      if (!(error instanceof ListenError)) throw error
      io.stderr(`vitest-rubric serve: ${error.message}`)
      return 1
    }
    if (server.port !== port && port !== 0) io.stdout(`port ${port} is in use; serving on ${server.port}.`)
    if (team !== undefined) {
      io.stdout(`vitest-rubric review page for ${dirs.join(', ')}, for a team`)
      // Issued only now that the server listens, so that each link issued is printed.
      await announceTeam(team.team, server, io.cwd, io).catch(async (error: unknown) => {
        await server.close()
        throw error
      })
      const { reviewsPerCase, reserveMs } = assign!
      io.stdout(
        `each case needs ${reviewsPerCase} independent review${reviewsPerCase === 1 ? '' : 's'}; a case handed to a reviewer (their n) is reserved for them ${reserveMs / 60_000} minutes.`,
      )
      io.stdout('Ctrl-C stops it.')
    } else
      io.stdout(
        compare
          ? `vitest-rubric comparison of ${dirs[0]} (A) and ${dirs[1]} (B)\n  ${server.url}${view}\nCtrl-C stops it.`
          : `vitest-rubric review page for ${dirs.join(', ')}\n  ${server.url}\nCtrl-C stops it.`,
      )
    // Not the printed URL: the launcher's command line is readable by other local users.
    if (values['open'] === true) openBrowser(`${server.openUrl()}${view}`, io.stderr)
    await new Promise<void>((done) => {
      process.once('SIGINT', done)
      process.once('SIGTERM', done)
    })
    await server.close()
    io.stdout('stopped')
    return 0
  },
}

/**
 * `--reviews-per-case` and `--reserve-minutes`: whole numbers from 1 (to their maximum), and only with --team. The
 * reviews per case are, by default, --min-reviews when given, else rubric()'s reviewers.min in the
 * folder's Vitest config when it sets one, else 2.
 */
async function assignOptions(
  values: Parameters<typeof stringOption>[0],
  isTeam: boolean,
  cwd: string,
): Promise<{ reviewsPerCase: number; reserveMs: number } | undefined> {
  const [perCase, minutes] = (['reviews-per-case', 'reserve-minutes'] as const).map((name) => {
    const text = stringOption(values, name)
    if (text === undefined) return undefined
    if (!isTeam) throw usage('serve', `--${name} needs --team <team.json>: cases are handed out only to a team's reviewers.`)
    return name === 'reviews-per-case'
      ? wholeNumberOption('serve', name, text, 1, MAX_REVIEWS_PER_CASE, 'a whole number of reviews')
      : wholeNumberOption('serve', name, text, 1, MAX_RESERVE_MINUTES, 'a whole number of minutes', ' (a week)')
  })
  if (!isTeam) return undefined
  const minReviews = minReviewsOption('serve', values['min-reviews'])
  const configured =
    perCase === undefined && minReviews === 0 && hasViteConfig(cwd) ? (await configuredRubricOptions('serve', cwd, undefined)).options.reviewers.min : 0
  const reviewsPerCase = perCase ?? (minReviews > 0 ? minReviews : configured > 0 ? configured : DEFAULT_REVIEWS_PER_CASE)
  if (reviewsPerCase > MAX_REVIEWS_PER_CASE)
    throw usage(
      'serve',
      `each case would need ${reviewsPerCase} independent reviews (${minReviews > 0 ? `--min-reviews ${minReviews}` : `rubric()'s reviewers.min`}), more than the ${MAX_REVIEWS_PER_CASE} --reviews-per-case allows: give --reviews-per-case.`,
    )
  return { reviewsPerCase, reserveMs: (minutes ?? DEFAULT_RESERVE_MINUTES) * 60_000 }
}

/** An option read by `parse`, its error a usage error of serve. */
function optionValue<T>(text: string | undefined, parse: (text: string) => T): T | undefined {
  if (text === undefined) return undefined
  try {
    return parse(text)
  } catch (error) {
    throw usage('serve', error instanceof Error ? error.message : String(error))
  }
}

function openBrowser(url: string, warn: (text: string) => void): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
  const child = spawn(command, [url], { stdio: 'ignore', detached: true })
  child.on('error', () => warn(`could not open a browser (${command}); open the URL above.`))
  child.unref()
}
