// The build bundles the package (scripts/build-node.mjs): each process of a Vitest run loads a few
// dozen of the package's files, not the some 300 modules of its source, whose one-by-one resolving
// and reading cost more than their code. A child process imports a built entry with a resolve hook
// that names each file of dist/ it resolves; `npm run build` comes first, as for the CLI's tests.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test } from 'vitest'
import { ROOT } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

const DIST = join(ROOT, 'dist')

const HOOKS = `import { writeSync } from 'node:fs'
const seen = new Set()
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  if (resolved.url.startsWith(${JSON.stringify(pathToFileURL(DIST).href)} + '/') && !seen.has(resolved.url)) {
    seen.add(resolved.url)
    writeSync(2, 'loaded: ' + resolved.url + '\\n')
  }
  if (context.parentURL?.startsWith(${JSON.stringify(pathToFileURL(DIST).href)} + '/') && !/^(\\.|node:|file:)/.test(specifier)) writeSync(2, 'package: ' + specifier + '\\n')
  return resolved
}
`

/** The files of dist/ that importing `entry` loads in a fresh process, by their path below dist/. */
async function loadedBy(entry: string): Promise<string[]> {
  return (await importLog(entry)).filter((line) => line.startsWith('loaded: ')).map((line) => relative(DIST, new URL(line.slice('loaded: '.length)).pathname))
}

/** The packages (bare specifiers) the package's own files import when a fresh process imports `entry`. */
async function packagesOf(entry: string): Promise<string[]> {
  return (await importLog(entry)).filter((line) => line.startsWith('package: ')).map((line) => line.slice('package: '.length))
}

/** What the resolve hook logged while a fresh process imported `entry`. */
async function importLog(entry: string): Promise<string[]> {
  const dir = await scratchDir('bundle')
  await writeFile(join(dir, 'hooks.mjs'), HOOKS)
  await writeFile(join(dir, 'register.mjs'), "import { register } from 'node:module'\nregister('./hooks.mjs', import.meta.url)\n")
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      pathToFileURL(join(dir, 'register.mjs')).href,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(pathToFileURL(join(DIST, entry)).href)})`,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  )
  expect(child.status, child.stderr).toBe(0)
  return child.stderr.split('\n')
}

/** The built files that are not chunks: the build's entries (and the page's script). */
function builtEntries(): string[] {
  return readdirSync(DIST, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js') && !file.startsWith('chunks/') && file !== 'web/client/page.js')
    .sort()
}

// What each process of a run imports: Vitest's (the plugin and the reporter), the planning
// process's, and a worker's (the runtime and the matchers' setup).
test.for(['plugin.js', 'reporter/index.js', 'run/plan-child.js', 'runtime/index.js', 'matchers/setup.js'])(
  'importing dist/%s loads entries and shared chunks only, at most 40 files',
  async (entry) => {
    const entries = builtEntries()
    const loaded = await loadedBy(entry)
    expect(loaded).toContain(entry)
    expect(loaded.filter((file) => !file.startsWith('chunks/') && !entries.includes(file))).toEqual([])
    expect(loaded.length).toBeLessThanOrEqual(40)
  },
)

test('the built code is the entries and their chunks: no module of the source is built on its own', () => {
  const entries = builtEntries()
  // More than the public entries (the command, the planning process, what tests start by path), and
  // far fewer than the source's modules.
  expect(entries).toEqual(expect.arrayContaining(['index.js', 'plugin.js', 'cli/bin.js', 'run/plan-child.js', 'runtime/index.js']))
  expect(entries.length).toBeLessThanOrEqual(30)
})

// A worker imports the runtime once its fixture's plan is made, to declare the plan's tests: what it
// loads then is on the path of every cold run. It needs Vitest and the plan, not the engine that made
// the plan nor the schemas that checked the files.
test("the test worker's runtime loads none of the engine and no schema library", async () => {
  const loaded = await loadedBy('runtime/index.js')
  expect(loaded.length).toBeLessThanOrEqual(4)
  const packages = await packagesOf('runtime/index.js')
  expect(packages).toContain('vitest')
  expect(packages.filter((name) => name !== 'vitest')).toEqual([])
})
