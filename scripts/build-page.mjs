// Bundles the review page's modules (src/web/client/) into the one script the served page loads
// and the static report inlines: dist/web/client/page.js, an IIFE, so nothing leaks into the
// page's globals. `npm run build` type-checks them first (tsconfig.web.json); rolldown only strips
// the types. Rolldown is a development dependency, pinned to the version Vite itself uses.
import { resolve } from 'node:path'
import { build } from 'rolldown'

const root = resolve(import.meta.dirname, '..')

await build({
  cwd: root,
  input: resolve(root, 'src/web/client/page.ts'),
  // The sources import each other as `./x.js`, as TypeScript's own resolution has them.
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  platform: 'browser',
  transform: { target: 'es2022' },
  output: { file: resolve(root, 'dist/web/client/page.js'), format: 'iife', sourcemap: false },
  logLevel: 'warn',
})
