#!/usr/bin/env node
// The review server's proxy test (test/web/proxy.test.ts) runs `serve --public-origin` behind
// Debian's nginx, configured as docs/review-page.md says. `npm test` runs this after
// ensure-chromium.mjs: it finds nginx, or installs Debian's when it can (as root, with apt-get).
// Where it cannot, it says so and the proxy test is skipped with the same message; nothing fails.
//
//   node scripts/ensure-nginx.mjs            find nginx, or install Debian's
//   node scripts/ensure-nginx.mjs --dry-run  say what it would do, change nothing
import { spawnSync } from 'node:child_process'
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { isExecutableFile } from './ensure-chromium.mjs'

/** Where Debian's `nginx` package puts the server. */
export const DEBIAN_NGINX = '/usr/sbin/nginx'

/** What this script runs, as root, when nginx is missing: the install, and once more after an update if the package lists are stale. */
export const INSTALL = ['apt-get', ['install', '-y', '--no-install-recommends', 'nginx']]
export const UPDATE = ['apt-get', ['update']]

/**
 * nginx's path, installing Debian's first when it runs as root with apt-get; `undefined` (and a
 * line saying the proxy test will be skipped) when it cannot.
 */
export function ensureNginx({
  isExecutable = isExecutableFile,
  isRoot = process.getuid?.() === 0,
  hasApt = isExecutable('/usr/bin/apt-get'),
  run = runInherited,
  log = (line) => console.log(line),
  dryRun = false,
} = {}) {
  if (isExecutable(DEBIAN_NGINX)) {
    log(`nginx for the review server's proxy test: ${DEBIAN_NGINX}`)
    return DEBIAN_NGINX
  }
  if (!isRoot || !hasApt) {
    log(
      `No nginx at ${DEBIAN_NGINX}, and ${!isRoot ? 'this does not run as root' : 'apt-get is not here'}: test/web/proxy.test.ts will be skipped (\`apt-get install -y nginx\` runs it).`,
    )
    return undefined
  }
  log(`No nginx for the review server's proxy test: installing Debian's, as root with apt-get: ${[INSTALL[0], ...INSTALL[1]].join(' ')}`)
  if (dryRun) return undefined
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  if (run(INSTALL[0], INSTALL[1], env) !== 0) {
    run(UPDATE[0], UPDATE[1], env)
    run(INSTALL[0], INSTALL[1], env)
  }
  if (isExecutable(DEBIAN_NGINX)) return DEBIAN_NGINX
  log(`apt-get could not install nginx: test/web/proxy.test.ts will be skipped.`)
  return undefined
}

function runInherited(name, args, env) {
  const result = spawnSync(name, args, { stdio: 'inherit', env })
  return result.error === undefined ? result.status : null
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  ensureNginx({ dryRun: process.argv.includes('--dry-run') })
}
