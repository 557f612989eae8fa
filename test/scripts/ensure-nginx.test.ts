// `npm test` runs scripts/ensure-nginx.mjs after ensure-chromium.mjs, so that the proxy test runs
// on a fresh machine. Its decisions are tested with an injected file system and command runner: no
// test runs apt-get.
import { describe, expect, test } from 'vitest'
import { DEBIAN_NGINX, ensureNginx } from '../../scripts/ensure-nginx.mjs'

/** A machine with these executables; `installs` lists the apt-get calls after which nginx is there. */
function machine(executables: string[], { isRoot = true, hasApt = true, installsOn = [1] } = {}) {
  const files = new Set(executables)
  const runs: string[] = []
  const lines: string[] = []
  let installs = 0
  return {
    runs,
    lines,
    options: {
      isRoot,
      hasApt,
      isExecutable: (path: string) => files.has(path),
      log: (line: string) => lines.push(line),
      run: (name: string, args: readonly string[]) => {
        runs.push([name, ...args].join(' '))
        if (args[0] !== 'install') return 0
        installs++
        if (installsOn.includes(installs)) {
          files.add(DEBIAN_NGINX)
          return 0
        }
        return 100
      },
    },
  }
}

describe('ensure-nginx', () => {
  test('a machine with nginx runs nothing', () => {
    const m = machine([DEBIAN_NGINX])
    expect(ensureNginx(m.options)).toBe(DEBIAN_NGINX)
    expect(m.runs).toEqual([])
  })

  test('as root with apt-get it installs Debian’s nginx, updating the package lists only when the first install fails', () => {
    const first = machine([])
    expect(ensureNginx(first.options)).toBe(DEBIAN_NGINX)
    expect(first.runs).toEqual(['apt-get install -y --no-install-recommends nginx'])
    const stale = machine([], { installsOn: [2] })
    expect(ensureNginx(stale.options)).toBe(DEBIAN_NGINX)
    expect(stale.runs).toEqual(['apt-get install -y --no-install-recommends nginx', 'apt-get update', 'apt-get install -y --no-install-recommends nginx'])
  })

  test('without root, or when apt-get cannot install it, nothing fails: it says the proxy test will be skipped', () => {
    const user = machine([], { isRoot: false })
    expect(ensureNginx(user.options)).toBeUndefined()
    expect(user.runs).toEqual([])
    expect(user.lines.join('\n')).toMatch(/test\/web\/proxy\.test\.ts will be skipped/)
    const broken = machine([], { installsOn: [] })
    expect(ensureNginx(broken.options)).toBeUndefined()
    expect(broken.lines.at(-1)).toMatch(/could not install nginx: test\/web\/proxy\.test\.ts will be skipped/)
  })

  test('--dry-run says what it would run and runs nothing', () => {
    const m = machine([])
    expect(ensureNginx({ ...m.options, dryRun: true })).toBeUndefined()
    expect(m.runs).toEqual([])
    expect(m.lines.join('\n')).toMatch(/apt-get install -y --no-install-recommends nginx/)
  })
})
