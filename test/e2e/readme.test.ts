import { spawnSync } from 'node:child_process'
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { expect, test } from 'vitest'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

/** Each `$ command` of the console blocks of a README section, with the output lines it shows (`…` skips). */
function consoleSteps(section: string): { command: string; shows: string[] }[] {
  const steps: { command: string; shows: string[] }[] = []
  for (const block of section.matchAll(/```console\n([\s\S]*?)```/g)) {
    const lines = block[1]!.split('\n')
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!
      if (!line.startsWith('$ ')) {
        if (line !== '…' && line !== '' && steps.length > 0) steps.at(-1)!.shows.push(line.trimEnd())
        continue
      }
      let command = line.slice(2)
      while (command.endsWith('\\')) command = `${command.slice(0, -1)}${lines[++index]!.trim()}`
      steps.push({ command: command.trim(), shows: [] })
    }
  }
  return steps
}

/** A project as the README's install section sets it up, the package linked in place of npm i. */
async function readmeProject(readme: string, configName: string, packageJson: string): Promise<string> {
  const project = await scratchDir('readme')
  const config = /```ts\n(\/\/ vitest\.config\.ts\n[\s\S]*?)```/.exec(readme)![1]!
  await writeFile(join(project, configName), config)
  await writeFile(join(project, 'package.json'), packageJson)
  await mkdir(join(project, 'node_modules'))
  for (const entry of await readdir(join(ROOT, 'node_modules')))
    if (!entry.startsWith('.')) await symlink(join(ROOT, 'node_modules', entry), join(project, 'node_modules', entry))
  await symlink(ROOT, join(project, 'node_modules/vitest-rubric'))
  return project
}

test("the README's five-minute path, run as written: init, add, review and vitest, and what each prints", { timeout: 120_000 }, async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8')
  const start = readme.indexOf('## A first fixture in five minutes')
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1))
  const steps = consoleSteps(section)
  expect(steps.map((step) => step.command.split(' ').slice(0, 3).join(' '))).toEqual([
    'npx vitest-rubric init',
    'npx vitest-rubric add',
    'npx vitest-rubric review',
    'npx vitest run',
  ])
  expect(section).not.toMatch(/[0-9a-f]{64}/) // no hash is typed or pasted

  const project = await readmeProject(readme, 'vitest.config.ts', '{ "type": "module" }\n')

  for (const step of steps) {
    const command = step.command
      .replace(/^npx vitest-rubric /, `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'dist/cli/bin.js'))} `)
      .replace(/^npx vitest /, `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'node_modules/vitest/vitest.mjs'))} `)
    const result = spawnSync('bash', ['-c', command], {
      cwd: project,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
    })
    expect(result.status, `${step.command}\n${result.stderr}`).toBe(0)
    const printed = stripVTControlCharacters(result.stdout)
      .split('\n')
      .map((line) => line.trimEnd())
    let from = 0
    for (const line of step.shows) {
      const at = printed.indexOf(line, from)
      expect(at, `${step.command.slice(0, 60)}… should print ${JSON.stringify(line)}; it printed:\n${printed.join('\n')}`).not.toBe(-1)
      from = at + 1
    }
  }
})

test("the README's first command builds before it runs the bin, since installing builds nothing", { timeout: 120_000 }, async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8')
  const first = /^```sh\n(.*?)\s+#/m.exec(readme)![1]!
  expect(first).toBe('npm ci && npm run build && npx vitest-rubric evaluate fixtures/*')
  // npm runs these on install (and warns about them when a tarball is installed): none may exist.
  const { scripts } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  expect(Object.keys(scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([])
  expect(scripts['prepack']).toBe('npm run build')
  // What follows the build, as written, over the built bin (npm test builds first).
  const evaluate = first
    .split(' && ')
    .at(-1)!
    .replace(/^npx vitest-rubric /, `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'dist/cli/bin.js'))} `)
  const result = spawnSync('bash', ['-c', evaluate], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  })
  expect(result.status, result.stderr).toBe(0)
  expect(result.stdout).toContain('docuctl-rollback-contrasts')
  expect(result.stdout).toContain('review coverage:')
})

test("the README's note on the config's module format holds: a CommonJS project names it vitest.config.mts, or a .ts config warns", {
  timeout: 120_000,
}, async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8')
  const flat = readme.replaceAll('\n', ' ')
  expect(flat).toContain('set `"type": "module"` in the project\'s `package.json`, or, in a project that stays CommonJS, name the file `vitest.config.mts`')
  const warning = 'ESM syntax in a file loaded as CommonJS'
  expect(flat).toContain(warning)
  const run = (project: string, ...args: string[]) => {
    const result = spawnSync(process.execPath, args, {
      cwd: project,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
    })
    return stripVTControlCharacters(`${result.stdout}${result.stderr}`)
  }
  const vitest = join(ROOT, 'node_modules/vitest/vitest.mjs')
  const bin = join(ROOT, 'dist/cli/bin.js')
  for (const [name, warns] of [
    ['vitest.config.mts', false],
    ['vitest.config.ts', true],
  ] as const) {
    // A CommonJS project: no "type" in package.json.
    const project = await readmeProject(readme, name, '{ "name": "commonjs-project" }\n')
    await cp(DOCUCTL, join(project, 'fixtures/lab'), { recursive: true })
    const printed = run(project, vitest, 'run', '--reporter=default')
    // The plugin loaded and ran the fixture, either way.
    expect(printed, name).toContain('fixtures/lab · docuctl-rollback-contrasts (criteria)')
    expect(printed.includes(warning), name).toBe(warns)
    const checked = run(project, bin, 'decisions', 'fixtures/lab', '--check')
    expect(checked, name).toContain(`decisions and bindings match (with the rubric() options of ${name})`)
    expect(checked.includes(warning), name).toBe(warns)
  }
})
