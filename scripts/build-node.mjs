// Bundles the package's Node.js modules (src/, but the page's client) into dist/: one file per
// entry below, and shared chunks in dist/chunks/. A run of Vitest starts three or more processes
// (Vitest's, the planning process, the workers), and each loaded some 300 modules one by one: the
// loader's resolving and reading of each cost more than their code. Bundled, each process loads a
// handful. `npm run build` type-checks first and emits the declarations (tsconfig.build.json);
// rolldown only strips the types. Rolldown is a development dependency, pinned to the version Vite
// itself uses. Dependencies stay imports (`zod`, `@clack/prompts`, ...), resolved where installed.
import { chmodSync } from 'node:fs'
import { resolve } from 'node:path'
import { build } from 'rolldown'

const root = resolve(import.meta.dirname, '..')

const ENTRIES = [
  // The package's exports (package.json).
  'index',
  'criteria',
  'scored',
  'statistics',
  'plugin',
  'reporter/index',
  'matchers/index',
  'matchers/setup',
  // What the package starts by path: the command, Vitest's setup file, the planning process.
  'cli/bin',
  'runtime/index',
  'run/plan-child',
  // What the tests, benchmarks and scripts load by path in a process of their own.
  'cli/main',
  'core/stats/index',
  'core/sample/draw-judge',
  'web/server',
  'cli/commands/serve-team',
  'cli/commands/schema',
  'core/store/records',
  'core/json/atomic-write',
  'core/kinds/criteria/terminal/review',
]

await build({
  cwd: root,
  input: Object.fromEntries(ENTRIES.map((entry) => [entry, resolve(root, 'src', `${entry}.ts`)])),
  // The sources import each other as `./x.js`, as TypeScript's own resolution has them.
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  // Node's built-ins and the dependencies: everything not a path.
  external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  platform: 'node',
  transform: { target: 'es2022' },
  output: {
    dir: resolve(root, 'dist'),
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
  },
  logLevel: 'warn',
})

chmodSync(resolve(root, 'dist/cli/bin.js'), 0o755)
