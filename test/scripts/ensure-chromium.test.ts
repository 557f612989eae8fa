// `npm test` runs scripts/ensure-chromium.mjs first, so that the review page's tests get a Chromium
// on a fresh machine. Its decisions are tested with an injected file system and command runner:
// no test runs apt-get.
import { spawnSync } from 'node:child_process'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { ChromiumMissingError, ensureChromium, findChromium } from '../../scripts/ensure-chromium.mjs'
import { scratchDir } from '../helpers/scratch.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SCRIPT = join(ROOT, 'scripts/ensure-chromium.mjs')

/** A machine with these executables, recording every command run and every line printed. */
function machine(executables: string[], { isRoot = true, env = { PATH: '/usr/local/bin:/usr/bin:/bin' } as Record<string, string>, installs = true } = {}) {
  const files = new Set(executables)
  const runs: string[] = []
  const lines: string[] = []
  return {
    runs,
    lines,
    options: {
      env,
      isRoot,
      isExecutable: (path: string) => files.has(path),
      log: (line: string) => lines.push(line),
      run: (name: string, args: readonly string[], runEnv: Readonly<Record<string, string | undefined>>) => {
        runs.push(`${runEnv['DEBIAN_FRONTEND'] === 'noninteractive' ? 'DEBIAN_FRONTEND=noninteractive ' : ''}${[name, ...args].join(' ')}`)
        if (installs && args[0] === 'install') files.add('/usr/bin/chromium')
        return installs ? 0 : 100
      },
    },
  }
}

function refusal(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ChromiumMissingError)
    return (error as Error).message
  }
  throw new Error('expected a refusal')
}

describe('ensure-chromium', () => {
  test("CHROMIUM_PATH wins over Debian's chromium and PATH, and nothing is installed", () => {
    const m = machine(['/opt/chrome/chrome', '/usr/bin/chromium', '/usr/bin/apt-get'], { env: { PATH: '/usr/bin', CHROMIUM_PATH: '/opt/chrome/chrome' } })
    expect(ensureChromium(m.options)).toBe('/opt/chrome/chrome')
    expect(m.runs).toEqual([])
    expect(m.lines).toEqual(["Chromium for the review page's tests: /opt/chrome/chrome (CHROMIUM_PATH)"])
  })

  test('a CHROMIUM_PATH that is not an executable is refused, not replaced by an install', () => {
    const m = machine(['/usr/bin/apt-get'], { env: { PATH: '/usr/bin', CHROMIUM_PATH: '/opt/chrome/chrome' } })
    expect(refusal(() => ensureChromium(m.options))).toMatchInlineSnapshot(
      `"CHROMIUM_PATH is /opt/chrome/chrome, which is not an executable file. Set it to a Chromium or Chrome executable, or unset it to use /usr/bin/chromium."`,
    )
    expect(m.runs).toEqual([])
  })

  test("Debian's /usr/bin/chromium, then chromium or chromium-browser on PATH", () => {
    expect(findChromium(machine(['/usr/bin/chromium', '/usr/local/bin/chromium']).options)).toEqual({
      status: 'found',
      path: '/usr/bin/chromium',
      via: "Debian's chromium",
    })
    const onPath = machine(['/snap/bin/chromium-browser', '/usr/bin/apt-get'], { env: { PATH: '/usr/bin:/snap/bin' } })
    expect(ensureChromium(onPath.options)).toBe('/snap/bin/chromium-browser')
    expect(onPath.runs).toEqual([])
    expect(onPath.lines).toEqual(["Chromium for the review page's tests: /snap/bin/chromium-browser (chromium-browser on PATH)"])
  })

  test("with none found, as root with apt-get, it says why and installs Debian's chromium", () => {
    const m = machine(['/usr/bin/apt-get'])
    expect(ensureChromium(m.options)).toBe('/usr/bin/chromium')
    expect(m.runs).toEqual([
      'DEBIAN_FRONTEND=noninteractive apt-get update',
      'DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium',
    ])
    expect(m.lines.join('\n')).toMatchInlineSnapshot(`
      "No Chromium for the review page's tests (test/web/): CHROMIUM_PATH is not set, /usr/bin/chromium does not exist, and neither chromium nor chromium-browser is on PATH.
      Installing Debian's chromium (playwright-core never downloads a browser), as root with apt-get:
        apt-get update
        apt-get install -y --no-install-recommends chromium
      Chromium for the review page's tests: /usr/bin/chromium (installed)"
    `)
  })

  test('a dry run says what it would install and runs nothing', () => {
    const m = machine(['/usr/bin/apt-get'])
    expect(ensureChromium({ ...m.options, dryRun: true })).toBeUndefined()
    expect(m.runs).toEqual([])
    expect(m.lines.at(-1)).toBe('Dry run: nothing installed.')
  })

  test('not as root, it refuses and says what to install or to set CHROMIUM_PATH', () => {
    const m = machine(['/usr/bin/apt-get'], { isRoot: false })
    expect(refusal(() => ensureChromium(m.options))).toMatchInlineSnapshot(`
      "No Chromium for the review page's tests (test/web/): CHROMIUM_PATH is not set, /usr/bin/chromium does not exist, and neither chromium nor chromium-browser is on PATH.
      playwright-core drives the system's Chromium and never downloads one. Either:
        - install it: \`sudo apt-get install -y chromium\` on Debian (chromium-browser or Google Chrome elsewhere);
        - or set CHROMIUM_PATH to a Chromium or Chrome executable: \`CHROMIUM_PATH=/path/to/chrome npm test\`.
      npm test installs Debian's chromium itself only as root with apt-get; here it does not run as root."
    `)
    expect(m.runs).toEqual([])
  })

  test('without apt-get, as root, it refuses the same way', () => {
    const m = machine([])
    expect(refusal(() => ensureChromium(m.options))).toContain('here apt-get is not on PATH.')
    expect(m.runs).toEqual([])
  })

  test('a failed apt-get stops with the command that failed', () => {
    const m = machine(['/usr/bin/apt-get'], { installs: false })
    expect(refusal(() => ensureChromium(m.options)).split('\n')[0]).toBe('`apt-get update` failed (exit status 100), so Chromium is not installed.')
    expect(m.runs).toEqual(['DEBIAN_FRONTEND=noninteractive apt-get update'])
  })

  test('npm test runs it before anything else', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    expect(scripts['test']?.startsWith('node scripts/ensure-chromium.mjs && ')).toBe(true)
  })

  test('as a command, it prints the Chromium it found, or the refusal and exit status 1', async () => {
    const dir = await scratchDir('ensure-chromium')
    const chrome = join(dir, 'chrome')
    writeFileSync(chrome, '#!/bin/sh\n')
    chmodSync(chrome, 0o755)
    const found = spawnSync(process.execPath, [SCRIPT, '--dry-run'], { env: { PATH: '/bin', CHROMIUM_PATH: chrome }, encoding: 'utf8' })
    expect([found.status, found.stdout]).toEqual([0, `Chromium for the review page's tests: ${chrome} (CHROMIUM_PATH)\n`])
    const missing = spawnSync(process.execPath, [SCRIPT, '--dry-run'], { env: { PATH: '/bin', CHROMIUM_PATH: join(dir, 'none') }, encoding: 'utf8' })
    expect([missing.status, missing.stderr]).toEqual([1, expect.stringContaining(`CHROMIUM_PATH is ${join(dir, 'none')}, which is not an executable file.`)])
  })
})
