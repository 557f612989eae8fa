#!/usr/bin/env node
// The review page's tests (test/web/) drive a real Chromium through playwright-core, which never
// downloads a browser. `npm test` runs this first: it finds the system's Chromium, installs Debian's
// when it can (as root, with apt-get), or stops and says what to install. Nothing here downloads a
// browser build.
//
//   node scripts/ensure-chromium.mjs            find Chromium, or install Debian's
//   node scripts/ensure-chromium.mjs --dry-run  say what it would do, change nothing
import { spawnSync } from 'node:child_process'
import { accessSync, constants, realpathSync, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where Debian's `chromium` package puts the browser. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium'
/** The names a system's Chromium goes by on PATH. */
export const PATH_NAMES = ['chromium', 'chromium-browser']
/** What this script runs, as root, when no Chromium is found. */
export const INSTALL_COMMANDS = [
  ['apt-get', ['update']],
  ['apt-get', ['install', '-y', '--no-install-recommends', 'chromium']],
]

/** A regular file the user may execute. */
export function isExecutableFile(path) {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function onPath(name, env, isExecutable) {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && isExecutable(join(dir, name))) return join(dir, name)
  }
  return undefined
}

/**
 * The Chromium the tests use: `CHROMIUM_PATH` when it is set, else Debian's /usr/bin/chromium, else
 * `chromium` or `chromium-browser` on PATH.
 */
export function findChromium({ env = process.env, isExecutable = isExecutableFile } = {}) {
  const override = env.CHROMIUM_PATH
  if (override !== undefined && override !== '') {
    return isExecutable(override) ? { status: 'found', path: override, via: 'CHROMIUM_PATH' } : { status: 'bad-override', path: override }
  }
  if (isExecutable(DEBIAN_CHROMIUM)) return { status: 'found', path: DEBIAN_CHROMIUM, via: "Debian's chromium" }
  for (const name of PATH_NAMES) {
    const path = onPath(name, env, isExecutable)
    if (path !== undefined) return { status: 'found', path, via: `${name} on PATH` }
  }
  return { status: 'missing' }
}

/** Why the tests cannot get a Chromium, with what to do about it. */
export class ChromiumMissingError extends Error {
  name = 'ChromiumMissingError'
}

const LOOKED = `CHROMIUM_PATH is not set, ${DEBIAN_CHROMIUM} does not exist, and neither ${PATH_NAMES.join(' nor ')} is on PATH`
const WHAT_TO_DO = [
  "playwright-core drives the system's Chromium and never downloads one. Either:",
  '  - install it: `sudo apt-get install -y chromium` on Debian (chromium-browser or Google Chrome elsewhere);',
  '  - or set CHROMIUM_PATH to a Chromium or Chrome executable: `CHROMIUM_PATH=/path/to/chrome npm test`.',
].join('\n')
const command = ([name, args]) => [name, ...args].join(' ')

/**
 * Finds Chromium, or installs Debian's with apt-get when it runs as root, and returns its path; or
 * throws a `ChromiumMissingError` that says what to install. `run` runs one command and returns
 * its exit status; with `dryRun` nothing is run and the path is undefined.
 */
export function ensureChromium({
  env = process.env,
  isExecutable = isExecutableFile,
  isRoot = process.getuid?.() === 0,
  run = runInherited,
  log = (line) => console.log(line),
  dryRun = false,
} = {}) {
  const found = findChromium({ env, isExecutable })
  if (found.status === 'found') {
    log(`Chromium for the review page's tests: ${found.path} (${found.via})`)
    return found.path
  }
  if (found.status === 'bad-override') {
    throw new ChromiumMissingError(
      `CHROMIUM_PATH is ${found.path}, which is not an executable file. Set it to a Chromium or Chrome executable, or unset it to use ${DEBIAN_CHROMIUM}.`,
    )
  }
  const apt = onPath('apt-get', env, isExecutable)
  if (!isRoot || apt === undefined) {
    const why = !isRoot ? 'it does not run as root' : 'apt-get is not on PATH'
    throw new ChromiumMissingError(
      `No Chromium for the review page's tests (test/web/): ${LOOKED}.\n${WHAT_TO_DO}\n` +
        `npm test installs Debian's chromium itself only as root with apt-get; here ${why}.`,
    )
  }
  log(`No Chromium for the review page's tests (test/web/): ${LOOKED}.`)
  log(`Installing Debian's chromium (playwright-core never downloads a browser), as root with apt-get:`)
  for (const step of INSTALL_COMMANDS) log(`  ${command(step)}`)
  if (dryRun) {
    log('Dry run: nothing installed.')
    return undefined
  }
  for (const step of INSTALL_COMMANDS) {
    const status = run(step[0], step[1], { ...env, DEBIAN_FRONTEND: 'noninteractive' })
    if (status !== 0) {
      throw new ChromiumMissingError(`\`${command(step)}\` failed (exit status ${String(status)}), so Chromium is not installed.\n${WHAT_TO_DO}`)
    }
  }
  const installed = findChromium({ env, isExecutable })
  if (installed.status !== 'found') {
    throw new ChromiumMissingError(`apt-get installed chromium, but ${LOOKED}.\n${WHAT_TO_DO}`)
  }
  log(`Chromium for the review page's tests: ${installed.path} (installed)`)
  return installed.path
}

function runInherited(name, args, env) {
  const result = spawnSync(name, args, { stdio: 'inherit', env })
  return result.error === undefined ? result.status : null
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  try {
    ensureChromium({ dryRun: process.argv.includes('--dry-run') })
  } catch (error) {
    if (!(error instanceof ChromiumMissingError)) throw error
    console.error(error.message)
    process.exitCode = 1
  }
}
