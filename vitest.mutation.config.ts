import { configDefaults, defineConfig } from 'vitest/config'

// The tests Stryker runs against each mutant of src/core: the ones that import the sources in this
// process. End-to-end tests run built files or child processes, which a mutant never reaches.
export default defineConfig({
  test: {
    include: ['test/core/**/*.test.ts', 'test/cli/**/*.test.ts', 'test/matchers/**/*.test.ts', 'test/run/**/*.test.ts'],
    // The typings tests run the type checker on files outside src/core.
    exclude: [...configDefaults.exclude, 'test/cli/bin.test.ts', 'test/matchers/typings.test.ts'],
    typecheck: { enabled: false },
  },
})
