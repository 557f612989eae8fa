// The prompt library is the terminal's: the engine, the plugin and every public entry load the
// kind registry, and a kind loads its prompts only when a terminal asks (`import()` inside its
// `terminal` part). A child process imports the built entries with a resolve hook that names every
// module of @clack/prompts resolved; `npm run build` comes first, as for the CLI's tests.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test } from 'vitest'
import { ROOT } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

const HOOKS = `import { writeSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  if (resolved.url.includes('/node_modules/@clack/')) writeSync(2, 'prompt library: ' + resolved.url + '\\n')
  return resolved
}
`

/** The modules of @clack/prompts (and its own packages) that importing `modules` resolves, in a fresh process. */
async function promptModulesLoadedBy(modules: readonly string[]): Promise<string[]> {
  const dir = await scratchDir('prompt-library')
  await writeFile(join(dir, 'hooks.mjs'), HOOKS)
  await writeFile(join(dir, 'register.mjs'), "import { register } from 'node:module'\nregister('./hooks.mjs', import.meta.url)\n")
  const imports = modules.map((module) => `await import(${JSON.stringify(pathToFileURL(join(ROOT, module)).href)})`).join('\n')
  const child = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', imports], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  expect(child.status, child.stderr).toBe(0)
  return child.stderr.split('\n').filter((line) => line.startsWith('prompt library: '))
}

/** The built file of each of package.json's `exports` entries. */
function publicEntries(): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { default?: string }> }
  return Object.values(manifest.exports).flatMap((target) => (typeof target === 'object' && target.default !== undefined ? [target.default] : []))
}

test('no public entry (the engine, the plugin, the reporter, the matchers) loads the prompt library', async () => {
  const entries = publicEntries()
  expect(entries).toEqual(expect.arrayContaining(['./dist/index.js', './dist/plugin.js', './dist/criteria.js', './dist/scored.js']))
  expect(await promptModulesLoadedBy(entries)).toEqual([])
})

test("the check sees the library where it is loaded: a kind's terminal prompt", async () => {
  expect(await promptModulesLoadedBy(['dist/core/kinds/criteria/terminal/review.js'])).not.toEqual([])
})
