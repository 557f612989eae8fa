// Where the package's own files are (its manifest, built modules, page assets, schemas, bundled
// fixtures). The build bundles the modules into `dist/`, so a module cannot tell from its own URL
// how deep below the package it sits: it is in `src/` when run from source, and in an entry or a
// shared chunk of `dist/` when built. The package's directory is the nearest one above this module
// that holds a `package.json`; neither `src/` nor `dist/` has one.
import { existsSync } from 'node:fs'
import { dirname, extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(import.meta.url)

/** Whether this code runs built (bundled `.js` in `dist/`) rather than from its TypeScript source. */
export const BUILT = extname(here) === '.js'

/** The package's directory: the nearest above this module with a `package.json`. */
export const PACKAGE_ROOT = packageRoot(dirname(here))

function packageRoot(start: string): string {
  for (let dir = start; ; ) {
    if (existsSync(join(dir, 'package.json'))) return dir
    const parent = dirname(dir)
    // Unreachable in an installed or checked-out package, which always has its manifest.
    if (parent === dir) throw new Error(`vitest-rubric: no package.json above ${start}`)
    dir = parent
  }
}

/** A file of the package, by its path from the package's directory (`dist/web/client/page.js`). */
export function packageFile(path: string): string {
  return join(PACKAGE_ROOT, path)
}

/**
 * A module the package starts by path (Vitest's setup files, the planning process), as it runs:
 * `dist/<module>.js` built, `src/<module>.ts` from source. Each is an entry of the build.
 */
export function ownModule(module: string): string {
  return BUILT ? join(PACKAGE_ROOT, 'dist', `${module}.js`) : join(PACKAGE_ROOT, 'src', `${module}.ts`)
}
