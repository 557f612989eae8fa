// Every file the package writes goes through src/core/json/, the one writer: fixture files through
// writeProjectFiles (confined to the project, fenced under the fixture's lock, all-or-nothing),
// outputs through writeOutputFile and removeOutputFiles, logs through append-file.ts. A module
// elsewhere that imported a filesystem write would write around those promises, so each import of
// `fs` outside src/core/json/ is read, as grep would, and a write function there fails this test.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const SRC = fileURLToPath(new URL('../../src', import.meta.url))
/** The one writer. */
const WRITER = 'core/json/'
/** The page client runs in the browser, where there is no filesystem. */
const BROWSER = 'web/client/'

/** The functions of `fs` that change the filesystem, or open a handle that can; the callback, promise and sync forms alike. */
const WRITES = new Set(
  [
    'appendFile',
    'chmod',
    'chown',
    'copyFile',
    'cp',
    'createWriteStream',
    'link',
    'lchmod',
    'lchown',
    'lutimes',
    'mkdir',
    'mkdtemp',
    'open',
    'rename',
    'rm',
    'rmdir',
    'symlink',
    'truncate',
    'unlink',
    'utimes',
    'write',
    'writeFile',
    'writev',
  ].flatMap((name) => [name, `${name}Sync`]),
)

/** Exceptions, each with its reason: none. A write that must stay outside the writer is named here, with why. */
const EXCEPTIONS: Readonly<Record<string, string>> = {}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith('.ts') ? [relative(SRC, path).split(sep).join('/')] : []
  })
}

const FS_MODULE = "'(?:node:)?fs(?:/promises)?'"
const NAMED = new RegExp(String.raw`import\s+(type\s+)?\{([^}]*)\}\s*from\s*${FS_MODULE}`, 'g')
const WHOLE = new RegExp(
  String.raw`import\s+(?:\*\s+as\s+\w+|\w+)\s*(?:,\s*\{[^}]*\})?\s*from\s*${FS_MODULE}|import\(\s*${FS_MODULE}\s*\)|require\(\s*${FS_MODULE}\s*\)`,
  'g',
)

/** Each fs write a module imports, as `file: name`; a whole-module import of fs counts as one, since what it calls cannot be read off the import. */
function fsWrites(module: string, text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(NAMED)) {
    if (match[1] !== undefined) continue
    for (const part of match[2]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!
      if (!part.trim().startsWith('type ') && WRITES.has(name)) found.push(`${module}: ${name}`)
    }
  }
  for (const match of text.matchAll(WHOLE)) found.push(`${module}: ${match[0]}`)
  return found
}

const modules = sources(SRC).map((module) => ({ module, text: readFileSync(join(SRC, module), 'utf8') }))
const outside = modules.filter(({ module }) => !module.startsWith(WRITER) && !module.startsWith(BROWSER) && EXCEPTIONS[module] === undefined)

describe('one writer: src/core/json/ makes every write of the package', () => {
  test('no module outside it imports a filesystem write', () => {
    expect(outside.length).toBeGreaterThan(100)
    expect(outside.flatMap(({ module, text }) => fsWrites(module, text))).toEqual([])
  })

  test('no module outside it calls the atomic writer directly: a fixture file is saved through writeProjectFiles, which confines it to the project first', () => {
    const direct = outside.filter(({ text }) => /\bwriteFilesAtomically\b/.test(text)).map(({ module }) => module)
    expect(direct).toEqual([])
  })

  test('the check reads every form of import', () => {
    const text = [
      "import { readFile, writeFile } from 'node:fs/promises'",
      "import { rename as move } from 'fs'",
      "import type { Stats } from 'node:fs'",
      "import { type Dirent, mkdirSync } from 'node:fs'",
      "import * as fs from 'node:fs'",
      "const later = await import('node:fs/promises')",
    ].join('\n')
    expect(fsWrites('a.ts', text)).toEqual([
      'a.ts: writeFile',
      'a.ts: rename',
      'a.ts: mkdirSync',
      "a.ts: import * as fs from 'node:fs'",
      "a.ts: import('node:fs/promises')",
    ])
  })

  test('every exception names a module that exists', () => {
    const names = new Set(modules.map(({ module }) => module))
    expect(Object.keys(EXCEPTIONS).filter((module) => !names.has(module))).toEqual([])
  })
})
