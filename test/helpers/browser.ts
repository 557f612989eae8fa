import { chromium, type Browser } from 'playwright-core'
import { findChromium } from '../../scripts/ensure-chromium.mjs'

/**
 * The system's Chromium, driven by playwright-core, which never downloads a browser: the one
 * `scripts/ensure-chromium.mjs` finds (and `npm test` installs first when it can): `CHROMIUM_PATH`,
 * Debian's /usr/bin/chromium, or `chromium` or `chromium-browser` on PATH. A missing browser fails
 * the tests with what to do, rather than skipping them. `args` are added to Chromium's command line.
 */
export async function launchBrowser(args: readonly string[] = []): Promise<Browser> {
  const found = findChromium()
  if (found.status === 'bad-override') throw new Error(`no browser at CHROMIUM_PATH=${found.path}: set it to a Chromium executable, or unset it`)
  if (found.status === 'missing') {
    throw new Error(
      "no Chromium found: run `node scripts/ensure-chromium.mjs` (as root it installs Debian's chromium), install `chromium`, or set CHROMIUM_PATH",
    )
  }
  // Root in a container has no user namespace for Chromium's sandbox.
  return chromium.launch({ executablePath: found.path, args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ...args] })
}
