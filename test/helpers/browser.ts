import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/**
 * The system's Chromium (Debian's `chromium`; `CHROMIUM_PATH` overrides it), driven by
 * playwright-core, which never downloads a browser. A missing browser fails the tests with the
 * command that installs it, rather than skipping them.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'
  if (!existsSync(executablePath)) throw new Error(`no browser at ${executablePath}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`)
  // Root in a container has no user namespace for Chromium's sandbox.
  return chromium.launch({ executablePath, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] })
}
